/**
 * In the worker's own process too (`--isolation none`, the library API):
 * `ctx.inputs` holds only the unit's declared inputs, as frozen copies, so a
 * handler that changes them changes nothing a key renders from; `ctx.charge`
 * refuses negative, NaN and unknown charges.
 */
import { join } from "node:path";
import { compile } from "@taskspec/compiler";
import { describe, expect, it } from "vitest";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule, UnitContext } from "../src/handler-api.js";
import { freshStore, tempDir } from "./fixtures/load.js";

const CONTRACT = `contract: 1
task:
  id: copies
  version: 1
  goal: ctx values are copies
  outputs: [note]
  done: [ok]
inputs:
  channel: { kind: decision, value: "news" }
  other: { kind: decision, value: "not yours" }
budgets:
  model_calls: 10
  tokens: 100
  tool_calls: 10
  retries: 0
tools:
  post_note: { class: idempotent, key: "\${inputs.channel}/\${run.id}" }
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
  post:
    needs: { channel: content }
    uses: [post_note]
    produces: [note]
    verify: [ok]
`;

async function runWith(unit: (ctx: UnitContext) => Promise<unknown>) {
  const { plan, diagnostics } = compile(CONTRACT);
  if (!plan) throw new Error(JSON.stringify(diagnostics));
  const dir = tempDir();
  const store = await freshStore(dir);
  const keys: Array<string | undefined> = [];
  const handlers: HandlerModule = {
    units: { post: unit },
    tools: { post_note: { call: async (_args, meta) => (keys.push(meta.key), { ok: true }) } },
  };
  const outcome = await runPlan({ store, plan, handlers, run: "R", artifacts: join(dir, "artifacts"), crash: () => {}, log: () => {} });
  const facts = await store.loadFacts("R");
  return { outcome, keys, unit: facts.units.find((u) => u.unit === "post"), run: facts.run };
}

describe("ctx values are copies, in process too", () => {
  it("ctx.inputs is frozen, holds the declared inputs only, and the key renders from the stored value", async () => {
    const seen: Record<string, unknown> = {};
    const r = await runWith(async (ctx) => {
      seen.keys = Object.keys(ctx.inputs);
      try {
        (ctx.inputs as Record<string, unknown>).channel = "evil";
      } catch (err) {
        seen.error = (err as Error).name;
      }
      await ctx.tool("post_note", { text: "x" });
      await ctx.write("note", "x");
      return { ok: true };
    });
    expect(r.outcome.status).toBe("done");
    expect(seen).toEqual({ keys: ["channel"], error: "TypeError" });
    expect(r.keys).toEqual(["news/R"]);
  });

  for (const [cost, message] of [
    [{ model_calls: -1000 }, /model_calls is -1000: a charge is never negative/],
    [{ tokens: Number.NaN }, /tokens is NaN, not a finite number/],
    [{ tokens: Number.POSITIVE_INFINITY }, /tokens is Infinity, not a finite number/],
    [{ tokens: "5" }, /tokens is a string, not a number/],
    [{ dollars: 3 }, /unknown dimension "dollars"/],
    [null, /it takes \{ model_calls\?, tokens\? \}, not null/],
  ] as const) {
    it(`ctx.charge(${JSON.stringify(cost)}) is refused and ends the attempt as a guard failure`, async () => {
      const r = await runWith(async (ctx) => {
        await ctx.charge(cost as never).catch(() => undefined); // caught: the refusal still ends the attempt
        await ctx.write("note", "x");
        return { ok: true };
      });
      expect(r.outcome.status).toBe("failed");
      expect(r.unit?.lastError).toMatchObject({ class: "guard", message: expect.stringMatching(message) });
      expect(r.run.budgetUsed.model_calls ?? 0).toBe(0);
      expect(r.run.budgetUsed.tokens ?? 0).toBe(0);
    });
  }
});
