import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule } from "../src/handler-api.js";
import { FIXTURES, fixturePlan, freshStore, tempDir } from "./fixtures/load.js";

describe("vertical slice", () => {
  it("runs a 3-unit plan to completion on SQLite", async () => {
    const dir = tempDir();
    const store = await freshStore(dir);
    const plan = fixturePlan("chain.task.yaml");
    const handlers = (await import(join(FIXTURES, "chain-handlers.mjs"))).default as HandlerModule;
    const out = await runPlan({ store, plan, handlers, run: "R1", artifacts: join(dir, "artifacts"), crash: () => {} });
    expect(out.status).toBe("done");
    const cps = await store.listCheckpoints("R1");
    expect(cps.map((c) => c.kind)).toEqual(["start", "unit", "unit", "unit"]);
    const recs = await store.getRecords("R1", { status: "current" });
    expect(recs.map((r) => [r.unit, r.result])).toEqual([
      ["a", { value: "s1>a" }],
      ["b", { value: "s1>a>b" }],
      ["c", { value: "s1>a>b>c" }],
    ]);
    const run = await store.getRun("R1");
    expect(run?.budgetUsed).toMatchObject({ model_calls: 3, tokens: 30 });
    expect(run?.budgetUsed.wall_clock_ms).toBeGreaterThanOrEqual(0);
    expect(run?.status).toBe("done");
  });
});
