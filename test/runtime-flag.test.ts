/**
 * `taskspec flag` / `unflag` end to end on the chain fixture: the flag is a
 * recorded decision that stops every new attempt (a resume claims nothing and
 * says why), `--dry-run` records nothing and prints a basis, a decision on a
 * basis the run has moved past is refused with what changed and the fresh
 * preview, and after `unflag` the run finishes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 120_000 });

const { log, store } = tempRunDir("taskspec-flag-");
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { TASKSPEC_TEST_LOG: log, ...LEGACY_FIXTURE_ENV, ...env }, store);
const status = async () => JSON.parse((await cli(["status", "F1", "--format", "json"])).stdout);
const invocations = () => readFileSync(log, "utf8").trim().split("\n");
const decisions = async () =>
  (await cli(["events", "F1", "--format", "json"])).stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; data?: Record<string, unknown> })
    .filter((e) => e.type === "decision")
    .map((e) => e.data);

beforeAll(async () => {
  writeFileSync(log, "");
  // the worker dies right after a's commit: the run stays active with b and c to do
  const killed = await cli(["run", join(FIXTURES, "chain.task.yaml"), "--handlers", join(FIXTURES, "chain-handlers.mjs"), "--run", "F1"], {
    TASKSPEC_CRASH_AT: "after-commit-before-ack@a",
  });
  expect(killed.code, killed.stderr).not.toBe(0);
  expect(invocations()).toEqual(["a a1"]);
});

describe("flag and unflag", () => {
  it("a dry run records nothing and prints the basis; a flag on a basis the run moved past is refused with what changed", async () => {
    const dry = await cli(["flag", "F1", "--reason", "the seed looks wrong", "--dry-run"]);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^preview: flag as needing expert handling\n {2}reuses 1 unit\(s\): a\n/);
    expect(dry.stdout).toContain("stops every worker from starting an attempt of run F1 until `taskspec unflag F1`");
    expect(dry.stdout).toContain("reason: the seed looks wrong");
    const basis = /preview basis: (v\d+-[0-9a-f]{16})/.exec(dry.stdout)![1]!;
    expect(await decisions()).toEqual([]);
    expect((await status()).status).toBe("resumable");

    // someone else re-runs a: the checkpoint moves and a is no longer reused
    expect((await cli(["rerun", "F1", "a"])).code).toBe(0);
    const stale = await cli(["flag", "F1", "--reason", "the seed looks wrong", "--if-preview", basis]);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(
      /^taskspec: flag F1 refused: the run changed since its preview \(v\d+-[0-9a-f]{16}, now v\d+-[0-9a-f]{16}\): checkpoint v\d+ -> v\d+;/,
    );
    expect(stale.stderr).toContain("nothing was changed");
    expect(stale.stdout).toMatch(/^preview: flag as needing expert handling\n {2}reuses 0 unit\(s\)\n/);
    expect((await decisions()).map((d) => d!.action)).toEqual(["rerun"]);
    const garbage = await cli(["flag", "F1", "--reason", "x", "--if-preview", "yesterday"]);
    expect(garbage.code).toBe(1);
    expect(garbage.stderr).toContain('"yesterday" is not a preview basis');
  });

  it("a flag on the fresh basis is recorded; no worker starts an attempt until it is cleared; then the run finishes", async () => {
    const dry = await cli(["flag", "F1", "--reason", "the seed looks wrong", "--dry-run"]);
    const basis = /preview basis: (v\d+-[0-9a-f]{16})/.exec(dry.stdout)![1]!;
    const flagged = await cli(["flag", "F1", "--reason", "the seed looks wrong", "--if-preview", basis, "--by", "ada"]);
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(flagged.stdout).toMatch(/^decision: flag as needing expert handling\n/);
    expect((await decisions()).at(-1)).toEqual({ action: "flag", by: "ada", via: "open-store", reason: "the seed looks wrong" });

    const s = await status();
    expect(s.status).toBe("blocked");
    expect(s.blocked).toEqual([{ reason: "needs-expert", detail: "flagged by ada: the seed looks wrong" }]);
    expect(s.nextSafeAction).toBe("expert handling: flagged by ada: the seed looks wrong; when it is settled: taskspec unflag F1");
    const again = await cli(["flag", "F1", "--reason", "twice"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already flagged as needing expert handling \(flagged by ada: the seed looks wrong\)/);

    const before = invocations().length;
    const resumed = await cli(["resume", "F1"]);
    expect(resumed.code, resumed.stderr).toBe(3);
    expect(resumed.stdout + resumed.stderr).toContain("needs-expert");
    expect(invocations().length).toBe(before);

    const unflagged = await cli(["unflag", "F1", "--reason", "seed checked", "--by", "bob"]);
    expect(unflagged.code, unflagged.stderr).toBe(0);
    expect((await decisions()).at(-1)).toMatchObject({ action: "unflag", by: "bob", reason: "seed checked" });
    expect((await cli(["unflag", "F1"])).stderr).toContain("run F1 is not flagged; nothing was changed");
    const done = await cli(["resume", "F1"]);
    expect(done.code, done.stderr).toBe(0);
    expect((await status()).status).toBe("done");
    // a was re-run by the decision the first case made; b and c run for the first time
    expect(invocations().slice(before)).toEqual(["a a2", "b a1", "c a1"]);
  });

  it("on a store with operator identities, flag and unflag need an operator key; a dry run does not", async () => {
    const own = tempRunDir("taskspec-flag-key-");
    const keyFile = join(own.dir, "ada.key");
    expect((await runCli(["store", "init-operator", "ada", "--key-file", keyFile], {}, own.store)).code).toBe(0);
    for (const args of [
      ["flag", "F9", "--reason", "r"],
      ["unflag", "F9"],
    ]) {
      const r = await runCli(args, { TASKSPEC_OPERATOR_KEY_FILE: "" }, own.store);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`${args[0]} F9 refused: this store's operator actions are protected`);
    }
    const dry = await runCli(["flag", "F9", "--reason", "r", "--dry-run"], { TASKSPEC_OPERATOR_KEY_FILE: "" }, own.store);
    expect(dry.stderr).toContain("no run F9 in this store");
  });
});
