/**
 * An attempt of a plan the run has left starts no side effect: its tool call
 * is refused by the store in the transaction that would record the effect
 * (PlanVersionChangedError, both stores: conformance suite), nothing is sent,
 * and the attempt is discarded uncounted (`attempt-discarded`, reason
 * `plan-changed`), as a commit under the old plan is. Here the plan changes
 * between two calls of one attempt, as `resume --contract` in another process
 * would make it.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule } from "../src/handler-api.js";
import { compileText, freshStore, tempDir } from "./fixtures/load.js";

const CONTRACT = `contract: 1
task:
  id: planchange
  goal: g
  outputs: [out]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  tool_calls: 10
  retries: 0
tools:
  send: { class: dedup, key: "send:\${run.id}", lookup: find }
  notify: { class: dedup, key: "notify:\${run.id}", lookup: find }
  find: { class: read }
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  mail: { uses: [send, notify], produces: [out], verify: [ok], timeout: 1m, retry: { max: 0 } }
`;

it("a tool call of an attempt whose plan the run has left is refused before anything is sent, and the attempt is not counted", async () => {
  const dir = tempDir();
  const store = await freshStore(dir);
  const plan = compileText(CONTRACT);
  const sent: unknown[] = [];
  let refused: unknown;
  const handlers: HandlerModule = {
    units: {
      mail: async (ctx) => {
        await ctx.tool("send", { to: "first" });
        // another process records a new contract for the run (what `resume --contract v2.yaml` commits)
        const head = await store.latestCheckpoint("R");
        await store.commitCheckpoint("R", head.version, {
          kind: "plan-change",
          changes: [],
          plan: { planVersion: "p2", inputVersion: head.inputVersion, plan: { ...plan, planHash: "p2" } },
          planVersion: head.planVersion,
          approvals: [],
          nextAction: { kind: "run", units: ["mail"] },
          events: [],
          now: new Date().toISOString(),
        });
        try {
          await ctx.tool("notify", { to: "second" });
        } catch (err) {
          refused = err;
        }
        await ctx.write("out", "x");
        return {};
      },
    },
    tools: {
      send: { call: async (args) => (sent.push(args), { id: `m${sent.length}` }) },
      notify: { call: async (args) => (sent.push(args), { id: `n${sent.length}` }) },
      find: { call: async () => null },
    },
  };
  // the run process stops when the run's plan is not its own (the CLI's worker reloads it instead)
  await runPlan({ store, plan, handlers, run: "R", artifacts: join(dir, "a"), crash: () => {}, log: () => {} }).catch(() => {});
  const held = (await store.listCheckpoints("R"))[0]!.planVersion;

  expect(sent).toEqual([{ to: "first" }]);
  expect(refused).toMatchObject({ name: "PlanVersionChangedError", held, current: "p2" });
  expect((await store.listEffects("R")).map((e) => e.state)).toEqual(["COMMITTED"]);
  const discarded = await store.listEvents("R", { type: "attempt-discarded" });
  expect(discarded.map((e) => [e.unit, e.data?.reason, e.data?.at])).toEqual([["mail", "plan-changed", "tool call"]]);
  expect(await store.listEvents("R", { type: "attempt-failed" })).toEqual([]);
  expect(await store.getRecords("R", { status: "current" })).toEqual([]);
  const facts = await store.loadFacts("R");
  expect(facts.units.find((u) => u.unit === "mail")).toMatchObject({ state: "pending", failures: 0 });
  expect(facts.leases).toEqual([]);
  await store.close();
});
