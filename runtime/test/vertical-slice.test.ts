import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule, UnitContext } from "../src/handler-api.js";
import { compileText, FIXTURES, fixturePlan, freshStore, tempDir } from "./fixtures/load.js";

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

describe("group commits", () => {
  it("units that finish together share one checkpoint transaction", async () => {
    const dir = tempDir();
    const store = await freshStore(dir);
    const width = 8;
    const units = Array.from({ length: width }, (_, i) => `  u${i}:\n    produces: [o${i}]`).join("\n");
    const plan = compileText(
      `contract: 1\ntask:\n  id: wide\n  version: 1\n  goal: g\n  outputs: [${Array.from({ length: width }, (_, i) => `o${i}`).join(", ")}]\n  done: [{ check: "count(result.stale_outputs) == 0" }]\nbudgets:\n  model_calls: 1\n  retries: 0\nunits:\n${units}\n`,
    );
    const handlers: HandlerModule = {
      units: Object.fromEntries(
        Array.from({ length: width }, (_, i) => [`u${i}`, async (ctx: UnitContext) => (await ctx.write(`o${i}`, "x"), {})]),
      ),
      tools: {},
    };
    const groups: number[] = [];
    const counting = new Proxy(store, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (prop === "commitCheckpoints")
          return (run: string, v: number, commits: unknown[], hooks: unknown) => (
            groups.push(commits.length),
            (value as (...args: unknown[]) => unknown).call(target, run, v, commits, hooks)
          );
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const out = await runPlan({
      store: counting,
      plan,
      handlers,
      run: "W",
      artifacts: join(dir, "artifacts"),
      concurrency: width,
      crash: () => {},
    });
    expect(out.status).toBe("done");
    expect(groups.reduce((a, b) => a + b, 0)).toBe(width);
    expect(groups.length).toBeLessThan(width);
    expect((await store.listCheckpoints("W")).map((c) => c.version)).toEqual(Array.from({ length: width + 1 }, (_, i) => i));
  });
});
