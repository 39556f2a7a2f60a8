/**
 * Names from a contract that are also Object.prototype properties reach no
 * prototype function: a tool `constructor` without an adapter is refused
 * (it used to call `Object` and record the effect COMMITTED), a unit
 * `hasOwnProperty` without a handler fails with a clear reason (it used to
 * be a TypeError), a verifier `toString` without a handler fails closed.
 */
import { join } from "node:path";
import { expect, it } from "vitest";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule } from "../src/handler-api.js";
import { missingHandlers, verifierModuleProblems } from "../src/handlers/check-module.js";
import { compileText, freshStore, tempDir } from "./fixtures/load.js";

const contract = `contract: 1
task:
  id: proto
  version: 1
  goal: prototype names reach nothing
  outputs: [a-out, b-out, c-out]
  done: [ok]
budgets: { model_calls: 10, tool_calls: 10, tokens: 1000, retries: 0 }
tools:
  constructor: { class: dedup, key: "k:\${run.id}", lookup: valueOf }
  valueOf: { class: read }
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
  toString: { kind: model }
units:
  sender: { produces: [a-out], uses: [constructor], verify: [ok] }
  hasOwnProperty: { produces: [b-out], verify: [ok] }
  checked: { produces: [c-out], verify: [toString] }
`;

it("prototype names as tool, unit and verifier names find no adapter, handler or verifier", async () => {
  const dir = tempDir();
  const store = await freshStore(dir);
  const plan = compileText(contract);
  const handlers: HandlerModule = {
    units: {
      sender: async (ctx) => {
        await ctx.tool("constructor", { to: "x" });
        await ctx.write("a-out", "sent");
        return { ok: true };
      },
      checked: async (ctx) => (await ctx.write("c-out", "c"), { ok: true }),
    },
    tools: {},
  };
  // the start-up check names them missing too (Object.prototype's functions are no handlers)
  expect(missingHandlers(plan, handlers).map((m) => `${m.kind} ${m.name}`)).toEqual([
    "unit hasOwnProperty",
    "tool constructor",
    "tool valueOf",
  ]);
  expect(verifierModuleProblems(plan, {})).toEqual([
    expect.stringMatching(/^verifiers\.toString: model verifier \(verifies checked\) is not implemented/),
  ]);
  const outcome = await runPlan({ store, plan, handlers, run: "R", artifacts: join(dir, "artifacts"), crash: () => {}, log: () => {} });
  expect(outcome.status).not.toBe("done");
  const effects = await store.listEffects("R");
  expect(effects.filter((e) => e.state === "COMMITTED")).toEqual([]);
  const failures = (await store.listEvents("R"))
    .filter((e) => e.type === "attempt-failed" || e.type === "unit-failed")
    .map((e) => JSON.stringify(e.data));
  const text = failures.join("\n");
  expect(text).toContain("no adapter for tool constructor");
  expect(text).toContain("no handler for unit hasOwnProperty");
  expect(text).not.toContain("TypeError");
  expect(text).toMatch(/verifier toString|toString verifier/);
});
