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
  "test/lsp-neovim.test.ts",
  "test/drills/**/*.test.ts",
  "test/installed-package.test.ts",
  "examples/test/**/*.e2e.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // the compiler deep-freezes the contract values and plans it hands out (compiler/src/memo.ts), so a mutation fails a test
    env: { TASKSPEC_FREEZE_PLAIN: "1" },
    hookTimeout: 60_000,
    // Lists skipped tests at the end; under TASKSPEC_REQUIRE_ALL=1 (.ci/run) any skip fails the run.
    reporters: ["default", "./test/skip-guard-reporter.ts"],
    // `npm test` runs every project; `npm run test:unit` only "unit" (no root, no server, no browser).
    projects: [
      { extends: true, test: { name: "unit", include: ALL, exclude: [...configDefaults.exclude, ...POSTGRES, ...E2E] } },
      { extends: true, test: { name: "postgres", include: POSTGRES } },
      { extends: true, test: { name: "e2e", include: E2E } },
    ],
  },
});
