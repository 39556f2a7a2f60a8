/**
 * Every unit has a timeout. A unit without its own
 * `timeout` runs under `task.timeout`; a handler that never settles is ended
 * there (class `timeout`, recorded), never left holding the worker. A plan
 * stored by an older compiler, whose unit names no `timeoutMs`, gets the
 * built-in default instead of no timeout.
 */
import { join } from "node:path";
import { DEFAULT_UNIT_TIMEOUT_MS, unitTimeoutMs } from "@taskspec/compiler";
import { describe, expect, it } from "vitest";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule } from "../src/handler-api.js";
import { compileText, freshStore, tempDir } from "./fixtures/load.js";

const contract = (taskTimeout: string) => `contract: 1
task:
  id: hang
  goal: g
  timeout: ${taskTimeout}
  outputs: [out]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  model_calls: 1
  retries: 0
tools:
  fetch: { class: read }
units:
  stuck:
    uses: [fetch]
    produces: [out]
`;

describe("a unit without its own timeout", () => {
  it("is timed out at task.timeout: a never-settling handler ends its attempt with class timeout", async () => {
    const dir = tempDir();
    const store = await freshStore(dir);
    const plan = compileText(contract("300ms"));
    expect(plan.units[0]).toMatchObject({ timeoutMs: 300, timeoutSource: "task" });
    let started = 0;
    const handlers: HandlerModule = {
      units: {
        stuck: () => {
          started++;
          return new Promise(() => {}); // never settles
        },
      },
      tools: { fetch: { call: async () => ({}) } },
    };
    const t0 = Date.now();
    const out = await runPlan({ store, plan, handlers, run: "R", artifacts: join(dir, "artifacts"), crash: () => {}, log: () => {} });
    const took = Date.now() - t0;
    expect(started).toBe(1);
    expect(out.status).not.toBe("done");
    const failed = await store.listEvents("R", { type: "attempt-failed" });
    expect(failed.map((e) => [e.unit, e.data?.class, e.data?.message])).toEqual([
      ["stuck", "timeout", "unit stuck ran past its timeout of 300 ms"],
    ]);
    expect(took).toBeGreaterThanOrEqual(300); // ended by its timeout, not before; a hang would fail the test's own timeout
  });

  it("a plan unit without timeoutMs (an older plan) runs under the 30m default, never without one", () => {
    expect(DEFAULT_UNIT_TIMEOUT_MS).toBe(1_800_000);
    expect(unitTimeoutMs({})).toBe(DEFAULT_UNIT_TIMEOUT_MS);
    expect(unitTimeoutMs({ timeoutMs: 0 })).toBe(DEFAULT_UNIT_TIMEOUT_MS);
    expect(unitTimeoutMs({ timeoutMs: 300 })).toBe(300);
    const plan = compileText(contract("10m").replace("  timeout: 10m\n", ""));
    expect(plan.units[0]).toMatchObject({ timeoutMs: DEFAULT_UNIT_TIMEOUT_MS, timeoutSource: "default" });
  });
});
