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
import { rmSync } from "node:fs";
import { longLogStore } from "./long-log.js";
import { timed } from "./timed.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const EVENTS = arg("events", 100_000);
const REPEAT = arg("repeat", 5);

const t0 = Date.now();
const { dir, store } = await longLogStore("taskspec-bench-timeline-", EVENTS);
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
