/**
 * The worker's guard against claiming a unit again and again without progress
 * (scheduler/spin-guard.ts), in process. The scheduler and the call must agree
 * on whether an approval releases a gate; here they are made to disagree (the
 * store the worker decides from shows an approval bound to the prepared
 * request, the one the ledger asks at the call does not), so every attempt of
 * the gate is held again with nothing changed. The unit is claimed SPIN_LIMIT
 * times, then the run blocks on it with reason `no-progress`, instead of
 * claiming it for ever.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule } from "../src/handler-api.js";
import type { Approval } from "../src/model/facts.js";
import { SPIN_LIMIT } from "../src/scheduler/spin-guard.js";
import type { Store } from "../src/store/types.js";
import { compileText, freshStore, tempDir } from "./fixtures/load.js";

const CONTRACT = `contract: 1
task:
  id: spins
  goal: g
  outputs: [out]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  tool_calls: 400
tools:
  send: { class: irreversible, approval: human, key: "send:\${run.id}" }
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  gate: { uses: [send], approval: human, produces: [out], verify: [ok], timeout: 1m, retry: { max: 0 } }
`;

it("a unit whose attempts change nothing is claimed SPIN_LIMIT times, then the run blocks on it with the reason", async () => {
  const dir = tempDir();
  const store = await freshStore(dir);
  const plan = compileText(CONTRACT);
  const sent: unknown[] = [];
  const handlers: HandlerModule = {
    units: {
      gate: async (ctx) => {
        const r = await ctx.tool("send", { to: "ada@example.org" });
        await ctx.write("out", "x");
        return r as Record<string, unknown>;
      },
    },
    tools: { send: { call: async (args) => (sent.push(args), { id: "m1" }) } },
  };
  const options = { plan, handlers, run: "R", artifacts: join(dir, "a"), crash: () => {}, log: () => {} };
  const first = await runPlan({ ...options, store });
  expect(first.blocked.map((b) => [b.unit, b.reason])).toEqual([["gate", "approval"]]);

  // the scheduler's view: an approval bound to the held request; the call's view (listApprovals): none
  const [held] = await store.listEffects("R", { unit: "gate", states: ["PREPARED"] });
  const phantom: Approval = {
    id: "ap_phantom",
    run: "R",
    unit: "gate",
    planVersion: (await store.getRun("R"))!.planVersion,
    artifactHashes: {},
    scope: "unit",
    expiresAt: "2999-01-01T00:00:00.000Z",
    grantedBy: "nobody",
    grantedAt: new Date().toISOString(),
    binding: { effect: held!.id, tool: "send", key: held!.key!, requestHash: held!.requestHash!, inputs: {}, needs: {} },
  };
  let claims = 0;
  const disagreeing = new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === "loadFacts")
        return async (...args: Parameters<Store["loadFacts"]>) => ({ ...(await target.loadFacts(...args)), approvals: [phantom] });
      if (prop === "claimUnits")
        return async (...args: Parameters<Store["claimUnits"]>) => {
          claims += args[1].length;
          // without the guard this never ends: fail loudly instead of hanging
          if (claims > 50) throw new Error(`claimed ${claims} times`);
          return target.claimUnits(...args);
        };
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as Store;
  const second = await runPlan({ ...options, store: disagreeing });

  expect(claims).toBe(SPIN_LIMIT);
  expect(sent).toEqual([]);
  expect(second.status).toBe("blocked");
  expect(second.blocked).toEqual([expect.objectContaining({ unit: "gate", reason: "no-progress" })]);
  expect(second.blocked[0]!.detail).toMatch(/unit gate was claimed 5 times in a row without progress/);
  expect((await store.listEvents("R", { type: "unit-stopped" })).map((e) => [e.unit, e.data?.reason])).toEqual([["gate", "no-progress"]]);
  await store.close();
});
