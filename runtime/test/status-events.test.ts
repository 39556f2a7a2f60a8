/**
 * What the status reader (and the console's run panel, which refreshes from
 * it) reads of the event log: each kind it reports by its type, and the
 * newest window for the stall signals and the count, never the whole log;
 * the figures are what the whole log gives.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { FsArtifactStorage } from "../src/artifacts/storage.js";
import { planVersionOf } from "../src/model/identity.js";
import { statusOf } from "../src/operator/status.js";
import type { Store } from "../src/store/types.js";
import { fixturePlan, freshStore, tempDir } from "./fixtures/load.js";

it("reads events by type and as the newest window only, and reports the last 10 errors of every kind in order", async () => {
  const dir = tempDir();
  const store = await freshStore(dir);
  const plan = fixturePlan("chain.task.yaml");
  await store.createRun({
    run: "L",
    taskId: plan.task.id,
    planVersion: planVersionOf(plan),
    inputVersion: "i1",
    plan,
    caps: {},
    units: plan.units.map((u) => u.id),
    origin: { artifactRoot: join(dir, "artifacts") },
    now: "2026-01-01T00:00:00.000Z",
  });
  const kinds = ["attempt-failed", "stale-commit-rejected", "compensation-failed"];
  await store.appendEvents(
    "L",
    Array.from({ length: 300 }, (_, i) => ({
      at: "2026-01-01T00:00:01.000Z",
      type: i % 20 === 0 ? kinds[(i / 20) % 3]! : "leased",
      unit: "a",
      attempt: i,
      data: { class: "transient", message: `m${i}` },
    })),
  );
  const whole: Array<string | undefined> = [];
  const counting = new Proxy(store, {
    get(target, key) {
      const v = Reflect.get(target, key) as unknown;
      if (key !== "listEvents" || typeof v !== "function") return typeof v === "function" ? v.bind(target) : v;
      return (run: string, o?: { type?: string; afterSeq?: number }) => {
        if (!o?.type) whole.push(run);
        return (v as Store["listEvents"]).call(target, run, o);
      };
    },
  });
  const s = await statusOf(counting, new FsArtifactStorage(join(dir, "artifacts")), "L", "2026-01-01T00:00:02.000Z");
  expect(whole).toEqual([]);
  const all = await store.listEvents("L");
  expect(s.events).toBe(all.length);
  expect(s.recentErrors.map((e) => e.message)).toEqual(
    all
      .filter((e) => kinds.includes(e.type))
      .slice(-10)
      .map((e) => String(e.data?.message)),
  );
  await store.close();
});
