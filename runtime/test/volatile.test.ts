import { join } from "node:path";
import { expect, it } from "vitest";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule } from "../src/handler-api.js";
import { fixturePlan, freshStore, tempDir } from "./fixtures/load.js";

it("evidence from a volatile input is re-read on resume; a changed world supersedes what used it", async () => {
  const dir = tempDir();
  const store = await freshStore(dir);
  const plan = fixturePlan("volatile.task.yaml");
  let site = "price=10";
  const calls: string[] = [];
  const handlers: HandlerModule = {
    units: {
      observe: async (ctx) => (
        calls.push(`observe ${ctx.attempt.id}`),
        await ctx.write("observation", String(ctx.inputs.site)),
        { seen: ctx.inputs.site }
      ),
      report: async (ctx) => (
        calls.push(`report ${ctx.attempt.id}`),
        await ctx.write("report", `report on ${String((ctx.needs.observe!.result as { seen: string }).seen)}`),
        {}
      ),
    },
    tools: {},
    inputs: { site: () => site },
  };
  const go = () => runPlan({ store, plan, handlers, run: "R", artifacts: join(dir, "artifacts"), crash: () => {}, log: () => {} });
  expect((await go()).status).toBe("done");
  expect((await go()).status).toBe("done"); // same world: nothing re-runs
  expect(calls).toEqual(["observe a1", "report a1"]);
  site = "price=12";
  expect((await go()).status).toBe("done");
  expect(calls.slice(2)).toEqual(["observe a2", "report a2"]);
  const dropped = await store.listEvents("R", { type: "stale-evidence-dropped" });
  expect(dropped.map((e) => e.data?.units)).toEqual([["observe", "report"]]);
});
