/**
 * The console's runs list on a store of many runs: one window (50 runs, what
 * the page asks for) against the whole list (`runsOf`, what `taskspec runs`
 * computes), side by side on one SQLite store. Runs are the chain fixture's
 * three units; every tenth is failed and every tenth (offset by five) holds a
 * budget block, so the state filters have something to find. Medians of
 * --repeat timings; CPU time beside wall time (the machine is shared).
 *   npx tsc -b && node bench/console/runs-list.js [--runs 10000] [--repeat 5]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { timed } from "./timed.js";
import { compile } from "../../compiler/dist/index.js";
import { planVersionOf, runsOf, runsWindow, SqliteStore } from "../../runtime/dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RUNS = arg("runs", 10000);
const REPEAT = arg("repeat", 5);

const text = readFileSync(new URL("../../runtime/test/fixtures/chain.task.yaml", import.meta.url), "utf8");
const { plan } = compile(text);
if (!plan) throw new Error("the chain fixture does not compile");
const dir = mkdtempSync(join(tmpdir(), "taskspec-bench-runs-"));
const store = new SqliteStore({ path: join(dir, "store.db") });
await store.init();

const t0 = Date.now();
for (let i = 0; i < RUNS; i++) {
  const run = `R-${String(i).padStart(5, "0")}`;
  const now = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  await store.createRun({
    run,
    taskId: plan.task.id,
    planVersion: planVersionOf(plan),
    inputVersion: "i1",
    plan,
    caps: { model_calls: 10 },
    units: plan.units.map((u) => u.id),
    origin: { artifactRoot: join(dir, "artifacts") },
    now,
  });
  if (i % 10 === 0) await store.setRunStatus(run, "failed", { at: now, type: "run-failed" });
  else if (i % 10 === 5)
    await store.setRunHold(run, { reason: "budget", detail: "model_calls 10/10", at: now }, { at: now, type: "blocked" });
}
console.log(`store: ${RUNS} runs of ${plan.units.length} units written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const time = (fn) => timed(REPEAT, fn);

const now = new Date().toISOString();
const cases = [
  ["window: newest 50, no filter", () => runsWindow(store, { offset: 0, limit: 50 }, now), (w) => w.runs.length],
  ["window: 50 from offset 5000", () => runsWindow(store, { offset: 5000, limit: 50 }, now), (w) => w.runs.length],
  ["window: search R-0424 (10 hits)", () => runsWindow(store, { search: "R-0424", offset: 0, limit: 50 }, now), (w) => w.runs.length],
  ["window: state failed (stored), 50", () => runsWindow(store, { state: "failed", offset: 0, limit: 50 }, now), (w) => w.runs.length],
  ["window: state blocked (derived), 50", () => runsWindow(store, { state: "blocked", offset: 0, limit: 50 }, now), (w) => w.runs.length],
  ["whole list: runsOf (taskspec runs)", () => runsOf(store, now), (l) => l.length],
];
console.log(`\n| query | runs returned | wall ms (median of ${REPEAT}) | CPU ms |`);
console.log("|---|---|---|---|");
const rows = [];
for (const [name, fn, count] of cases) {
  const r = await time(fn);
  rows.push([name, r]);
  console.log(`| ${name} | ${count(r.out)} | ${r.wall.toFixed(1)} | ${r.cpu.toFixed(1)} |`);
}
const whole = rows.at(-1)[1].wall;
console.log(`\nwhole list / newest window: ${(whole / rows[0][1].wall).toFixed(0)}x`);
await store.close();
rmSync(dir, { recursive: true, force: true });
