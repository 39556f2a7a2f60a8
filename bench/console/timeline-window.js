/**
 * The run panel's timeline on a long log: one window of the newest 200 events
 * and the log's size (`eventsWindow`, what `taskspec ui` answers the page
 * with) against the whole log read and cut to its last 200 (`listEvents`,
 * what the console did before), and the window before the middle of the log
 * (the page's "older events"), side by side on one SQLite store with one run
 * of --events events. Medians of --repeat; CPU time beside wall time (the
 * machine is shared).
 *   npx tsc -b && node bench/console/timeline-window.js [--events 100000] [--repeat 5]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { timed } from "./timed.js";
import { compile } from "../../compiler/dist/index.js";
import { planVersionOf, SqliteStore } from "../../runtime/dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const EVENTS = arg("events", 100_000);
const REPEAT = arg("repeat", 5);

const { plan } = compile(readFileSync(new URL("../../runtime/test/fixtures/chain.task.yaml", import.meta.url), "utf8"));
if (!plan) throw new Error("the chain fixture does not compile");
const dir = mkdtempSync(join(tmpdir(), "taskspec-bench-timeline-"));
const store = new SqliteStore({ path: join(dir, "store.db") });
await store.init();
await store.createRun({
  run: "LONG",
  taskId: plan.task.id,
  planVersion: planVersionOf(plan),
  inputVersion: "i1",
  plan,
  caps: { model_calls: 10 },
  units: plan.units.map((u) => u.id),
  origin: { artifactRoot: join(dir, "artifacts") },
  now: new Date().toISOString(),
});
const t0 = Date.now();
const BATCH = 5000;
for (let i = 0; i < EVENTS; i += BATCH) {
  const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  await store.appendEvents(
    "LONG",
    Array.from({ length: Math.min(BATCH, EVENTS - i) }, (_, k) => ({
      at,
      type: k % 3 === 0 ? "leased" : "attempt-started",
      unit: "b",
      attempt: i + k,
      data: { worker: "w1", note: `event ${i + k}` },
    })),
  );
}
const all = await store.listEvents("LONG");
console.log(`store: one run with ${all.length} events written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const middle = all[Math.floor(all.length / 2)].seq;

const time = (fn) => timed(REPEAT, fn);

const cases = [
  ["window: newest 200 and the count (eventsWindow)", () => store.eventsWindow("LONG", { limit: 200 })],
  ["window: 200 before the middle (older events)", () => store.eventsWindow("LONG", { limit: 200, beforeSeq: middle })],
  [
    "whole log read, last 200 kept (listEvents)",
    async () => {
      const events = await store.listEvents("LONG");
      return { events: events.slice(-200), total: events.length };
    },
  ],
];
console.log(`\n| read | events returned | log size | wall ms (median of ${REPEAT}) | CPU ms |`);
console.log("|---|---|---|---|---|");
const rows = [];
for (const [name, fn] of cases) {
  const r = await time(fn);
  rows.push(r);
  console.log(`| ${name} | ${r.out.events.length} | ${r.out.total} | ${r.wall.toFixed(1)} | ${r.cpu.toFixed(1)} |`);
}
console.log(`\nwhole log / newest window, CPU: ${(rows[2].cpu / rows[0].cpu).toFixed(0)}x`);
await store.close();
rmSync(dir, { recursive: true, force: true });
