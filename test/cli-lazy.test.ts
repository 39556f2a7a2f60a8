/**
 * The CLI loads a command's dependencies only when that command runs
 * (start-up time): `check` must not load the runtime, SQLite, pg, the language
 * server or Graphviz; `run` of a plan that binds no MCP server must not load
 * the MCP SDK or its schema library (every worker and drill process pays for
 * what it loads). Recorded with a loader hook in a real process.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const HOOK = fileURLToPath(new URL("./fixtures/record-loads.mjs", import.meta.url));
const SPEC = fileURLToPath(new URL("../specs/publish-post.task.yaml", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../runtime/test/fixtures/", import.meta.url));

function loadsOf(args: string[]): string[] {
  const log = join(mkdtempSync(join(tmpdir(), "taskspec-lazy-")), "loads.log");
  const r = spawnSync(process.execPath, ["--import", HOOK, CLI, ...args], {
    encoding: "utf8",
    env: { ...process.env, TASKSPEC_LOAD_LOG: log },
  });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(log, "utf8").split("\n").filter(Boolean);
}

// ajv itself (not its small run-time helpers the generated validators import): check runs generated validators
const HEAVY = [
  /\/ajv\/dist\/(ajv|2020|core)\.js/,
  /\/runtime\/dist\//,
  /better-sqlite3/,
  /\/node_modules\/pg\//,
  /vscode-languageserver/,
  /\/lsp\/dist\//,
  /wasm-graphviz/,
];

describe("lazy command loading", () => {
  it("check loads the compiler and nothing of the runtime, the stores, the language server or Graphviz", () => {
    const loads = loadsOf(["check", SPEC]);
    expect(loads.some((u) => u.includes("/compiler/dist/"))).toBe(true);
    for (const heavy of HEAVY)
      expect(
        loads.filter((u) => heavy.test(u)),
        String(heavy),
      ).toEqual([]);
  });

  it("run of a plan without MCP servers loads the runtime but neither the MCP SDK nor zod", () => {
    const dir = mkdtempSync(join(tmpdir(), "taskspec-lazy-run-"));
    const loads = loadsOf([
      "run",
      join(FIXTURES, "chain.task.yaml"),
      "--handlers",
      join(FIXTURES, "chain-handlers.mjs"),
      "--store",
      `sqlite:${join(dir, "store.db")}`,
      "--artifacts",
      join(dir, "a"),
    ]);
    expect(loads.some((u) => u.includes("/runtime/dist/"))).toBe(true);
    expect(loads.filter((u) => /@modelcontextprotocol|\/node_modules\/zod/.test(u))).toEqual([]);
  });

  it("help still lists every command (and so loads them all)", () => {
    const r = spawnSync(process.execPath, [CLI, "--help"], { encoding: "utf8" });
    for (const name of ["check", "compile", "impact", "graph", "run", "resume", "status", "lsp", "drill", "worker", "init"])
      expect(r.stdout).toMatch(new RegExp(`\\n  ${name} `));
  });
});
