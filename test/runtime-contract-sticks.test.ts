/**
 * Contract changes stick, with the real CLI on a SQLite
 * file: `resume --contract new.yaml` makes the new contract the run's own (a
 * recorded decision), so the next plain `resume` does not go back to the
 * original and re-run the work; `run` on an existing run continues it; a
 * `run` killed before it recorded the run is started by the same command.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000 });

const { dir, log, store } = tempRunDir("taskspec-sticks-");
const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { TASKSPEC_TEST_LOG: log, ...env }, store);
const invocations = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
const status = async (run: string) => JSON.parse((await cli(["status", run, "--format", "json"])).stdout);

const original = readFileSync(join(FIXTURES, "chain.task.yaml"), "utf8");
const v1 = join(dir, "chain.task.yaml");
const v2 = join(dir, "chain-v2.task.yaml");
writeFileSync(v1, original);
// a behavioural edit of b: b re-runs once under it (c is kept by early cutoff), and never again
writeFileSync(
  v2,
  original.replace(
    "    produces: [b-out]\n    verify: [has_value]",
    '    produces: [b-out]\n    verify: [has_value, { check: "len(result.value) > 2" }]',
  ),
);
const handlers = join(FIXTURES, "chain-handlers.mjs");

describe("contract changes stick", () => {
  it("`run` killed after recording the run: the same command continues it; nothing committed runs again", async () => {
    writeFileSync(log, "");
    const command = ["run", v1, "--handlers", handlers, "--run", "S1"];
    const killed = await cli(command, { TASKSPEC_CRASH_AT: "after-commit-before-ack@b" });
    expect(killed.signal, killed.stderr).toBe("SIGKILL");
    expect(invocations()).toEqual(["a a1", "b a1"]);
    const again = await cli(command);
    expect(again.code, again.stderr + again.stdout).toBe(0);
    expect(again.stderr).toMatch(/run S1 exists in this store: continuing it/);
    expect(invocations()).toEqual(["a a1", "b a1", "c a1"]);
  });

  it("resume --contract new.yaml is the run's contract from then on: a plain resume re-runs nothing", async () => {
    const changed = await cli(["resume", "S1", "--contract", v2]);
    expect(changed.code, changed.stderr + changed.stdout).toBe(0);
    expect(changed.stderr).toMatch(
      /run S1 uses contract .*chain-v2\.task\.yaml from now on \(was .*chain\.task\.yaml\); recorded as a decision/,
    );
    expect(invocations().slice(3)).toEqual(["b a2"]);
    const planV2 = (await status("S1")).planVersion;

    const plain = await cli(["resume", "S1"]);
    expect(plain.code, plain.stderr + plain.stdout).toBe(0);
    expect(plain.stderr).not.toMatch(/the contract changed/);
    expect(invocations()).toHaveLength(4); // nothing superseded again
    const s = await status("S1");
    expect(s).toMatchObject({ status: "done", planVersion: planV2, contract: v2, counts: { current: 3, superseded: 1 } });
    const events = (await cli(["events", "S1", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; data?: Record<string, unknown> });
    const decisions = events.filter((e) => e.type === "decision" && e.data?.action === "origin");
    expect(decisions).toHaveLength(1);
    expect(decisions[0]!.data!.changed).toEqual([{ key: "contract", from: v1, to: v2 }]);

    // `run` with the new contract on the same run: continues, records nothing new, re-runs nothing
    const rerun = await cli(["run", v2, "--handlers", handlers, "--run", "S1"]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).not.toMatch(/from now on/);
    expect(invocations()).toHaveLength(4);
  });

  it("`run` killed before it recorded the run: `resume` says so, and the same command starts it", async () => {
    // a handler module that takes long to load: the run is killed while loading, before the store knows it
    const slow = join(dir, "slow-handlers.mjs");
    const body = `export { default } from ${JSON.stringify(handlers)};\n`;
    writeFileSync(slow, `await new Promise((r) => setTimeout(r, 60_000));\n${body}`);
    const command = ["run", v1, "--handlers", slow, "--run", "S2", "--store", store];
    const child = spawn(process.execPath, [fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url)), ...command], {
      env: { ...process.env, TASKSPEC_TEST_LOG: log, TASKSPEC_CRASH_AT: "", ...LEGACY_FIXTURE_ENV },
      stdio: "ignore",
    });
    await new Promise((r) => setTimeout(r, 1500));
    child.kill("SIGKILL");
    await new Promise((r) => child.on("close", r));
    const resume = await cli(["resume", "S2"]);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(
      /no run S2 in this store \(a `taskspec run --run S2` that died before recording it is started again by the same command\)/,
    );
    writeFileSync(slow, body);
    const again = await runCli(command, { TASKSPEC_TEST_LOG: log });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/run S2 started/);
  });
});
