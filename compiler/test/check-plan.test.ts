/**
 * readPlanJson / checkPlan: a compiled plan read back is accepted; broken
 * JSON says where (line:col); a plan that breaks the schema, names what it
 * does not declare, or whose content does not hash to its planHash is refused.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile, planHashOf, type Plan } from "../src/index.js";
import { checkPlan, readPlanJson } from "../src/plan/check-plan.js";

const text = readFileSync(new URL("../../specs/market-entry-pack.task.yaml", import.meta.url), "utf8");
const plan = compile(text).plan!;
const json = JSON.stringify(plan, null, 2);
const edited = (edit: (p: Plan) => void, rehash = true): Plan => {
  const p = JSON.parse(json) as Plan;
  edit(p);
  if (rehash) p.planHash = planHashOf(p);
  return p;
};
const problem = (value: unknown) => {
  const r = checkPlan(value);
  return r.ok ? undefined : r.problem.message;
};

describe("readPlanJson", () => {
  it("accepts the compiler's plan, compact or pretty, and recomputes the same hash", () => {
    expect(planHashOf(plan)).toBe(plan.planHash);
    expect(readPlanJson(json)).toMatchObject({ ok: true, plan: { planHash: plan.planHash } });
    expect(readPlanJson(`\ufeff${JSON.stringify(plan)}`).ok).toBe(true);
  });

  it("names line and column of broken JSON", () => {
    const cases: Array<[string, number, number, RegExp]> = [
      ['{\n  "a": }', 2, 8, /expected a value, found "}"/],
      ["{a:1}", 1, 2, /expected a property name in double quotes/],
      ["[1,2", 1, 5, /expected ',' or '\]', found the end of the file/],
      ['{"a":1} x', 1, 9, /unexpected text after the JSON value/],
      ["tru", 1, 1, /expected a value/],
      ['{"a": "x\ny"}', 1, 9, /control character/],
      ['{"a": "\\q"}', 1, 9, /bad escape/],
      ["", 1, 1, /found the end of the file/],
      ["[".repeat(5000), 1, 4098, /nesting deeper than 4096 levels/],
    ];
    for (const [input, line, column, message] of cases) {
      const r = readPlanJson(input);
      expect(r.ok, input).toBe(false);
      if (r.ok) continue;
      expect({ line: r.problem.line, column: r.problem.column }, input.slice(0, 20)).toEqual({ line, column });
      expect(r.problem.message).toMatch(message);
    }
  });

  it("refuses a plan whose content does not hash to its planHash", () => {
    expect(problem(edited((p) => (p.task.done = []), false))).toMatch(
      new RegExp(`content does not match its planHash \\(recorded ${plan.planHash.slice(0, 12)}…, content hashes to [0-9a-f]{12}…\\)`),
    );
    expect(problem(edited((p) => (p.planHash = "x"), false))).toMatch(/recorded "x"/);
    // the same edit with the hash recomputed is a consistent plan
    expect(problem(edited((p) => (p.task.done = [])))).toBeUndefined();
  });

  it("refuses what breaks the plan schema, at its place", () => {
    expect(problem([])).toMatch(/not a compiled plan/);
    expect(problem({ units: [] })).toMatch(/no `format`/);
    expect(problem({ ...plan, format: 2 })).toMatch(/plan format 2, but this taskspec reads plan format 1/);
    expect(problem(edited((p) => ((p.units[0]!.retry as { max: unknown }).max = -1)))).toMatch(/\/units\/0\/retry\/max must be >= 0/);
    expect(problem(edited((p) => delete (p as Partial<Plan>).task))).toMatch(/must have required property 'task'/);
  });

  it("refuses names the plan does not declare", () => {
    expect(problem(edited((p) => p.units[0]!.uses.push("nope")))).toMatch(/unit \S+ uses tool "nope", which is not in tools/);
    expect(problem(edited((p) => p.task.done.push({ ref: "ghost" })))).toMatch(/task\.done names verifier "ghost"/);
    expect(problem(edited((p) => p.units.push({ ...p.units[0]! })))).toMatch(/is declared twice/);
    expect(problem(edited((p) => p.levels[0]!.push("phantom")))).toMatch(/levels name unit "phantom"/);
    expect(problem(edited((p) => p.units[1]!.needs.push({ node: "gone", nodeType: "unit", kinds: ["content"] })))).toMatch(
      /needs unit "gone", which the plan does not declare/,
    );
  });
});
