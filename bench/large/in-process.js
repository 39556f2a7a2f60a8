/**
 * The compiler of another build (`--before`: a checkout built with tsc, such
 * as main `git archive`d beside this one) against this checkout's, in one
 * process, alternating round by round so the machine's load hits both alike:
 * CPU time (process.cpuUsage, the collector's threads included) of
 * parseContract, compile and impactOfEdit on the 100,000-unit flow contract of
 * bench/large/run.js and its edit, of both compiles and the diff as each
 * side's `taskspec impact <old> <new>` does them (a build with
 * reparseReusing compiles the new version from the old one's tree, with the
 * memos kept; an older one compiles both afresh), and of checkContract + compile on a
 * 36-unit and a 1,000-unit contract (what users have). Medians.
 * Run after `npx tsc -b`, with --expose-gc:
 *   node --expose-gc --max-old-space-size=4096 bench/large/in-process.js --before /tmp/perf-before [--rounds 3] [--units 100000]
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateFlowContract } from "../compile/generate.js";
import { editOf } from "./edit.js";

const here = dirname(fileURLToPath(import.meta.url));
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const before = option("--before");
const ROUNDS = Number(option("--rounds", 3));
const UNITS = Number(option("--units", 100_000));
if (!before || typeof globalThis.gc !== "function")
  throw new Error("usage: node --expose-gc bench/large/in-process.js --before <checkout>");

const load = async (root) => {
  const dist = (path) => import(pathToFileURL(join(root, "compiler", "dist", path)).href);
  const [memo, index, incremental] = await Promise.all([dist("memo.js"), dist("index.js"), dist("parse/incremental.js")]);
  return { memo, reusesDefinitions: typeof incremental.reparseReusing === "function", ...index };
};
const sides = { before: await load(resolve(before)), after: await load(join(here, "..", "..")) };
const large = generateFlowContract(UNITS);
const edited = editOf(large, UNITS);
const units = UNITS.toLocaleString("en");
const small = {
  "36 units": readFileSync(join(here, "..", "..", "specs", "market-entry-pack.task.yaml"), "utf8"),
  "1,000 units": generateFlowContract(1000),
};
const repeats = { "36 units": 200, "1,000 units": 20 };

const cpu = (f) => {
  globalThis.gc();
  const start = process.cpuUsage();
  const result = f();
  const used = process.cpuUsage(start);
  return [result, (used.user + used.system) / 1000];
};
/** What `taskspec impact <old> <new>` computes, the way the side's CLI does. */
function impactOldNew(m) {
  if (!m.reusesDefinitions) {
    const oldPlan = m.checkContract(large).unhashedPlan();
    return m.impactOfEdit(oldPlan, m.checkContract(edited).unhashedPlan());
  }
  m.memo.keepAcrossCompiles(true);
  const first = m.checkContract(large);
  const oldPlan = first.unhashedPlan();
  const newPlan = m.checkContract(edited, { previous: first.parsed.reusable }).unhashedPlan();
  const result = m.impactOfEdit(oldPlan, newPlan);
  m.memo.keepAcrossCompiles(false);
  m.memo.clearMemos();
  return result;
}

const samples = {};
const add = (name, ms) => (samples[name] ??= []).push(ms);

console.log(`Node ${process.version}; ${ROUNDS} rounds`);
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? Object.entries(sides).reverse() : Object.entries(sides);
  for (const [side, m] of order) {
    for (const [name, text] of Object.entries(small)) {
      m.memo.keepAcrossCompiles(true);
      const [, ms] = cpu(() => {
        for (let i = 0; i < repeats[name]; i++) {
          m.checkContract(text);
          m.compile(text);
        }
      });
      add(`${name}: checkContract + compile, ${side}`, ms / repeats[name]);
    }
    // as the CLI compiles each text once
    m.memo.keepAcrossCompiles(false);
    add(`${units} units: parseContract, ${side}`, cpu(() => m.parseContract(large))[1]);
    const [oldPlan, ms] = cpu(() => m.compile(large).plan);
    add(`${units} units: compile, ${side}`, ms);
    const newPlan = m.compile(edited).plan;
    add(`${units} units: impactOfEdit, ${side}`, cpu(() => m.impactOfEdit(oldPlan, newPlan))[1]);
    add(`${units} units: impact old new (compiles + diff), ${side}`, cpu(() => impactOldNew(m))[1]);
  }
  console.log(`round ${round + 1} done`);
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
console.log("\n| step | CPU ms: median | runs |\n|---|---:|---|");
for (const [name, values] of Object.entries(samples).sort(([a], [b]) => (a < b ? -1 : 1)))
  console.log(`| ${name} | ${median(values).toFixed(median(values) < 100 ? 2 : 0)} | ${values.map((v) => v.toFixed(1)).join(", ")} |`);
