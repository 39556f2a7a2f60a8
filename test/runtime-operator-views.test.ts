/**
 * Operator views and messages, with the real CLI:
 * `runs`, `show RUN UNIT`, `events RUN [--follow] [--format json]`; `run` and
 * plain `status` print why a unit failed, with the values its check read; a
 * run waiting at a gate is `blocked` without a stall alarm; an unreadable
 * volatile input is a refusal, not a stack trace; and every `taskspec ...`
 * command a message suggests is run and must work.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FIXTURES, harness, runArgs, type Harness, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 60_000 });

const { dir, store } = tempRunDir("taskspec-views-");
const CHAIN = join(FIXTURES, "chain.task.yaml");
const CHAIN_HANDLERS = join(FIXTURES, "chain-handlers.mjs");

// a suggested `store init-operator` is tried on a store of its own: this file's store stays open for the commands after it
const cli = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, env, args[0] === "store" && args[1] === "init-operator" ? tempRunDir("taskspec-views-own-").store : store);

/** Every `taskspec ...` command a text suggests: in backticks, or after "<label>: " up to " (" or the line's end. */
function suggestedCommands(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/`(taskspec [^`]+)`/g)) found.add(m[1]!);
  for (const m of text.matchAll(/: (taskspec [^\n(`]+?)(?: \(|,|\n|$)/g)) found.add(m[1]!.trim());
  return [...found];
}

/** A suggestion with its placeholders filled the way a person would, as argv. */
function filled(command: string, values: { unit: string; budget?: string }): string[] {
  const text = command
    .replace("<budget>=<n>", `${values.budget ?? "model_calls"}=50`)
    .replace("=<n>", "=50")
    .replace(/"\.\.\."/, "raised-in-test")
    .replace("<unit>", values.unit)
    .replace("--committed|--absent", "--absent")
    .replace("<name>", "ops")
    .replace("<file>", join(tempRunDir("taskspec-views-key-").dir, "ops.key"));
  expect(text, `placeholder left in ${command}`).not.toMatch(/[<>|]|\.\.\./);
  return text.split(" ").slice(1);
}

describe("runs, show, events", () => {
  beforeAll(async () => {
    expect((await cli(["run", CHAIN, "--handlers", CHAIN_HANDLERS, "--run", "V1"])).code).toBe(0);
  });

  it("runs lists the store's runs with state and plan version; show gives a unit's result, artifacts and hashes", async () => {
    const runs = await cli(["runs"]);
    expect(runs.code, runs.stderr).toBe(0);
    expect(runs.stdout).toMatch(/^RUN +TASK +STATE +PLAN +CHECKPOINT +DONE +LAST PROGRESS\n/);
    expect(runs.stdout).toMatch(/\nV1 +chain +done +[0-9a-f]{16}@v1 +v\d+ +3\/3 /);
    const json = JSON.parse((await cli(["runs", "--format", "json"])).stdout);
    expect(json.find((r: { run: string }) => r.run === "V1")).toMatchObject({ status: "done", units: { total: 3, succeeded: 3 } });

    const show = await cli(["show", "V1", "b"]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^unit b of run V1: succeeded \(1 attempt\(s\), 0 failed\)/);
    expect(show.stdout).toMatch(/result: \{"value":"s1>a>b"\}/);
    expect(show.stdout).toMatch(/artifact b-out a1 \(current\) committed: runs\/V1\/b\/a1\/b-out sha256 [0-9a-f]{64} /);
    const view = JSON.parse((await cli(["show", "V1", "b", "--format", "json"])).stdout);
    expect(view.current.result).toEqual({ value: "s1>a>b" });
    const missing = await cli(["show", "V1", "nope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^taskspec: run V1 has no unit nope \(its units: a, b, c\)/);
  });

  it("events prints the log as text or JSON lines; --follow ends once a settled run has nothing new", async () => {
    const text = await cli(["events", "V1"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^#1 \S+ /);
    const lines = (await cli(["events", "V1", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.map((e: { type: string }) => e.type)).toContain("leased");
    const after = await cli(["events", "V1", "--after", String(lines[lines.length - 2].seq), "--format", "json"]);
    expect(after.stdout.trim().split("\n")).toHaveLength(1);
    const follow = await cli(["events", "V1", "--follow", "--poll", "50ms"]);
    expect(follow.code).toBe(0);
    expect(follow.stdout.trim().split("\n")).toHaveLength(lines.length);
  });
});

describe("why a run did not finish, and what to do", () => {
  it("run and plain status print the failed unit's reason with the values its check read", async () => {
    const handlers = join(dir, "empty-b.mjs");
    writeFileSync(
      handlers,
      `import chain from ${JSON.stringify(CHAIN_HANDLERS)};\nexport default { ...chain, units: { ...chain.units, b: async (ctx) => { await ctx.write("b-out", { value: "" }); return { value: "" }; } } };\n`,
    );
    const run = await cli(["run", CHAIN, "--handlers", handlers, "--run", "V2"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/run V2: failed/);
    expect(run.stdout).toMatch(/\n {2}failed b: a2 \S+: [^\n]*len\(result\.value\) > 0 is false \(result\.value = ""\)/);
    const status = await cli(["status", "V2"]);
    expect(status.stdout).toMatch(/\n {2}failed b: [^\n]*len\(result\.value\) > 0 is false \(result\.value = ""\)/);
    for (const command of suggestedCommands(run.stdout + status.stdout)) {
      const out = await cli(
        filled(command, { unit: "b" }).concat(command.includes(" rerun ") || command.includes(" cancel ") ? ["--dry-run"] : []),
      );
      expect(out.code, `${command}: ${out.stderr}`).toBe(0);
    }
  });

  it("a budget block suggests a command that exists and raises the cap; resume then finishes", async () => {
    const run = await cli(["run", CHAIN, "--handlers", CHAIN_HANDLERS, "--run", "V3", "--cap", "model_calls=1"]);
    expect(run.code).toBe(3); // blocked
    expect(run.stdout).toMatch(/blocked: budget: b: /);
    const status = await cli(["status", "V3"]);
    const commands = suggestedCommands(run.stdout + status.stdout);
    expect(commands.some((c) => c.startsWith("taskspec budget V3 --cap"))).toBe(true);
    for (const command of commands) {
      const out = await cli(filled(command, { unit: "b", budget: "model_calls" }));
      expect(out.code, `${command}: ${out.stderr}`).toBe(0);
      expect(out.stderr).not.toMatch(/unknown (command|option)/);
    }
    const next = JSON.parse((await cli(["status", "V3", "--format", "json"])).stdout).nextSafeAction;
    expect(next).toBe("resume: taskspec resume V3");
    expect((await cli(filled(suggestedCommands(next)[0]!, { unit: "b" }))).code).toBe(0);
    expect(JSON.parse((await cli(["status", "V3", "--format", "json"])).stdout).status).toBe("done");
  });

  it("a volatile input that cannot be read is a clear refusal, never a stack trace", async () => {
    const contract = join(FIXTURES, "volatile.task.yaml");
    const handlers = join(dir, "volatile-handlers.mjs");
    writeFileSync(
      handlers,
      `const read = () => { if (process.env.SITE_DOWN) throw new Error("connect ECONNREFUSED 127.0.0.1:9"); return { version: 1 }; };
const unit = (name) => async (ctx) => { await ctx.write(name, { site: ctx.inputs.site ?? null }); return { ok: true }; };
export default { units: { observe: unit("observation"), report: unit("report") }, tools: {}, inputs: { site: read } };
`,
    );
    const run = await cli(["run", contract, "--handlers", handlers, "--run", "V4"]);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    const down = await cli(["resume", "V4"], { SITE_DOWN: "1" });
    expect(down.code).toBe(1);
    // one clear line and nothing else (beside the default isolation's warning that this one-module layout has no --tools)
    expect(down.stderr.replace(/^taskspec: warning: no --tools: .*\n/m, "")).toMatch(
      /^taskspec: volatile input site of run V4 cannot be read \(connect ECONNREFUSED 127\.0\.0\.1:9\); nothing was changed or run: retry `taskspec resume V4` when its source is reachable\n$/,
    );
    expect((await cli(["resume", "V4"])).code).toBe(0);
  });
});

describe("waiting for a person", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("a run at its approval gate is blocked, raises no stall alarm, and the suggested approve works", async () => {
    const run = await h.cli(runArgs("G1"));
    expect(run.code).toBe(3); // blocked
    const status = JSON.parse((await h.cli(["status", "G1", "--format", "json"])).stdout);
    expect(status.status).toBe("blocked");
    expect(status.approvals.pending.map((p: { unit: string }) => p.unit)).toEqual(["mail"]);
    expect(status.stall).toEqual([]);
    const text = (await h.cli(["status", "G1"])).stdout;
    expect(text).not.toMatch(/stall:/);
    // the blocked line first suggests looking (`approve ... --dry-run`); the approval itself is the one that records
    const commands = suggestedCommands(run.stdout + text).filter((c) => c.includes(" approve ") && !c.includes("--dry-run"));
    expect(commands.length).toBeGreaterThan(0);
    const approve = await h.cli(filled(commands[0]!, { unit: "mail" }));
    expect(approve.code, approve.stderr).toBe(0);
    expect((await h.cli(["resume", "G1"])).code).toBe(0);
  });
});
