/**
 * `taskspec branch` on a PostgreSQL store, as on SQLite
 * (test/runtime-branch.test.ts): the branch reuses the original's committed
 * result, runs only the rest, and the original keeps its units and checkpoint.
 * Needs TASKSPEC_PG_URL (scripts/with-postgres.sh); skips loudly without it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli } from "./runtime-harness.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 240_000 });

describeIfAvailable("branch on PostgreSQL", postgresMissing(), () => {
  it("the branch reuses a, runs b and c, and the original run stays as it was", async () => {
    const dir = mkdtempSync(join(tmpdir(), "taskspec-pg-branch-"));
    const log = join(dir, "invocations.log");
    writeFileSync(log, "");
    const store = `${process.env.TASKSPEC_PG_URL}?schema=branch_${process.pid}_${Date.now()}`;
    const env = { ...LEGACY_FIXTURE_ENV, TASKSPEC_TEST_LOG: log };
    const cli = (args: string[], extra: Record<string, string> = {}) => runCli(args, { ...env, ...extra }, store);
    const status = async (run: string) => JSON.parse((await cli(["status", run, "--format", "json"])).stdout);

    const killed = await cli(
      [
        "run",
        join(FIXTURES, "chain.task.yaml"),
        "--handlers",
        join(FIXTURES, "chain-handlers.mjs"),
        "--run",
        "P1",
        "--artifacts",
        join(dir, "artifacts"),
      ],
      { TASKSPEC_CRASH_AT: "after-commit-before-ack@a" },
    );
    expect(killed.code, killed.stderr).not.toBe(0);
    const before = await status("P1");

    const made = await cli(["branch", "P1", "--by", "ada"]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^decision: branch P1 as P1\.b1\n {2}reuses 1 unit\(s\): a\n/);
    const done = await cli(["resume", "P1.b1"]);
    expect(done.code, done.stderr).toBe(0);
    expect((await status("P1.b1")).status).toBe("done");
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["a a1", "b a1", "c a1"]);

    const after = await status("P1");
    expect(after.units).toEqual(before.units);
    expect(after.checkpoint).toEqual(before.checkpoint);
  });
});
