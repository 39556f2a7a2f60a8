/**
 * Impact queries on a compiled plan of 10k units and ~50k edges (issue 3,
 * item 7: under 10 ms per query after compile). Side by side in one run:
 * - `impact`: the real query; the plan's index (adjacency, rule tables) is
 *   cached, as when the LSP or the runtime query one compiled plan many times;
 * - `impact + every path read`: the same, then every explanation path spelled
 *   out (what `--format json` prints);
 * - `impact, cold index`: the query on a fresh plan object, so the index is
 *   rebuilt every time (the recomputation the cache saves);
 * - `naive fixed point`: the test oracle (relax every edge until stable).
 * Run: npx vitest bench --run bench/impact
 */
import { bench, describe } from "vitest";
import { compile } from "../../compiler/src/compile.js";
import { impact, type Change } from "../../compiler/src/impact/index.js";
import { largeSketch } from "../../compiler/test/impact/random-plan.js";
import { referenceImpact } from "../../compiler/test/impact/reference.js";
import { contractOf } from "./contract.js";

const sketch = largeSketch(10_000, 50_000, 42);
sketch.rules = [
  { on: "policy", at: "in3", invalidate: ["U07000"] },
  { on: "audience", invalidate: ["U09000"] },
];
const text = contractOf(sketch);
const started = performance.now();
const { plan, diagnostics } = compile(text);
if (!plan) throw new Error(`generated contract does not compile: ${diagnostics.slice(0, 3).map((d) => d.message).join("; ")}`);
console.log(
  `plan: ${plan.units.length} units, ${plan.inputs.length} inputs, ${plan.edges.length} edges, ` +
    `${plan.edges.reduce((n, e) => n + e.kinds.length, 0)} typed edge kinds; compile ${(performance.now() - started).toFixed(0)} ms`,
);

const queries: Record<string, Change[]> = {
  "unit mid-graph, all kinds (U05000)": [{ origin: "U05000", kinds: "all" }],
  "unit mid-graph, structure (U05000)": [{ origin: "U05000", kinds: ["structure"] }],
  "input, all kinds (in3)": [{ origin: "in3", kinds: "all" }],
  "unit near the sinks (U09900)": [{ origin: "U09900", kinds: "all" }],
};
for (const [name, changes] of Object.entries(queries)) console.log(`  ${name}: ${impact(plan, changes).invalidated.length} units invalidated`);

const once = { iterations: 3, time: 0, warmupIterations: 0, warmupTime: 0 };
for (const [name, changes] of Object.entries(queries)) {
  describe(name, () => {
    bench("impact", () => {
      impact(plan, changes);
    }, { time: 2000 });
    bench("impact + every path read", () => {
      for (const item of impact(plan, changes).invalidated) void item.path;
    }, { time: 1000 });
    bench("impact, cold index", () => {
      impact({ ...plan }, changes);
    }, once);
    bench("naive fixed point", () => {
      referenceImpact(plan, changes);
    }, once);
  });
}
