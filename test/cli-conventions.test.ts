/**
 * Everyday CLI conventions (issue 14 item 9): standard input as `-`,
 * FORCE_COLOR, TASKSPEC_STORE for the operator commands, numeric options
 * validated before anything is recorded.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const cwd = fileURLToPath(new URL("..", import.meta.url));
const CYCLE = join(cwd, "specs/invalid/C020-cycle.task.yaml");
const taskspec = (args: string[], env: Record<string, string> = {}, input?: string) =>
  spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    encoding: "utf8",
    input,
    env: { ...process.env, NO_COLOR: "", FORCE_COLOR: "", TASKSPEC_STORE: "", ...env },
  });

describe("CLI conventions", () => {
  it("check - reads the contract from standard input", () => {
    const r = taskspec(["check", "-"], {}, readFileSync(CYCLE, "utf8"));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^-:\d+:\d+: error C020:/);
  });

  it("FORCE_COLOR=1 colours a pipe, FORCE_COLOR=0 does not", () => {
    expect(taskspec(["check", CYCLE], { FORCE_COLOR: "1" }).stdout).toContain("\u001b[31;1merror C020");
    expect(taskspec(["check", CYCLE], { FORCE_COLOR: "0" }).stdout).not.toContain("\u001b[");
  });

  it("--concurrency must be a positive integer, refused before a run is created", () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "taskspec-conv-")), "store.db")}`;
    for (const bad of ["abc", "0", "1.5", "-2"]) {
      const r = taskspec([
        "run",
        "specs/publish-post.task.yaml",
        "--handlers",
        "examples/dist/handlers/publish-post.js",
        "--store",
        store,
        "--concurrency",
        bad,
      ]);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--concurrency must be a positive integer, not ${JSON.stringify(bad)}`);
    }
  });

  it("TASKSPEC_STORE is the store when --store is not given", () => {
    const store = `sqlite:${join(mkdtempSync(join(tmpdir(), "taskspec-conv-")), "env-store.db")}`;
    const r = taskspec(["status", "no-such-run"], { TASKSPEC_STORE: store });
    expect(r.stderr).toContain("no-such-run");
    expect(readFileSync(store.slice("sqlite:".length)).length).toBeGreaterThan(0); // opened (and created) there
  });
});
