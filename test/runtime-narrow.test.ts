/**
 * `taskspec narrow` end to end on the chain fixture (a -> b -> c, output
 * c-out): narrowed to b, c is dropped from the goal; the preview names what
 * is kept and given up, a dry run records nothing, and the run is done after
 * b without c ever running, its run-done event naming what was given up.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const { log, store } = tempRunDir("taskspec-narrow-");
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { TASKSPEC_TEST_LOG: log, ...LEGACY_FIXTURE_ENV, ...env }, store);
const status = async () => JSON.parse((await cli(["status", "N1", "--format", "json"])).stdout);
const events = async () =>
  (await cli(["events", "N1", "--format", "json"])).stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; unit?: string; data?: Record<string, unknown> });

beforeAll(async () => {
  writeFileSync(log, "");
  const killed = await cli(["run", join(FIXTURES, "chain.task.yaml"), "--handlers", join(FIXTURES, "chain-handlers.mjs"), "--run", "N1"], {
    TASKSPEC_CRASH_AT: "after-commit-before-ack@a",
  });
  expect(killed.code, killed.stderr).not.toBe(0);
});

describe("narrow", () => {
  it("previews what is kept, dropped and given up; a dry run records nothing; bad names are refused", async () => {
    const dry = await cli(["narrow", "N1", "--to", "b", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /^preview: narrow N1 to b\n {2}reuses 1 unit\(s\): a\n {2}invalidates 1 unit\(s\)\n {4}c: dropped from the goal: b does not need it\n/,
    );
    expect(dry.stdout).toContain(
      "  keeps a b (what b needs)\n  gives up the outputs c-out\n  gives up the verifiers c: has_value; task.done: c_ok\n",
    );
    expect((await events()).filter((e) => e.type === "decision")).toEqual([]);
    const bad = await cli(["narrow", "N1", "--to", "zz", "--dry-run"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"zz" is neither a unit nor an output of the run\'s plan; nothing was changed');
  });

  it("narrowed to b, the run is done after b and c never runs", async () => {
    const basis = /preview basis: (v\d+-[0-9a-f]{16})/.exec((await cli(["narrow", "N1", "--to", "b", "--dry-run"])).stdout)![1]!;
    const made = await cli(["narrow", "N1", "--to", "b", "--if-preview", basis, "--by", "ada", "--reason", "the appendix is enough"]);
    expect(made.code, made.stderr).toBe(0);
    expect((await events()).find((e) => e.type === "decision")?.data).toEqual({
      action: "narrow",
      by: "ada",
      via: "open-store",
      to: ["b"],
      drop: ["c"],
      reason: "the appendix is enough",
    });
    const s = await status();
    expect(s.blocked).toEqual([]);
    expect(s.units.find((u: { unit: string }) => u.unit === "c").reason).toBe(
      "out-of-scope: dropped from the goal by ada: narrowed to b (the appendix is enough)",
    );
    const done = await cli(["resume", "N1"]);
    expect(done.code, done.stderr).toBe(0);
    expect((await status()).status).toBe("done");
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["a a1", "b a1"]);
    expect((await events()).find((e) => e.type === "run-done")?.data).toMatchObject({
      narrowed: { outputs: ["c-out"], verifiers: ["c_ok"] },
    });
  });
});
