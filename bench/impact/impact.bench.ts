/**
 * Impact queries on a generated plan of 10k units and ~50k edges (issue 3,
 * item 7: under 10 ms per query after compile). Side by side in one run:
 * - `impact`: the real query, with the plan's index cached (the normal case:
 *   the LSP and the runtime query one compiled plan many times);
 * - `impact, cold index`: the same query on a fresh plan object, so the index
 *   (adjacency, rule tables) is rebuilt every time;
 * - `naive fixed point`: the test oracle (relax every edge until stable).
 * Run: npx vitest bench --run bench/impact
 */
import { bench, describe } from "vitest";
import { impact, type Change } from "../../compiler/src/impact/index.js";
import { buildPlan } from "../../compiler/test/impact/plan-builder.js";
import { largeSketch } from "../../compiler/test/impact/random-plan.js";
import { referenceImpact } from "../../compiler/test/impact/reference.js";

const plan = buildPlan(largeSketch(10_000, 50_000, 42));
const queries: Record<string, Change[]> = {
  "unit, all kinds (U05000)": [{ origin: "U05000", kinds: "all" }],
  "unit, structure only (U05000)": [{ origin: "U05000", kinds: ["structure"] }],
  "input, all kinds (in3)": [{ origin: "in3", kinds: "all" }],
  "near the sinks (U09900)": [{ origin: "U09900", kinds: "all" }],
};

console.log(`plan: ${plan.units.length} units, ${plan.inputs.length} inputs, ${plan.edges.length} edges`);
for (const [name, changes] of Object.entries(queries)) {
  console.log(`  ${name}: ${impact(plan, changes).invalidated.length} units invalidated`);
}

for (const [name, changes] of Object.entries(queries)) {
  describe(name, () => {
    bench("impact", () => {
      impact(plan, changes);
    });
    bench("impact, every path spelled out", () => {
      for (const item of impact(plan, changes).invalidated) void item.path;
    });
    bench("impact, cold index", () => {
      impact({ ...plan }, changes);
    });
    bench("naive fixed point", () => {
      referenceImpact(plan, changes);
    }, { iterations: 2, time: 0, warmupIterations: 0, warmupTime: 0 });
  });
}
