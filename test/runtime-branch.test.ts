/**
 * `taskspec branch` end to end on the chain fixture: the branch is a new run
 * that reuses the original's valid committed results (its handlers never run
 * for them again) and diverges from there; the original run stays as it was;
 * `--at EVENT` branches from an earlier point; `--dry-run` records nothing;
 * a decision on a basis the run has moved past is refused and creates nothing.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const { log, store } = tempRunDir("taskspec-branch-");
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { TASKSPEC_TEST_LOG: log, ...LEGACY_FIXTURE_ENV, ...env }, store);
const status = async (run: string) => JSON.parse((await cli(["status", run, "--format", "json"])).stdout);
const events = async (run: string) =>
  (await cli(["events", run, "--format", "json"])).stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { seq: number; type: string; unit?: string; data?: Record<string, unknown> });
const invocations = () => readFileSync(log, "utf8").trim().split("\n");
const basisOf = (out: string) => /preview basis: (v\d+-[0-9a-f]{16})/.exec(out)![1]!;

beforeAll(async () => {
  writeFileSync(log, "");
  // the worker dies right after a's commit: a succeeded, b and c are to do
  const killed = await cli(["run", join(FIXTURES, "chain.task.yaml"), "--handlers", join(FIXTURES, "chain-handlers.mjs"), "--run", "R1"], {
    TASKSPEC_CRASH_AT: "after-commit-before-ack@a",
  });
  expect(killed.code, killed.stderr).not.toBe(0);
  expect(invocations()).toEqual(["a a1"]);
});

describe("branch", () => {
  it("a dry run prints what the branch reuses and runs again, and records nothing", async () => {
    const dry = await cli(["branch", "R1", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^preview: branch R1 as R1\.b1\n {2}reuses 1 unit\(s\): a\n {2}invalidates 2 unit\(s\)\n/);
    expect(dry.stdout).toContain("    b: not succeeded in R1 (pending): runs in the branch\n");
    expect(dry.stdout).toContain("creates run R1.b1: the plan R1 runs under, its caps with nothing used yet; R1 stays as it is");
    expect(dry.stdout).toContain("next: taskspec resume R1.b1");
    expect((await cli(["status", "R1.b1"])).stderr).toContain("no run R1.b1");
    expect((await events("R1")).filter((e) => e.type === "decision")).toEqual([]);
  });

  it("the branch reuses a, runs only b and c, and the original run stays as it was", async () => {
    const before = await status("R1");
    const eventsBefore = await events("R1");
    const basis = basisOf((await cli(["branch", "R1", "--dry-run"])).stdout);
    const made = await cli(["branch", "R1", "--if-preview", basis, "--by", "ada", "--reason", "try another audience"]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toMatch(/^decision: branch R1 as R1\.b1\n {2}reuses 1 unit\(s\): a\n/);

    const b = await status("R1.b1");
    expect(b.units.map((u: { unit: string; state: string }) => [u.unit, u.state])).toEqual([
      ["a", "succeeded"],
      ["b", "ready"],
      ["c", "pending"],
    ]);
    expect(b.planVersion).toBe(before.planVersion);
    const decision = (await events("R1.b1")).find((e) => e.type === "decision")!;
    expect(decision.data).toMatchObject({ action: "branch", by: "ada", from: "R1", reuse: ["a"], reason: "try another audience" });

    // the original: the same units, checkpoint and figures; one decision event naming the branch
    const after = await status("R1");
    expect(after.units).toEqual(before.units);
    expect(after.checkpoint).toEqual(before.checkpoint);
    expect(after.counts).toEqual(before.counts);
    const added = (await events("R1")).slice(eventsBefore.length);
    expect(added.map((e) => [e.type, e.data?.action, e.data?.to])).toEqual([["decision", "branch", "R1.b1"]]);

    const done = await cli(["resume", "R1.b1"]);
    expect(done.code, done.stderr).toBe(0);
    expect((await status("R1.b1")).status).toBe("done");
    expect(invocations()).toEqual(["a a1", "b a1", "c a1"]);
    expect((await status("R1")).status).toBe(before.status);
  });

  it("--at an event before a's commit reuses nothing; the next branch number is b2", async () => {
    const first = (await events("R1")).find((e) => e.type === "checkpoint-committed" && e.data?.kind === "unit")!;
    const dry = await cli(["branch", "R1", "--at", String(first.seq - 1), "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^preview: branch R1 as R1\.b2\n {2}reuses 0 unit\(s\)\n/);
    expect(dry.stdout).toMatch(/ {4}a: committed at v\d+, after the branch point \(event #\d+, v0\): runs again\n/);
    expect(dry.stdout).toContain("    b: not succeeded in R1 (pending): runs in the branch\n");
    const at = await cli(["branch", "R1", "--at", String(first.seq), "--dry-run"]);
    expect(at.stdout).toMatch(/reuses 1 unit\(s\): a\n/);
    const both = await cli(["branch", "R1", "--at", "3", "--from-baseline", "--dry-run"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("give --from-baseline or --at EVENT, not both");
    expect((await cli(["branch", "R1", "--at", "x", "--dry-run"])).stderr).toContain(
      '--at takes an event number (taskspec events), not "x"',
    );
  });

  it("a branch on a stale preview is refused with what changed, and creates no run", async () => {
    const basis = basisOf((await cli(["branch", "R1", "--dry-run"])).stdout);
    expect((await cli(["rerun", "R1", "a"])).code).toBe(0);
    const stale = await cli(["branch", "R1", "--if-preview", basis]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/^taskspec: branch R1 refused: the run changed since its preview .*checkpoint v\d+ -> v\d+/);
    expect(stale.stdout).toMatch(/^preview: branch R1 as R1\.b2\n {2}reuses 0 unit\(s\)\n/);
    expect((await cli(["status", "R1.b2"])).stderr).toContain("no run R1.b2");
    const named = await cli(["branch", "R1", "--as", "R1.b1"]);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain("run R1.b1 exists already");
  });
});
