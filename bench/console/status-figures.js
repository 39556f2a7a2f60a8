/**
 * The run panel's figures on a long log: `statusOf` (what `status --format
 * json` and the console's `/api/runs/<run>/status` answer with), which reads
 * the events it needs by type and as the newest window, beside the whole-log
 * read it made before (`listEvents`), on one SQLite store with one run of
 * --events events. Medians of --repeat; CPU time beside wall time (the
 * machine is shared).
 *   npx tsc -b && node bench/console/status-figures.js [--events 100000] [--repeat 5]
 */
import { join } from "node:path";
import { longLogStore } from "./long-log.js";
import { timed } from "./timed.js";
import { FsArtifactStorage } from "../../runtime/dist/artifacts/storage.js";
import { statusOf } from "../../runtime/dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const EVENTS = arg("events", 100_000);
const REPEAT = arg("repeat", 5);

const { dir, store } = await longLogStore("taskspec-bench-status-", EVENTS);
const storage = new FsArtifactStorage(join(dir, "artifacts"));
const cases = [
  ["status figures (statusOf: typed reads and the newest window)", () => statusOf(store, storage, "LONG")],
  ["the whole-log read statusOf made before (listEvents)", () => store.listEvents("LONG")],
];
console.log(`\n| read | log size | wall ms (median of ${REPEAT}) | CPU ms |`);
console.log("|---|---|---|---|");
for (const [name, fn] of cases) {
  const r = await timed(REPEAT, fn);
  console.log(`| ${name} | ${EVENTS + 1} | ${r.wall.toFixed(1)} | ${r.cpu.toFixed(1)} |`);
}
await store.close();
