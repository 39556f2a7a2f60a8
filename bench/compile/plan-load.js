/**
 * Plan-load benchmark: what checking a plan read from JSON costs, for 1k, 5k,
 * 10k and 20k generated units (bench/compile/generate.js, compiled once). Side
 * by side, in one run: JSON.parse of the plan file alone; the whole load
 * (`readPlanJson`: parse, plan schema, the compiler's rules, planHash);
 * the compiler's rules alone (`checkPlan` on the parsed plan); and the load
 * without the rules (the whole load minus the rules' median). Medians of wall
 * and CPU time. Run after `npx tsc -b compiler`:
 *   node bench/compile/plan-load.js
 *   node bench/compile/plan-load.js --sizes 1000,10000
 */
import { compile } from "../../compiler/dist/index.js";
import { checkPlan, readPlanJson } from "../../compiler/dist/plan-check.js";
import { generateContract } from "./generate.js";

const sizesAt = process.argv.indexOf("--sizes");
const SIZES = sizesAt > 0 ? process.argv[sizesAt + 1].split(",").map(Number) : [1000, 5000, 10000, 20000];

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn, runs) {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

const ms = (n) => n.toFixed(1);
readPlanJson(JSON.stringify(compile(generateContract(200)).plan)); // warm up: the plan schema's compile, JIT
const rows = [];
for (const units of SIZES) {
  const plan = compile(generateContract(units)).plan;
  if (!plan) throw new Error(`the ${units}-unit contract does not compile`);
  const text = JSON.stringify(plan);
  const read = readPlanJson(text);
  if (!read.ok) throw new Error(`the ${units}-unit plan is refused: ${read.problems[0].message}`);
  const runs = units >= 10000 ? 5 : 9;
  const parse = time(() => JSON.parse(text), runs);
  const load = time(() => readPlanJson(text), runs);
  const parsed = JSON.parse(text);
  const rules = time(() => checkPlan(parsed), runs);
  rows.push({ units, mb: text.length / 1e6, parse, load, rules });
}
console.log(
  "| units | plan MB | JSON.parse ms (CPU) | load without the rules ms (CPU) | the rules (checkPlan) ms (CPU) | whole load ms (CPU) | whole / without |",
);
console.log("|---|---|---|---|---|---|---|");
for (const r of rows) {
  const without = { wall: r.load.wall - r.rules.wall, cpu: r.load.cpu - r.rules.cpu };
  console.log(
    `| ${r.units} | ${r.mb.toFixed(1)} | ${ms(r.parse.wall)} (${ms(r.parse.cpu)}) | ${ms(without.wall)} (${ms(without.cpu)}) | ${ms(r.rules.wall)} (${ms(r.rules.cpu)}) | ${ms(r.load.wall)} (${ms(r.load.cpu)}) | ${(r.load.cpu / without.cpu).toFixed(2)}x CPU |`,
  );
}
