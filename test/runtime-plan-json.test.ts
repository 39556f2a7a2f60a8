/**
 * A plan read from JSON is checked before anything runs.
 * The real CLI on the chain fixture: a plan compiled with `compile -o` runs;
 * the same plan with `task.done` emptied (its planHash left as compiled) is
 * refused with exit 2, the file and both hashes named, and nothing recorded;
 * broken JSON is refused at file:line:col; a plan that fails the plan schema
 * names the offending place. Never a stack trace.
 * On the gate fixture, plans edited by hand and hashed again (the hash is a
 * checksum anyone can recompute) are refused by `run`, and a run's plan file
 * edited that way between runs is refused by `resume` and by `worker`, each
 * with the compiler's code at the plan's JSON pointer, before any handler
 * runs or anything is sent.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { compile, planHashOf, type CompiledExpr, type Plan } from "@taskspec/compiler";
import { FIXTURES, runCli, tempRunDir } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 120_000 });

const { dir, log } = tempRunDir("taskspec-plan-json-");
const HANDLERS = join(FIXTURES, "chain-handlers.mjs");
const compiled = join(dir, "chain.plan.json");

const run = (file: string, name: string) =>
  runCli(
    ["run", file, "--handlers", HANDLERS, "--run", "R", "--format", "json"],
    { TASKSPEC_TEST_LOG: log },
    `sqlite:${join(dir, `${name}.db`)}`,
  );

const noStackTrace = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at |internal error/);

describe("taskspec run plan.json checks the plan", () => {
  it("a plan compiled with compile -o runs to done", async () => {
    const c = await runCli(["compile", join(FIXTURES, "chain.task.yaml"), "-o", compiled]);
    expect(c.code).toBe(0);
    const out = await run(compiled, "valid");
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ run: "R", status: "done" });
  });

  it("an edited plan (task.done emptied) is refused: exit 2, file and hashes named, nothing recorded", async () => {
    const plan = JSON.parse(readFileSync(compiled, "utf8")) as Plan;
    plan.task.done = [];
    const file = join(dir, "edited.plan.json");
    writeFileSync(file, JSON.stringify(plan, null, 2));
    const out = await run(file, "edited");
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(
      new RegExp(
        `${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: its content does not match its planHash \\(recorded ${plan.planHash.slice(0, 12)}…, content hashes to [0-9a-f]{12}…\\)`,
      ),
    );
    expect(out.stderr).toMatch(/nothing was run/);
    noStackTrace(out.stderr);
    expect(existsSync(join(dir, "edited.db"))).toBe(false);
    // the drill, the other command that loads a plan file, refuses it the same way before any case runs
    const drilled = await runCli(["drill", file, "--handlers", HANDLERS, "--work-dir", dir]);
    expect(drilled.code).toBe(2);
    expect(drilled.stderr).toMatch(/its content does not match its planHash [\s\S]*nothing was run/);
    noStackTrace(drilled.stderr);
  });

  it("garbage JSON is refused at file:line:col", async () => {
    const file = join(dir, "garbage.plan.json");
    writeFileSync(file, '{\n  "format": 1,\n  "units": [1, 2,, 3]\n}\n');
    const out = await run(file, "garbage");
    expect(out.code).toBe(2);
    expect(out.stderr).toContain(`${file}:3:18: not valid JSON: expected a value, found ","`);
    noStackTrace(out.stderr);
  });

  it("a plan that breaks the plan schema names the place", async () => {
    const plan = JSON.parse(readFileSync(compiled, "utf8")) as Plan;
    (plan.units[1]!.retry as { max: unknown }).max = "many";
    const file = join(dir, "schema.plan.json");
    writeFileSync(file, JSON.stringify(plan));
    const out = await run(file, "schema");
    expect(out.code).toBe(2);
    // a retry bound is the compiler's C021 (as in a contract), not just a shape
    expect(out.stderr).toContain(`${file}#/units/1/retry/max: error C021: does not match the plan schema: must be integer`);
    noStackTrace(out.stderr);
  });
});

describe("a plan edited by hand and hashed again is refused with the compiler's code", () => {
  const gate = compile(readFileSync(join(FIXTURES, "gate.task.yaml"), "utf8")).plan!;
  const GATE_HANDLERS = join(dir, "gate-handlers.mjs");
  const SENDS = join(dir, "sends.log");
  // `gate` sends, then returns what no verifier would pass: only the verifier stops it from counting as done
  writeFileSync(
    GATE_HANDLERS,
    `import { appendFileSync } from "node:fs";
export default {
  units: {
    a: async (ctx) => (await ctx.write("a-out", "A"), { ok: true }),
    b: async (ctx) => (await ctx.write("b-out", "B"), { ok: true }),
    gate: async (ctx) => { await ctx.tool("send", { to: "x" }); await ctx.write("sent", { sent: false }); return { ok: false, sent: false }; },
  },
  tools: { send: { call: async (args, meta) => (appendFileSync(${JSON.stringify(SENDS)}, meta.runId + "\\n"), { id: "m1" }) } },
};
`,
  );
  writeFileSync(SENDS, "");
  const at = (id: string) => gate.units.findIndex((u) => u.id === id);
  const writePlan = (file: string, edit: (p: Plan) => void = () => undefined): string => {
    const p = structuredClone(gate) as Plan;
    edit(p);
    p.planHash = planHashOf(p);
    writeFileSync(file, JSON.stringify(p, null, 2));
    return file;
  };
  const storeOf = (name: string) => `sqlite:${join(dir, `${name}.db`)}`;
  const cli = (args: string[], name: string) => runCli(args, {}, storeOf(name));
  const runGate = (file: string, name: string) => cli(["run", file, "--handlers", GATE_HANDLERS, "--run", "G"], name);

  const CASES: Array<[string, string, string, (p: Plan) => void]> = [
    ["the gated unit's verifier removed", "C050", `/units/${at("gate")}/verify`, (p) => (p.units[at("gate")]!.verify = [])],
    ["task.done emptied", "C051", "/task/done", (p) => (p.task.done = [])],
    ["the approval gate removed", "C034", `/units/${at("gate")}/uses/0`, (p) => delete p.units[at("gate")]!.approval],
    ["an unbounded retry", "C021", `/units/${at("a")}/retry/max`, (p) => (p.units[at("a")]!.retry.max = 10_000_000)],
    [
      "a cycle",
      "C020",
      `/units/${at("a")}/needs/0`,
      (p) => p.units[at("a")]!.needs.push({ node: "gate", nodeType: "unit", kinds: ["content"] }),
    ],
    [
      "a check made always true",
      "C060",
      `/units/${at("a")}/verify/0/check`,
      (p) =>
        ((p.units[at("a")]!.verify[0] as { check: CompiledExpr }).check.ast = { type: "literal", value: true, span: { start: 0, end: 4 } }),
    ],
  ];

  it.each(CASES)("run: %s is refused (%s at %s), nothing recorded or sent", async (name, code, path, edit) => {
    const file = writePlan(join(dir, `edited-${code}.plan.json`), edit);
    const out = await runGate(file, `edited-${code}`);
    expect(out.code, name).toBe(2);
    expect(out.stderr).toContain(`${file}#${path}: error ${code}: `);
    expect(out.stderr).toContain(`${file}: the plan is refused; nothing was run`);
    noStackTrace(out.stderr);
    expect(existsSync(join(dir, `edited-${code}.db`))).toBe(false);
    expect(readFileSync(SENDS, "utf8")).toBe("");
  });

  it("resume and worker refuse a run's plan file edited and hashed again after the run started", async () => {
    const file = writePlan(join(dir, "gate.plan.json"));
    const first = await runGate(file, "resumed");
    expect(first.code).toBe(3);
    expect(first.stdout).toMatch(/blocked gate: approval/);
    // the gate and the gated unit's verifier edited away, the hash recomputed
    writePlan(file, (p) => {
      delete p.units[at("gate")]!.approval;
      p.units[at("gate")]!.verify = [];
    });
    const resumed = await cli(["resume", "G"], "resumed");
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain(`${file}#/units/${at("gate")}/uses/0: error C034: `);
    expect(resumed.stderr).toContain(`${file}#/units/${at("gate")}/verify: error C050: `);
    noStackTrace(resumed.stderr);
    const worker = await cli(["worker", "--run", "G", "--exit-when-idle"], "resumed");
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain(`${file}#/units/${at("gate")}/uses/0: error C034: `);
    noStackTrace(worker.stderr);
    expect(readFileSync(SENDS, "utf8")).toBe("");
    const status = JSON.parse((await cli(["status", "G", "--format", "json"], "resumed")).stdout) as { status: string };
    expect(status.status).not.toBe("done");
  });
});
