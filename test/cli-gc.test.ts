/**
 * `taskspec gc` end to end with the real CLI on a SQLite store and a
 * directory of artifacts: a run that ended before the window loses its
 * superseded artifact files, its orphans and the payloads of events that are
 * not audit facts; a run in flight (its worker SIGKILLed mid-unit) is kept
 * whole; `--dry-run` removes nothing; `status`, `show` and `handoff` of the
 * collected run still explain it, and its checkpoint chain still verifies. A
 * file a branch reuses from its origin survives the gc of either run.
 * (PostgreSQL with `pg:` and S3 artifacts: test/postgres-gc.test.ts.)
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000 });

const { dir, store } = tempRunDir("taskspec-gc-");
const artifacts = join(dir, "artifacts");
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { ...LEGACY_FIXTURE_ENV, ...env }, store);
const contract = join(FIXTURES, "chain.task.yaml");
const handlers = join(FIXTURES, "chain-handlers.mjs");
const file = (path: string) => join(artifacts, path);

describe("taskspec gc (SQLite, a directory of artifacts)", () => {
  it("collects a run that ended before the window, keeps a run in flight whole, and status, show and handoff explain it", async () => {
    expect((await cli(["run", contract, "--handlers", handlers, "--run", "R1", "--artifacts", artifacts])).code).toBe(0);
    expect((await cli(["rerun", "R1", "b"])).code).toBe(0);
    expect((await cli(["resume", "R1"])).code).toBe(0);
    mkdirSync(file("runs/R1/b/a9"), { recursive: true });
    writeFileSync(file("runs/R1/b/a9/stray"), "never adopted");
    // the worker dies after b's file is written, before its commit: R2 stays active with an orphan
    const crashed = await cli(["run", contract, "--handlers", handlers, "--run", "R2", "--artifacts", artifacts], {
      TASKSPEC_CRASH_AT: "after-artifact-before-commit@b",
    });
    expect(crashed.signal).toBe("SIGKILL");
    const before = JSON.parse((await cli(["status", "R1", "--format", "json"])).stdout);
    expect(before.artifacts).toMatchObject({ current: 3, superseded: 1, orphan: 1 });
    await new Promise((r) => setTimeout(r, 1100));

    const dry = await cli(["gc", "--older-than", "1s", "--dry-run", "--format", "json"]);
    expect(dry.code, dry.stderr).toBe(0);
    const planned = JSON.parse(dry.stdout);
    expect(planned.dryRun).toBe(true);
    const r1 = planned.runs.find((r: { run: string }) => r.run === "R1");
    expect(r1).toMatchObject({ state: "would-collect", superseded: ["runs/R1/b/a1/b-out"], rejected: [], orphans: ["runs/R1/b/a9/stray"] });
    expect(r1.payloads.length).toBeGreaterThan(0);
    expect(planned.runs.find((r: { run: string }) => r.run === "R2")).toMatchObject({
      state: "skipped",
      reason: expect.stringMatching(/in flight/),
    });
    expect(existsSync(file("runs/R1/b/a1/b-out")) && existsSync(file("runs/R1/b/a9/stray"))).toBe(true);

    const gc = await cli(["gc", "--older-than", "1s"]);
    expect(gc.code, gc.stderr).toBe(0);
    expect(gc.stdout).toMatch(
      /R1 \(.*\): removed 1 superseded and 0 rejected artifact file\(s\), 1 orphan file\(s\), \d+ event payload\(s\)/,
    );
    expect(gc.stdout).toMatch(/R2: kept whole: active: a run in flight is never collected from/);
    expect(existsSync(file("runs/R1/b/a1/b-out"))).toBe(false);
    expect(existsSync(file("runs/R1/b/a9"))).toBe(false); // an attempt directory left empty goes too
    for (const kept of ["runs/R1/a/a1/a-out", "runs/R1/b/a2/b-out", "runs/R1/c/a1/c-out", "runs/R2/b/a1/b-out"])
      expect(existsSync(file(kept)), kept).toBe(true);

    const after = JSON.parse((await cli(["status", "R1", "--format", "json"])).stdout);
    expect(after.artifacts).toMatchObject({ current: 3, superseded: 1, orphan: 0, corrupt: 0 });
    expect(after.baselineCommits).toBe(before.baselineCommits);
    expect(after.checkpoints).toBe(before.checkpoints);
    expect(after.integrity.verified).toBe(true);
    expect(after.collected).toMatchObject({ times: 1, superseded: 1, rejected: 0, orphans: 1, last: { olderThan: "1s" } });
    expect(after.collected.payloads).toBe(r1.payloads.length);
    const text = (await cli(["status", "R1"])).stdout;
    expect(text).toMatch(
      /collected by gc once \(last .*, older than 1s\): 1 superseded and 0 rejected artifact file\(s\), 1 orphan file\(s\), \d+ event payload\(s\) removed/,
    );
    expect((await cli(["show", "R1", "b"])).stdout).toMatch(
      /artifact b-out a1 committed: runs\/R1\/b\/a1\/b-out sha256 [0-9a-f]{64} .* file removed by gc at \S+ \(manifest and hash kept\)/,
    );
    expect((await cli(["handoff", "R1"])).stdout).toMatch(/^- Collected: collected by gc once/m);
    // the operator's decision (the re-run) keeps its payload; a progress event lost its
    const events = (await cli(["events", "R1", "--format", "json"])).stdout;
    const list = events
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; data?: unknown });
    expect(list.filter((e) => e.type === "decision").every((e) => e.data !== undefined)).toBe(true);
    expect(list.some((e) => e.type === "leased" && e.data === undefined)).toBe(true);

    const again = await cli(["gc", "--older-than", "1s"]);
    expect(again.stdout).toMatch(/R1: nothing to collect/);
  });

  it("a window longer than the runs' age keeps everything; --artifacts narrows to the runs stored there; a bad window is bad usage", async () => {
    const long = await cli(["gc", "--older-than", "30d", "--format", "json"]);
    expect(long.code, long.stderr).toBe(0);
    expect(JSON.parse(long.stdout).runs.map((r: { state: string }) => r.state)).toEqual(["skipped", "skipped"]);
    const elsewhere = await cli(["gc", "--older-than", "1s", "--artifacts", join(dir, "elsewhere"), "--format", "json"]);
    expect(JSON.parse(elsewhere.stdout).runs).toEqual([]);
    const bad = await cli(["gc", "--older-than", "thirty days"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad --older-than "thirty days": write e.g. 30m, 24h, 2d/);
  });

  it("a branch reuses its origin's files in place: a file one run superseded but the other holds current survives gc of both", async () => {
    expect((await cli(["run", contract, "--handlers", handlers, "--run", "R3", "--artifacts", artifacts])).code).toBe(0);
    const made = await cli(["branch", "R3", "--as", "R3b"]);
    expect(made.code, made.stderr).toBe(0);
    expect((await cli(["resume", "R3b"])).code).toBe(0);
    // the branch re-runs b: its reused record of b (R3's file) is superseded in the branch, still current in R3
    expect((await cli(["rerun", "R3b", "b"])).code).toBe(0);
    expect((await cli(["resume", "R3b"])).code).toBe(0);
    const shared = "runs/R3/b/a1/b-out";
    const branchShow = (await cli(["show", "R3b", "b"])).stdout;
    expect(branchShow).toContain(shared);
    await new Promise((r) => setTimeout(r, 1100));

    const gc = await cli(["gc", "--older-than", "1s", "--format", "json"]);
    expect(gc.code, gc.stderr).toBe(0);
    const runs = JSON.parse(gc.stdout).runs as Array<{
      run: string;
      superseded: string[];
      shared: Array<{ path: string; runs: string[] }>;
    }>;
    const b = runs.find((r) => r.run === "R3b")!;
    expect(b.superseded).not.toContain(shared);
    expect(b.shared).toEqual([{ path: shared, runs: ["R3"] }]);
    expect(existsSync(file(shared))).toBe(true);
    const origin = JSON.parse((await cli(["status", "R3", "--format", "json"])).stdout);
    expect(origin.artifacts).toMatchObject({ current: 3, corrupt: 0 });
    expect(origin.integrity.verified).toBe(true);
    expect((await cli(["gc", "--older-than", "1s"])).stdout).toMatch(/kept: runs\/R3\/b\/a1\/b-out \(still current in R3\)/);
  });
});
