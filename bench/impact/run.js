/**
 * Impact benchmark (the target: under 10 ms per query after compile) on
 * a compiled plan of 10k units and ~50k edges. Side by side, per query:
 * - `impact`: the real query, with its plain report (cause trees and paths of
 *   every invalidated unit); the plan's index (adjacency, rule tables) is
 *   cached per plan object, as when the LSP or the runtime query one plan often;
 * - `invalidatedBy`: the same search, only the set of units (a lens count);
 * - `cold index`: the query on a fresh plan object, so the index is rebuilt
 *   every time: the naive recomputation the cache saves.
 * Median and minimum wall-clock, and median CPU time (process.cpuUsage, which
 * a busy machine inflates less than wall-clock; it includes GC threads). Run after `npx tsc -b compiler`:
 *   node bench/impact/run.js            # markdown table on stdout
 */
import { compile, impact, invalidatedBy } from "../../compiler/dist/index.js";
import { generateContract } from "./generate.js";

const UNITS = 10_000;
const EDGES = 50_000;
const RUNS = 41;

const text = generateContract(UNITS, EDGES);
let started = performance.now();
const { plan, diagnostics } = compile(text);
if (!plan)
  throw new Error(
    `generated contract does not compile: ${diagnostics
      .slice(0, 3)
      .map((d) => d.message)
      .join("; ")}`,
  );
const compileMs = performance.now() - started;
started = performance.now();
impact(plan, []);
const indexMs = performance.now() - started;

const queries = [
  ["unit mid-graph, all kinds", [{ origin: "U05000", kinds: "all" }]],
  ["unit mid-graph, structure", [{ origin: "U05000", kinds: ["structure"] }]],
  ["input, all kinds", [{ origin: "in3", kinds: "all" }]],
  ["unit near the sinks, all kinds", [{ origin: "U09900", kinds: "all" }]],
  [
    "three changes",
    [
      { origin: "in7", kinds: ["policy"] },
      { origin: "U02000", kinds: ["audience"] },
      { origin: "U08000", kinds: "all" },
    ],
  ],
];

const variants = {
  impact: (changes) => impact(plan, changes),
  invalidatedBy: (changes) => invalidatedBy(plan, changes),
  "cold index": (changes) => impact({ ...plan }, changes),
};

function measure(fn) {
  for (let i = 0; i < 5; i++) fn();
  const wall = [];
  const cpu = [];
  for (let i = 0; i < RUNS; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return { wall: median(wall), min: wall[0], cpu: median(cpu) };
}

const ms = (x) => x.toFixed(2);
const load = (await import("node:os")).loadavg()[0].toFixed(1);
const edgeKinds = plan.edges.reduce((n, e) => n + e.kinds.length, 0);
console.log(
  `plan: ${plan.units.length} units, ${plan.inputs.length} inputs, ${plan.edges.length} edges (${edgeKinds} edge kinds), ${plan.impactRules.length} rules`,
);
console.log(
  `compile ${ms(compileMs)} ms; first query incl. building the index ${ms(indexMs)} ms; ${RUNS} runs per cell, medians; load average ${load}\n`,
);
console.log("| query | invalidated | impact ms: wall median (min) / cpu | invalidatedBy | cold index | cold / impact (cpu) |");
console.log("|---|---:|---:|---:|---:|---:|");
for (const [name, changes] of queries) {
  const count = impact(plan, changes).invalidated.length;
  const r = Object.fromEntries(Object.entries(variants).map(([k, fn]) => [k, measure(() => fn(changes))]));
  const cell = (m) => `${ms(m.wall)} (${ms(m.min)}) / ${ms(m.cpu)}`;
  console.log(
    `| ${name} | ${count} | ${cell(r.impact)} | ${cell(r.invalidatedBy)} | ${cell(r["cold index"])} | ${(r["cold index"].cpu / r.impact.cpu).toFixed(1)}x |`,
  );
}
