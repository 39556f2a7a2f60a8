/**
 * The run panel's figures on a long log: `statusOf` (what `status --format
 * json` and the console's `/api/runs/<run>/status` answer with), which reads
 * the events it needs by type and as the newest window, beside the whole-log
 * read it made before (`listEvents`), on one SQLite store with one run of
 * --events events. Medians of --repeat; CPU time beside wall time (the
 * machine is shared).
 *   npx tsc -b && node bench/console/status-figures.js [--events 100000] [--repeat 5]
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { timed } from "./timed.js";
import { compile } from "../../compiler/dist/index.js";
import { FsArtifactStorage } from "../../runtime/dist/artifacts/storage.js";
import { planVersionOf, SqliteStore, statusOf } from "../../runtime/dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const EVENTS = arg("events", 100_000);
const REPEAT = arg("repeat", 5);

const { plan } = compile(readFileSync(new URL("../../runtime/test/fixtures/chain.task.yaml", import.meta.url), "utf8"));
if (!plan) throw new Error("the chain fixture does not compile");
const dir = mkdtempSync(join(tmpdir(), "taskspec-bench-status-"));
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
