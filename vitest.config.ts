import { configDefaults, defineConfig } from "vitest/config";

/** Every test file of the repository. */
const ALL = [
  "test/**/*.test.ts",
  "compiler/test/**/*.test.ts",
  "runtime/test/**/*.test.ts",
  "lsp/test/**/*.test.ts",
  "cli/test/**/*.test.ts",
  "examples/test/**/*.test.ts",
  "extension/test/**/*.test.ts",
];

/** Suites that need a PostgreSQL server (TASKSPEC_PG_URL; npm test starts one). */
const POSTGRES = ["runtime/test/conformance/postgres.test.ts", "test/postgres-*.test.ts"];

/**
 * Suites that drive real editors, kill real worker processes at every crash
 * point or install the packed packages: minutes each, and VS Code needs
 * code-server and Chromium.
 */
const E2E = [
  "test/e2e-vscode/**/*.test.ts",
  "test/console/**/*.test.ts",
  "test/lsp-neovim.test.ts",
  "test/drills/**/*.test.ts",
  "test/installed-package.test.ts",
  "examples/test/**/*.e2e.test.ts",
];

/**
 * Suites that start real processes (the CLI, the language server over stdio,
 * worker processes killed mid-run, the example services, a child with its own
 * heap flags): seconds each, so not in the inner loop. No server needed.
 */
const PROCESS = [
  "test/cli-*.test.ts",
  "test/runtime-*.test.ts",
  "test/lsp-stdio*.test.ts",
  "test/lsp-config.test.ts",
  "test/lsp-launch.test.ts",
  "runtime/test/crash-resume.test.ts",
  "runtime/test/sqlite-open-race.test.ts",
  "runtime/test/openai-chat.test.ts",
  "lsp/test/heap.test.ts",
  "examples/test/services-process.test.ts",
  "test/hostile/cli.test.ts",
  "test/hostile/lsp-session.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // the compiler deep-freezes the contract values and plans it hands out (compiler/src/memo.ts), so a mutation fails a test
    env: { TASKSPEC_FREEZE_PLAIN: "1" },
    hookTimeout: 60_000,
    // Lists skipped tests at the end; under TASKSPEC_REQUIRE_ALL=1 (.ci/run) any skip fails the run.
    reporters: ["default", "./test/skip-guard-reporter.ts"],
    // Unit files share one module graph per worker (isolate: false): they run
    // in-process and hold no process-wide state beyond what vitest restores.
    // Importing the packages once instead of per file is what keeps the inner
    // loop under two minutes on a 2-core machine.
    unstubEnvs: true,
    unstubGlobals: true,
    // `npm test` runs every project (FC_RUNS=full: the long property tests at
    // full strength, test/fc-runs.ts); `npm run test:unit` only "unit" (no root,
    // no server, no browser); `npm run test:process` only "process".
    projects: [
      {
        extends: true,
        test: { name: "unit", isolate: false, include: ALL, exclude: [...configDefaults.exclude, ...POSTGRES, ...E2E, ...PROCESS] },
      },
      { extends: true, test: { name: "process", include: PROCESS } },
      { extends: true, test: { name: "postgres", include: POSTGRES } },
      { extends: true, test: { name: "e2e", include: E2E } },
    ],
  },
});
