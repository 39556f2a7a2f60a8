/**
 * One receipt: what the ledger keeps of an adapter's answer (receipt.ts), and
 * that `ctx.tool` hands the handler that same value on the first call, on a
 * reuse by a later attempt, and on a reuse after recovery adopted the effect
 * from its lookup. The real-process version (a worker killed between the
 * effect's commit and the unit's) is in test/runtime-effects.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { PlanTool } from "@taskspec/compiler";
import type { HandlerModule } from "../src/handler-api.js";
import { callTool, type LedgerScope } from "../src/ledger/ledger.js";
import { keptReceipt, RECEIPT_MAX_BYTES } from "../src/ledger/receipt.js";
import { reconcileEffect } from "../src/ledger/reconcile.js";
import type { SqliteStore } from "../src/store/sqlite.js";
import { compileText, freshStore } from "./fixtures/load.js";

const NOW = "2026-01-01T00:00:00.000Z";

const plan = compileText(`contract: 1
task:
  id: receipts
  version: 1
  goal: One receipt
  timeout: 10m
  outputs: [out]
  done: [{ check: "true" }]
budgets: { model_calls: 10, tool_calls: 20, tokens: 10, retries: 3 }
tools:
  charge:
    class: dedup
    key: "charge:\${run.id}"
    lookup: find_charge
    args: { card_token: { secret: true } }
    result: { charge_id: string, session: { type: string, secret: true } }
  find_charge: { class: read }
units:
  u:
    uses: [charge]
    produces: [out]
    verify: [{ check: "true" }]
`);
const chargeTool = plan.tools.find((t) => t.name === "charge")!;

/** What the payment remote answers: undeclared fields, a Date, NaN, an undefined field, a secret field, an echo of the secret argument. */
const answer = () => ({
  charge_id: "ch_1",
  card: "visa-4242",
  status: "succeeded",
  key: "charge:R",
  created: new Date("2026-01-01T00:00:01.000Z"),
  fee: Number.NaN,
  note: undefined,
  session: "PLANTED-session-77",
  echo: "token PLANTED-card-token-0001 used",
});
const EXPECTED = {
  charge_id: "ch_1",
  card: "visa-4242",
  status: "succeeded",
  key: "charge:R",
  created: "2026-01-01T00:00:01.000Z",
  fee: null,
  echo: "token *** used",
};

describe("what the ledger keeps of an answer", () => {
  const tool = { ...chargeTool, secretResult: ["session"], result: { charge_id: "string", session: "string" } } as PlanTool;
  it.each<[string, unknown, unknown]>([
    ["undeclared fields kept, secret fields dropped", { charge_id: "c", card: "v", session: "s" }, { charge_id: "c", card: "v" }],
    [
      "a Date as its ISO string, NaN and Infinity as null",
      { d: new Date(0), n: Number.NaN, i: Infinity },
      { d: "1970-01-01T00:00:00.000Z", n: null, i: null },
    ],
    ["undefined fields and functions go", { a: undefined, f: () => 1, b: [undefined, 1] }, { b: [null, 1] }],
    ["no answer is null", undefined, null],
    ["a scalar or a list is kept as JSON", [1, "x", { y: new Date(0) }], [1, "x", { y: "1970-01-01T00:00:00.000Z" }]],
    ["a __proto__ key stays a field", JSON.parse('{"__proto__": {"x": 1}, "a": 2}'), JSON.parse('{"__proto__": {"x": 1}, "a": 2}')],
  ])("%s", (_name, raw, expected) => {
    const kept = keptReceipt(tool, raw, ["PLANTED-x"]);
    expect(kept.kind).toBe("kept");
    const receipt = (kept as { receipt: unknown }).receipt;
    expect(receipt).toEqual(expected);
    // what the store round-trips (JSON text) is the value itself
    expect(JSON.parse(JSON.stringify(receipt))).toEqual(receipt);
    expect(JSON.stringify(receipt)).toBe(JSON.stringify(expected));
  });

  it("known secret values are masked anywhere inside it", () => {
    expect(keptReceipt(tool, { a: "x PLANTED-value y", list: ["PLANTED-value"] }, ["PLANTED-value"])).toEqual({
      kind: "kept",
      receipt: { a: "x *** y", list: ["***"] },
    });
  });

  it("over the bound it is cut to the declared fields and id, and says so", () => {
    const big = { charge_id: "c", id: "i", session: "s", body: "x".repeat(RECEIPT_MAX_BYTES) };
    const bytes = Buffer.byteLength(JSON.stringify({ charge_id: "c", id: "i", body: big.body }));
    expect(bytes).toBeGreaterThan(RECEIPT_MAX_BYTES);
    expect(keptReceipt(tool, big)).toEqual({
      kind: "kept",
      receipt: { charge_id: "c", id: "i" },
      trimmed: { bytes, limit: RECEIPT_MAX_BYTES },
    });
    // at the bound it is kept whole
    const fits = { charge_id: "c", body: "x".repeat(RECEIPT_MAX_BYTES - 27) };
    expect(Buffer.byteLength(JSON.stringify(fits))).toBe(RECEIPT_MAX_BYTES);
    expect(keptReceipt(tool, fits)).toEqual({ kind: "kept", receipt: fits });
  });

  it("an answer JSON cannot hold is not a receipt", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const bad of [{ n: 10n }, cycle]) {
      const kept = keptReceipt(tool, bad);
      expect(kept.kind).toBe("invalid");
      expect((kept as { why: string }).why).toMatch(
        /^charge answered a receipt JSON cannot hold \(.+\); the ledger keeps receipts as JSON/,
      );
    }
  });
});

async function storeWithRun(): Promise<SqliteStore> {
  const store = await freshStore();
  await store.createRun({
    run: "R",
    taskId: "receipts",
    planVersion: "p",
    inputVersion: "i",
    plan,
    caps: {},
    units: ["u"],
    origin: { artifactRoot: "/x" },
    now: NOW,
  });
  return store;
}

/** A ledger scope for attempt `attempt` of unit u, holding a fresh claim (taken after the earlier attempt's lease ran out, as after a crash). */
async function scopeFor(store: SqliteStore, handlers: HandlerModule, attempt: number): Promise<LedgerScope> {
  const claim = await store.claimUnit("R", "u", `w${attempt}`, 1000, new Date(Date.parse(NOW) + 10_000 * attempt).toISOString());
  expect(claim.attempt).toBe(attempt);
  let seq = 0;
  return {
    store,
    plan,
    handlers,
    run: "R",
    unit: plan.units.find((u) => u.id === "u")!,
    attempt,
    token: claim.token,
    env: { run: { id: "R" }, task: { id: "receipts" }, unit: { id: "u" }, attempt: { id: `a${attempt}` } },
    signal: new AbortController().signal,
    crash: () => {},
    now: () => NOW,
    approvalCovers: async () => false,
    charge: async () => {},
    nextSeq: () => ++seq,
    secrets: new Set(),
  };
}

describe("ctx.tool hands the handler the same receipt every time", () => {
  const remote = { calls: 0, record: undefined as unknown };
  const handlers: HandlerModule = {
    units: {},
    tools: {
      charge: {
        call: async () => {
          remote.calls++;
          remote.record = answer();
          return remote.record;
        },
      },
      find_charge: { call: async () => answer() },
    },
  };

  it("first call and reuse by a later attempt: the stored receipt, undeclared fields included", async () => {
    remote.calls = 0;
    const store = await storeWithRun();
    const first = await callTool(await scopeFor(store, handlers, 1), "charge", { amount: 5, card_token: "PLANTED-card-token-0001" });
    expect(first).toEqual(EXPECTED);
    const [effect] = await store.listEffects("R");
    expect(effect!.receipt).toEqual(first);
    const again = await callTool(await scopeFor(store, handlers, 2), "charge", { amount: 5, card_token: "PLANTED-card-token-0001" });
    expect(remote.calls).toBe(1);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    await store.close();
  });

  it("an effect whose receipt was lost, adopted from its lookup: the reuse gets the same receipt as a first call", async () => {
    const store = await storeWithRun();
    const scope = await scopeFor(store, handlers, 1);
    // the worker died after the remote charged, before the receipt was stored
    const dying: HandlerModule = {
      ...handlers,
      tools: { ...handlers.tools, charge: { call: async () => ((remote.record = answer()), answer()) } },
    };
    await expect(
      callTool(
        {
          ...scope,
          handlers: dying,
          crash: (p) => {
            if (p === "after-effect-before-receipt") throw new Error("killed");
          },
        },
        "charge",
        {
          amount: 5,
          card_token: "PLANTED-card-token-0001",
        },
      ),
    ).rejects.toThrow("killed");
    const [started] = await store.listEffects("R");
    expect(started!.state).toBe("STARTED");
    await reconcileEffect({ store, plan, handlers, crash: () => {}, now: () => NOW, envFor: () => ({ run: { id: "R" } }) }, started!);
    const reused = await callTool(await scopeFor(store, handlers, 2), "charge", { amount: 5, card_token: "PLANTED-card-token-0001" });
    // recovery does not know the attempt's secret values: the echo of the secret argument is the one difference it cannot mask
    expect(reused).toEqual({ ...EXPECTED, echo: "token PLANTED-card-token-0001 used" });
    await store.close();
  });
});
