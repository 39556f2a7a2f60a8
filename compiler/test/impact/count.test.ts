/**
 * A lens's counts from one search (impact/count.ts) against `invalidatedCount`,
 * one search per kind: a table of small graphs whose kinds all count
 * differently (a mix-up of kinds fails it), random plans, and the count index
 * made from a contract (countIndexOf) against the plan's own index.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkContract } from "../../src/compile.js";
import { countInvalidated, invalidatedCount, invalidatedCounts, planCountIndex, type ImpactCounts } from "../../src/impact/index.js";
import { EDGE_KINDS, type EdgeKind, type Plan } from "../../src/plan/schema.js";
import { buildPlan, sketchArb } from "./random-plan.js";
import type { PlanSketch } from "./plan-builder.js";
import { fcRuns } from "../../../test/fc-runs.js";

/** What five searches say: all kinds, then each kind alone. */
function fiveSearches(plan: Plan, origin: string): ImpactCounts {
  const byKind = Object.fromEntries(EDGE_KINDS.map((k) => [k, invalidatedCount(plan, [{ origin, kinds: [k] }])])) as Record<
    EdgeKind,
    number
  >;
  return { total: invalidatedCount(plan, [{ origin, kinds: "all" }]), byKind };
}

const nodesOf = (sketch: PlanSketch) => [...Object.keys(sketch.units), ...Object.keys(sketch.inputs ?? {})];
const counts = (total: number, content: number, structure: number, policy: number, audience: number): ImpactCounts => ({
  total,
  byKind: { content, structure, policy, audience },
});

const CASES: { name: string; sketch: PlanSketch; origin: string; expected: ImpactCounts }[] = [
  {
    name: "each kind reaches a different number of units",
    sketch: {
      inputs: { in0: {} },
      units: {
        A: { needs: { in0: "content" } },
        B: { needs: { in0: "structure" } },
        C: { needs: { in0: "structure" } },
        D: { needs: { in0: "policy" } },
        E: { needs: { in0: "policy" } },
        F: { needs: { in0: "policy" } },
      },
    },
    origin: "in0",
    expected: counts(6, 1, 2, 3, 0),
  },
  {
    name: "a unit reached in two kinds counts once in the total",
    sketch: { inputs: { in0: {} }, units: { A: { needs: { in0: ["content", "audience"] } } } },
    origin: "in0",
    expected: counts(1, 1, 0, 0, 1),
  },
  {
    name: "an invalidated unit passes on content, not the other kinds of the change",
    sketch: {
      inputs: { in0: {} },
      units: {
        A: { needs: { in0: "structure" } },
        B: { needs: { A: "content" } },
        C: { needs: { in0: "audience" } },
        D: { needs: { C: "structure" } },
      },
    },
    origin: "in0",
    expected: counts(3, 0, 2, 0, 1),
  },
  {
    name: "a rule at a node fires in its kind only",
    sketch: {
      inputs: { in0: {} },
      units: { A: { needs: { in0: ["policy", "audience"] } }, X: {} },
      rules: [{ on: "policy", at: "A", invalidate: ["X"] }],
    },
    origin: "in0",
    expected: counts(2, 0, 0, 2, 1),
  },
  {
    name: "a rule without `at` fires wherever its kind arrives, once per kind of the change",
    sketch: {
      inputs: { in0: {} },
      units: { A: { needs: { in0: "audience" } }, B: { needs: { in0: "content" } }, Z: {} },
      rules: [{ on: "content", invalidate: ["Z"] }],
    },
    origin: "in0",
    // content: B, and Z by the rule; audience: A, then A's content fires the rule too
    expected: counts(3, 2, 0, 0, 2),
  },
  {
    name: "a rule back to the origin counts the origin",
    sketch: { units: { U0: {}, U1: { needs: { U0: "policy" } } }, rules: [{ on: "content", at: "U1", invalidate: ["U0"] }] },
    origin: "U0",
    expected: counts(2, 0, 0, 2, 0),
  },
  {
    name: "a node nothing needs",
    sketch: { inputs: { in0: {} }, units: { A: {} } },
    origin: "A",
    expected: counts(0, 0, 0, 0, 0),
  },
];

describe("counts in one search", () => {
  it.each(CASES)("$name", ({ sketch, origin, expected }) => {
    const plan = buildPlan(sketch);
    expect(invalidatedCounts(plan, origin)).toEqual(expected);
    expect(fiveSearches(plan, origin)).toEqual(expected);
  });

  it("know no node the plan does not have", () => {
    expect(invalidatedCounts(buildPlan(CASES[0]!.sketch), "nowhere")).toBeUndefined();
  });

  it("equal the five searches on random plans, at every node, and leave the index clean for the next count", () => {
    fc.assert(
      fc.property(sketchArb, (sketch) => {
        const plan = buildPlan(sketch);
        const index = planCountIndex(plan);
        // twice over the same buffers: a count that left a bit behind would change the second
        for (let round = 0; round < 2; round++)
          for (const node of nodesOf(sketch)) expect(countInvalidated(index, node)).toEqual(fiveSearches(plan, node));
      }),
      fcRuns(300),
    );
  });
});

/** A contract with the sketch's units, needs, inputs and rules, and what it takes to compile. */
function contractOf(sketch: PlanSketch): string {
  const lines = [
    "contract: 1",
    'task: { id: t, goal: g, done: [{ check: "true" }] }',
    "budgets: { model_calls: 10, tool_calls: 10, tokens: 10, wall_clock: 1h }",
  ];
  const inputs = Object.keys(sketch.inputs ?? {});
  if (inputs.length > 0) lines.push("inputs:", ...inputs.map((name) => `  ${name}: { kind: snapshot, version: v1 }`));
  lines.push("units:");
  for (const [id, unit] of Object.entries(sketch.units)) {
    const needs = Object.entries(unit.needs ?? {}).map(([node, k]) => `${node}: ${Array.isArray(k) ? `[${k.join(", ")}]` : k}`);
    lines.push(`  ${id}: { phase: ${unit.phase ?? "p"}, needs: { ${needs.join(", ")} } }`);
  }
  if (sketch.rules?.length) {
    lines.push("impact:");
    for (const rule of sketch.rules)
      lines.push(`  - { on: ${rule.on}, ${rule.at !== undefined ? `at: ${rule.at}, ` : ""}invalidate: [${rule.invalidate.join(", ")}] }`);
  }
  return lines.join("\n") + "\n";
}

describe("the count index made from a contract", () => {
  it("counts as the plan's index at every node, on random contracts", () => {
    let compiled = 0;
    fc.assert(
      fc.property(sketchArb, (sketch) => {
        const checked = checkContract(contractOf(sketch));
        if (!checked.countIndex) return;
        compiled++;
        const index = checked.countIndex();
        const plan = checked.buildPlan!();
        for (const node of nodesOf(sketch)) expect(countInvalidated(index, node)).toEqual(invalidatedCounts(plan, node));
        expect(countInvalidated(index, "nowhere")).toBeUndefined();
      }),
      fcRuns(200),
    );
    // the sketches compile (a run where none did would compare nothing)
    expect(compiled).toBeGreaterThan(0);
  });
});
