/**
 * The console benches' long run: one SQLite store in a temp folder with one
 * run ("LONG") of the chain fixture and `events` events appended in batches
 * (leases and attempt starts, a second apart), as a run that went on for days
 * leaves them.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "../../compiler/dist/index.js";
import { planVersionOf, SqliteStore } from "../../runtime/dist/index.js";

const BATCH = 5000;

export async function longLogStore(prefix, events) {
  const { plan } = compile(readFileSync(new URL("../../runtime/test/fixtures/chain.task.yaml", import.meta.url), "utf8"));
  if (!plan) throw new Error("the chain fixture does not compile");
  const dir = mkdtempSync(join(tmpdir(), prefix));
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
  for (let i = 0; i < events; i += BATCH) {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    await store.appendEvents(
      "LONG",
      Array.from({ length: Math.min(BATCH, events - i) }, (_, k) => ({
        at,
        type: k % 3 === 0 ? "leased" : "attempt-started",
        unit: "b",
        attempt: i + k,
        data: { worker: "w1", note: `event ${i + k}` },
      })),
    );
  }
  return { dir, store };
}
