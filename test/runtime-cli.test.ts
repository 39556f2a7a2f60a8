/**
 * The operator CLI end to end on the chain fixture (no remote needed): every
 * status figure as JSON, the handoff export, previews that record nothing,
 * decisions that are recorded, and errors as messages with exit codes.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURES, runCli, tempRunDir } from "./runtime-harness.js";

// Real processes and services on a shared 2-core machine: generous per-test time.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const { dir, log, store } = tempRunDir("taskspec-cli-");

const cli = (args: string[]) => runCli(args, { TASKSPEC_TEST_LOG: log }, store);
const status = async () => JSON.parse((await cli(["status", "R1", "--format", "json"])).stdout);

beforeAll(async () => {
  writeFileSync(log, "");
  const out = await cli([
    "run",
    join(FIXTURES, "chain.task.yaml"),
    "--handlers",
    join(FIXTURES, "chain-handlers.mjs"),
    "--run",
    "R1",
    "--format",
    "json",
  ]);
  expect(out.code).toBe(0);
  expect(JSON.parse(out.stdout)).toMatchObject({ run: "R1", status: "done" });
  expect(out.stderr).toMatch(/\[progress\] 3\/3 done · 0 ready · 0 running · 0 blocked · model_calls 3\/10/);
});

describe("taskspec operator commands", () => {
  it("status --format json gives every figure as data", async () => {
    const s = await status();
    expect(s).toMatchObject({
      run: "R1",
      status: "done",
      counts: { units: 3, current: 3, superseded: 0, ready: 0, running: 0, blocked: 0, failed: 0 },
      artifacts: { current: 3, superseded: 0, orphan: 0, corrupt: 0, orphans: [] },
      baselineCommits: 3,
      budget: { caps: { model_calls: 10 }, left: { model_calls: 7 } },
      approvals: { pending: [], granted: [] },
      unknownEffects: [],
      nextSafeAction: expect.stringMatching(/none: the run is done/),
    });
    for (const key of [
      "planVersion",
      "inputVersion",
      "checkpoint",
      "leases",
      "lastProgressAt",
      "supersededUnits",
      "blocked",
      "stall",
      "recentErrors",
      "units",
    ])
      expect(s).toHaveProperty(key);
  });

  it("handoff writes JSON and a Markdown narrative from the same state", async () => {
    const out = await cli(["handoff", "R1", "--out", join(dir, "handoff")]);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^# Handoff: run R1 \(chain\)/);
    const json = JSON.parse(readFileSync(join(dir, "handoff/handoff.json"), "utf8"));
    expect(json.status.baselineCommits).toBe(3);
    expect(json.options.map((o: { action: string }) => o.action)).toContain("cancel");
    expect(existsSync(join(dir, "handoff/handoff.md"))).toBe(true);
    expect(out.stdout).toMatch(/## Contract \(as on disk now\)\n\n```yaml\n# Three units in a chain/);
    expect(json.contractText).toMatch(/^# Three units/);
  });

  it("previews record nothing; a rerun decision is recorded and early cutoff keeps what hashes the same", async () => {
    const before = (await status()).checkpoints;
    const preview = await cli(["rerun", "R1", "b", "--dry-run"]);
    expect(preview.stdout).toMatch(
      /preview: rerun b\n {2}reuses 1 unit\(s\): a\n {2}invalidates 2 unit\(s\)\n {4}b: b \(operator re-run\)\n {4}c: b --content--> c \(kept if its inputs hash the same: early cutoff\)/,
    );
    expect(preview.stdout).toMatch(/dry run: nothing recorded/);
    expect((await status()).checkpoints).toBe(before);
    expect((await cli(["budget", "R1", "--cap", "model_calls=20", "--dry-run"])).stdout).toMatch(/model_calls: cap 10 -> 20 \(used 3\)/);
    const decision = await cli(["rerun", "R1", "b"]);
    expect(decision.stdout).toMatch(/decision: rerun b/);
    expect((await status()).status).toBe("resumable");
    expect((await cli(["resume", "R1"])).code).toBe(0);
    const lines = readFileSync(log, "utf8").trim().split("\n");
    expect(lines.slice(3)).toEqual(["b a2"]); // c was restored by early cutoff
    const s = await status();
    expect(s.counts).toMatchObject({ current: 3, superseded: 1 });
    expect(s.baselineCommits).toBe(4);
  });

  it("user errors are messages with exit codes, not stack traces", async () => {
    const missing = await cli(["status", "NOPE"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^taskspec: no run NOPE in this store/);
    const badCap = await cli(["budget", "R1", "--cap", "gold=5"]);
    expect(badCap.code).toBe(2); // a malformed option is a usage error, found before the store is read
    expect(badCap.stderr).toMatch(/bad cap "gold=5"/);
    // `run` on an existing run continues it (test/runtime-contract-sticks.test.ts); another task's contract is refused
    const other = await cli([
      "run",
      join(FIXTURES, "guards.task.yaml"),
      "--handlers",
      join(FIXTURES, "guards-handlers.mjs"),
      "--run",
      "R1",
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/run R1 in this store is a run of task chain, not guards/);
  });
});
