/**
 * A worker whose loop ends on a store outage while other attempts are still in flight leaves no
 * unhandled rejection behind: those attempts' failed attempts to record their end are logged, and
 * their leases run out for the next claim to settle. (`taskspec resume` died with exit 4 on an
 * unhandled StoreUnavailableError when a PostgreSQL outage began as two attempts finished.)
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { compileText, freshStore, tempDir } from "./fixtures/load.js";
import { runPlan } from "../src/engine/run-plan.js";
import type { Store } from "../src/store/types.js";

const CONTRACT = `contract: 1
task:
  id: hiccup
  version: 1
  goal: attempts end during a store outage
  outputs: [fast-out, slow-out]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  retries: 0
units:
  fast: { produces: [fast-out] }
  slow: { produces: [slow-out] }
`;

/** The error a store raises while it is unreachable (matched by name, as the runtime does). */
const unreachable = () => Object.assign(new Error("the store is unreachable (ECONNRESET)"), { name: "StoreUnavailableError" });

it("attempts still in flight when the loop ends on a store outage are logged, never an unhandled rejection", async () => {
  const dir = tempDir("taskspec-outage-inflight-");
  const inner = await freshStore(dir);
  let claims = 0;
  // The store is gone whenever an attempt books its wall-clock time (an outage as attempts end).
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== "function") return v;
      const fn = (v as (...a: unknown[]) => Promise<unknown>).bind(target);
      if (prop === "claimUnits")
        return async (...args: unknown[]) => {
          const out = (await fn(...args)) as { claims: unknown[] };
          claims += out.claims.length;
          return out;
        };
      // The loop's next read after both claims (before it ever waits on them) meets the outage.
      if (prop === "loadFacts")
        return async (...args: unknown[]) => {
          if (claims >= 2) throw unreachable();
          return fn(...args);
        };
      // an attempt's time is booked with its result's commit, or on its own for any other end
      if (prop === "commitCheckpoints")
        return async (...args: unknown[]) => {
          if ((args[2] as Array<{ charge?: object }>).some((c) => c.charge)) throw unreachable();
          return fn(...args);
        };
      if (prop !== "chargeBudget") return fn;
      return async (...args: unknown[]) => {
        if ("wall_clock_ms" in (args[1] as object)) throw unreachable();
        return fn(...args);
      };
    },
  }) as Store;
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);
  process.on("unhandledRejection", onUnhandled);
  const logged: string[] = [];
  let slowDone!: () => void;
  const slowEnded = new Promise<void>((r) => (slowDone = r));
  try {
    const run = runPlan({
      store,
      plan: compileText(CONTRACT),
      handlers: {
        units: {
          fast: async (ctx) => {
            await ctx.write("fast-out", { ok: true });
            return { ok: true };
          },
          slow: async (ctx) => {
            await new Promise((r) => setTimeout(r, 300));
            await ctx.write("slow-out", { ok: true });
            setTimeout(slowDone, 200); // its end is recorded (and refused) right after it returns
            return { ok: true };
          },
        },
        tools: {},
      },
      run: "R",
      artifacts: join(dir, "artifacts"),
      concurrency: 2,
      leaseTtlMs: 30_000,
      crash: () => {},
      log: (line: string) => logged.push(line),
    });
    await expect(run).rejects.toThrow(/unreachable/);
    await slowEnded;
    await new Promise((r) => setTimeout(r, 50));
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
  expect(unhandled).toEqual([]);
  expect(logged.some((l) => /attempt of slow ended after its worker stopped \(.*unreachable/.test(l))).toBe(true);
  await inner.close();
});
