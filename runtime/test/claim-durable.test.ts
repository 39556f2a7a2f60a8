/**
 * When a claim is made durable (store.sync(), one fsync on SQLite): before the
 * attempt's number or token leaves the store, and not otherwise. A step that
 * only returns a result lets its commit's fsync carry the claim (one fsync per
 * unit, not two); a handler process, a write, a tool call, a model call, a charge each sync
 * first, once per attempt. The power-loss side of it, with real processes and
 * a WAL cut at the last fsync, is test/runtime-power-loss.test.ts.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcessRunner } from "../src/engine/handler-runner.js";
import { runPlan } from "../src/engine/run-plan.js";
import type { HandlerModule, UnitContext } from "../src/handler-api.js";
import { compileText, freshStore, tempDir } from "./fixtures/load.js";

const CONTRACT = `contract: 1
task:
  id: sync
  goal: g
  outputs: [out]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  model_calls: 5
  tool_calls: 5
  retries: 0
tools:
  look: { class: read }
units:
  first: { uses: [look] }
  second: { needs: { first: content }, uses: [look] }
  last: { needs: { second: content }, uses: [look], produces: [out] }
`;

type Act = (ctx: UnitContext) => Promise<unknown>;

/**
 * Runs the three-unit chain with `act` in the first two units; the trace interleaves syncs with what the
 * attempts did. With `lookingVerifier`, `second` is verified by a model verifier that calls the read tool.
 */
async function trace(act: Act, mode: "none" | "process" = "none", lookingVerifier = false) {
  const dir = tempDir();
  const store = await freshStore(dir);
  const log: string[] = [];
  const sync = store.sync.bind(store);
  store.sync = async () => {
    log.push("sync");
    return sync();
  };
  const handlers: HandlerModule = {
    units: {
      first: async (ctx) => (await act(ctx), {}),
      second: async (ctx) => (await act(ctx), {}),
      last: async (ctx) => (await ctx.write("out", "x"), {}),
    },
    tools: {
      look: {
        call: async () => {
          log.push("tool");
          return {};
        },
      },
    },
  };
  const inner = inProcessRunner(handlers);
  const runner = {
    mode,
    open: (inv: Parameters<typeof inner.open>[0]) => {
      log.push(`open ${inv.unitId}`);
      return inner.open(inv);
    },
  };
  const contract = lookingVerifier
    ? CONTRACT.replace("units:\n", 'verifiers:\n  looked: { kind: model, describe: "asks the remote" }\nunits:\n').replace(
        "second: { needs: { first: content }, uses: [look] }",
        "second: { needs: { first: content }, uses: [look], verify: [looked] }",
      )
    : CONTRACT;
  const verifiers = {
    path: "verifiers.js",
    sha256: "0",
    verifiers: {
      looked: async (ctx: { tool: (name: string, args: Record<string, unknown>) => Promise<unknown> }) => (
        await ctx.tool("look", {}),
        { passed: true }
      ),
    },
  };
  // a model in the worker, standing for the provider: the trace shows when the call left
  const model = {
    call: async () => {
      log.push("model");
      return { content: "ok", model: "m", usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } };
    },
  };
  const out = await runPlan({
    store,
    model,
    plan: compileText(contract),
    ...(lookingVerifier ? { verifiers } : {}),
    handlers,
    run: "R",
    artifacts: join(dir, "a"),
    runner,
    crash: () => {},
    log: () => {},
  });
  expect(out.status).toBe("done");
  await store.close();
  return log;
}

describe("a claim is synced before its attempt acts outside the store, and only then", () => {
  it.each<{ what: string; act: Act; expected: string[] }>([
    {
      what: "returns a result only: no sync of its own (its commit's fsync carries the claim)",
      act: async () => {},
      expected: ["open first", "open second", "open last", "sync"],
    },
    {
      what: "calls a tool: a sync before the call, one per attempt",
      act: async (ctx) => {
        await ctx.tool("look", {});
        await ctx.tool("look", {});
      },
      expected: ["open first", "sync", "tool", "tool", "open second", "sync", "tool", "tool", "open last", "sync"],
    },
    {
      what: "calls the model: a sync before the request leaves, once per attempt",
      act: async (ctx) => {
        await ctx.model({ messages: [{ role: "user", content: "hi" }] });
        await ctx.model({ messages: [{ role: "user", content: "again" }] });
      },
      expected: ["open first", "sync", "model", "model", "open second", "sync", "model", "model", "open last", "sync"],
    },
    {
      what: "charges a model call: a sync before the charge",
      act: async (ctx) => ctx.charge({ model_calls: 1 }),
      expected: ["open first", "sync", "open second", "sync", "open last", "sync"],
    },
  ])("an in-process attempt that $what", async ({ act, expected }) => {
    expect(await trace(act)).toEqual(expected);
  });

  it("a verifier's lookup carries the attempt's id and token: a sync before it, after a handler that did nothing outside", async () => {
    expect(await trace(async () => {}, "none", true)).toEqual(["open first", "open second", "sync", "tool", "open last", "sync"]);
  });

  it("a handler process gets the attempt's directory and number: the sync comes before it is opened", async () => {
    expect(await trace(async () => {}, "process")).toEqual(["sync", "open first", "sync", "open second", "sync", "open last"]);
  });
});
