/**
 * An attempt's booking as pure rules (store/booking.ts and the lease ends of
 * store/unit-transition.ts): what its charges draw, what each end of its
 * lease releases, and the budgets a recovery leaves after a kill before,
 * during and after a paid call. Both stores execute these answers
 * (runtime/test/conformance/suite.ts); real processes: test/runtime-budget-settle.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { BudgetAmounts } from "../src/model/facts.js";
import { drawOnBooking, releasedSince, settleBooking } from "../src/store/booking.js";
import { bookedChargeOutcome } from "../src/store/budget-charge.js";
import {
  claimEvents,
  decideBreakLease,
  decideClaim,
  decideCommit,
  decideEndAttempt,
  decideReleaseLease,
  type AttemptWrite,
  type CommitState,
  type EndingLease,
} from "../src/store/unit-transition.js";
import type { CheckpointCommit } from "../src/store/types.js";

const NOW = "2026-01-01T01:00:00.000Z";

describe("a charge draws on the booking first", () => {
  const cases: Array<
    [string, BudgetAmounts | undefined, BudgetAmounts, { drawn: BudgetAmounts; rest: BudgetAmounts; left: BudgetAmounts }]
  > = [
    ["no booking: all of it is charged", undefined, { model_calls: 1 }, { drawn: {}, rest: { model_calls: 1 }, left: {} }],
    [
      "within the booking: drawn, nothing beyond",
      { model_calls: 2, tokens: 500 },
      { model_calls: 1 },
      { drawn: { model_calls: 1 }, rest: {}, left: { model_calls: 1, tokens: 500 } },
    ],
    [
      "past the booking: the booking's rest drawn, the remainder charged",
      { tokens: 100 },
      { tokens: 130 },
      { drawn: { tokens: 100 }, rest: { tokens: 30 }, left: {} },
    ],
    [
      "a dimension the booking does not hold is charged whole",
      { model_calls: 1 },
      { model_calls: 1, tool_calls: 2 },
      { drawn: { model_calls: 1 }, rest: { tool_calls: 2 }, left: {} },
    ],
    ["zero and negative amounts draw nothing", { model_calls: 1 }, { model_calls: 0 }, { drawn: {}, rest: {}, left: { model_calls: 1 } }],
  ];
  for (const [name, booking, delta, want] of cases) it(name, () => expect(drawOnBooking(booking, delta)).toEqual(want));

  it("a refused charge (past a cap) draws nothing: the store writes nothing", () => {
    const { outcome } = bookedChargeOutcome({ model_calls: 5 }, { model_calls: 5 }, { model_calls: 2 }, "check", { model_calls: 1 });
    expect(outcome).toEqual({ ok: false, budget: "model_calls", used: 5, cap: 5, requested: 1 });
    const ok = bookedChargeOutcome({ model_calls: 5 }, { model_calls: 5 }, { model_calls: 1 }, "check", { model_calls: 1 });
    expect(ok).toEqual({ outcome: { ok: true, used: { model_calls: 5 } }, draw: { drawn: { model_calls: 1 }, rest: {}, left: {} } });
  });
});

describe("settling a booking when its lease ends", () => {
  const lease = (reserved?: BudgetAmounts) => ({ unit: "a", attempt: 2, token: 7, ...(reserved ? { reserved } : {}) });
  const cases: Array<[string, BudgetAmounts, BudgetAmounts | undefined, BudgetAmounts | undefined]> = [
    ["the undrawn rest is released", { model_calls: 3, tokens: 700 }, { model_calls: 2, tokens: 500 }, { model_calls: 1, tokens: 200 }],
    ["nothing undrawn: no write, no event", { model_calls: 3 }, undefined, undefined],
    ["an empty booking: no write", { model_calls: 3 }, {}, undefined],
    ["never below zero: a used amount is lowered at most to 0", { model_calls: 1 }, { model_calls: 3, tokens: 10 }, { model_calls: 0 }],
    ["a negative used amount (an edited store) is left as it is", { tokens: -5 }, { tokens: 10 }, undefined],
  ];
  for (const [name, used, reserved, after] of cases)
    it(name, () => {
      const s = settleBooking({ run: { budgetUsed: used, version: 4 }, lease: lease(reserved) }, { at: NOW, why: "lease-broken" });
      if (after === undefined) return expect(s).toBeUndefined();
      expect(s?.used).toEqual(after);
      for (const v of Object.values(s!.used)) expect(v).toBeGreaterThanOrEqual(0);
      expect(s?.event).toEqual({
        at: NOW,
        type: "budget-settled",
        unit: "a",
        attempt: 2,
        data: { released: s!.released, token: 7, why: "lease-broken", version: 4 },
      });
    });

  it("what settlements released after a checkpoint (the audit's allowance); earlier ones are in its figure", () => {
    const ev = (version: number, released: BudgetAmounts) => ({ data: { released, version } });
    expect(releasedSince([ev(2, { model_calls: 5 }), ev(3, { model_calls: 1, tokens: 9 }), ev(4, { model_calls: 2 })], 3)).toEqual({
      model_calls: 3,
      tokens: 9,
    });
    expect(releasedSince([{ data: { released: { model_calls: 1 } } }], 0)).toEqual({});
  });
});

describe("every end of a lease settles its booking, once", () => {
  const booked: EndingLease = { token: 7, owner: "w1", attempt: 2, reserved: { model_calls: 2, tokens: 300 } };
  const used = { model_calls: 3, tokens: 400 };
  const settleWrite: AttemptWrite = { op: "set-budget-used", used: { model_calls: 1, tokens: 100 } };
  const release: AttemptWrite = { op: "delete-lease", unit: "a", token: 7 };
  const settled = (why: string, version = 4) => ({
    at: NOW,
    type: "budget-settled",
    unit: "a",
    attempt: 2,
    data: { released: { model_calls: 2, tokens: 300 }, token: 7, why, version },
  });
  const run = { run: "R", planVersion: "p1", budgetUsed: used, version: 4 };

  it("an attempt's own end (verifier failure, held at a gate, blocked by the budget, timeout): released before the lease goes", () => {
    for (const countsAsFailure of [true, false]) {
      const d = decideEndAttempt(
        { run, lease: booked, unit: { failures: 0 } },
        { unit: "a", token: 7, outcome: { countsAsFailure, rejected: [] }, at: NOW },
      );
      expect(d).toMatchObject({ kind: "end-attempt", events: true, settled: settled("attempt-ended") });
      if (d.kind === "end-attempt") expect(d.writes.slice(-2)).toEqual([settleWrite, release]);
    }
  });

  it("a broken lease (its worker killed, frozen past its lease, a cancel): the recovery releases it; breaking again changes nothing", () => {
    const d = decideBreakLease({ run, lease: booked, unit: { failures: 0 } }, { unit: "a", token: 7, at: NOW });
    expect(d).toEqual({ kind: "end-attempt", writes: [settleWrite, release], events: true, settled: settled("lease-broken") });
    // the same transaction deleted the lease: a second break (another worker, a retried recovery) finds none
    const after = { budgetUsed: { model_calls: 1, tokens: 100 }, version: 4 };
    const again = decideBreakLease({ run: after, lease: undefined, unit: { failures: 0 } }, { unit: "a", token: 7, at: NOW });
    expect(again).toEqual({ kind: "end-attempt", writes: [], events: false });
    // a newer lease on the unit is not this one: left alone
    const newer = decideBreakLease({ run, lease: { ...booked, token: 8 }, unit: { failures: 0 } }, { unit: "a", token: 7, at: NOW });
    expect(newer).toEqual({ kind: "end-attempt", writes: [], events: false });
  });

  it("a release (a cancel's fence): released; a recovery lease holds no booking and releases nothing", () => {
    expect(decideReleaseLease({ run, lease: booked }, { unit: "a", token: 7, at: NOW })).toEqual({
      kind: "end-attempt",
      writes: [settleWrite, release],
      events: true,
      settled: settled("released"),
    });
    expect(decideReleaseLease({ lease: { token: 7, owner: "w1", attempt: 2 } }, { unit: "a", token: 7, at: NOW })).toEqual({
      kind: "end-attempt",
      writes: [release],
      events: true,
    });
  });

  it("a result: the commit settles it in its checkpoint (the figure it records is the settled one)", () => {
    const commit: CheckpointCommit = {
      kind: "unit",
      fence: { unit: "a", token: 7 },
      changes: [{ kind: "complete", unit: "a", attempt: 2, result: {}, sources: {}, artifacts: [] }],
      approvals: [],
      nextAction: { kind: "run", units: [] },
      charge: { wall_clock_ms: 40 },
      events: [],
      now: NOW,
    };
    const state: CommitState = {
      run: { run: "R", version: 4, status: "active", planVersion: "p1", inputVersion: "i1", budgetUsed: used },
      leases: new Map([["a", booked]]),
      units: new Map([["a", { unit: "a", state: "pending", attempts: 2, failures: 0, version: 0 }]]),
    };
    const d = decideCommit(state, 4, [commit], NOW);
    if (d.kind !== "commit") throw new Error(d.error.message);
    expect(d.run.budgetUsed).toEqual({ model_calls: 1, tokens: 100, wall_clock_ms: 40 });
    expect(d.steps[0]!.header.budgetUsed).toEqual({ model_calls: 1, tokens: 100, wall_clock_ms: 40 });
    // released after checkpoint 4, reflected from checkpoint 5 on: the audit allows nothing for it at 5
    expect(d.steps[0]!.events.filter((e) => e.type === "budget-settled")).toEqual([settled("committed", 4)]);
  });

  it("a claim taking over an expired lease settles it before booking its own; a recovery claim too", () => {
    const held = { owner: "w1", token: 7, attempt: 2, expiresAt: NOW, reserved: booked.reserved! };
    const s = {
      run: { run: "R", version: 4, status: "active" as const, planVersion: "p1", budgetUsed: used, caps: { model_calls: 3 } },
      unit: { unit: "a", state: "pending" as const, attempts: 2, failures: 0, version: 0 },
      held,
    };
    // before the settlement 3 of 3 model calls are used: the new booking of 2 fits only once the old one is released
    const d = decideClaim(s, { unit: "a", owner: "w2", ttlMs: 1000, now: NOW, reserve: { model_calls: 2 } });
    expect(d).toMatchObject({ kind: "claim", attempt: 3, budgetUsed: { model_calls: 3, tokens: 100 }, reserved: { model_calls: 2 } });
    if (d.kind === "claim")
      expect(claimEvents(s, { unit: "a", owner: "w2", ttlMs: 1000, now: NOW }, d, 9).map((e) => e.type)).toEqual([
        "lease-taken-over",
        "budget-settled",
        "leased",
        "budget-reserved",
      ]);
    const r = decideClaim(s, { unit: "a", owner: "w2", ttlMs: 1000, now: NOW, recovery: true });
    expect(r).toMatchObject({ kind: "claim", newAttempt: false, budgetUsed: { model_calls: 1, tokens: 100 }, reserved: {} });
  });
});

/**
 * What a recovery leaves after a kill, from what the attempt's charges drew:
 * each paid call books through the runtime (a model call before its request
 * leaves, its tokens when it answers), the worker dies, the lease is broken.
 */
describe("a killed attempt's budgets after the recovery: what the runtime saw it start", () => {
  const caps = { model_calls: 10, tokens: 10_000 };
  const booking = { model_calls: 2, tokens: 500 };
  type Step = { delta: BudgetAmounts; mode: "check" | "record" };
  const call: Step = { delta: { model_calls: 1 }, mode: "check" };
  const answer = (tokens: number): Step => ({ delta: { tokens }, mode: "record" });
  const tool: Step = { delta: { tool_calls: 1 } as BudgetAmounts, mode: "check" };
  const cases: Array<[string, Step[], BudgetAmounts]> = [
    ["killed before its first call: nothing was spent", [], { model_calls: 0, tokens: 0 }],
    [
      "killed while a call was out (sent, never answered): the call counts, its tokens never reported do not",
      [call],
      { model_calls: 1, tokens: 0 },
    ],
    ["killed after an answered call: the call and its tokens", [call, answer(120)], { model_calls: 1, tokens: 120 }],
    ["killed during a second call: two calls, the first's tokens", [call, answer(120), call], { model_calls: 2, tokens: 120 }],
    [
      "spent past its booking before the kill: all of it (the rest was charged as it came)",
      [call, answer(400), call, answer(300), call],
      { model_calls: 3, tokens: 700 },
    ],
  ];
  for (const [name, steps, after] of cases)
    it(name, () => {
      let used: BudgetAmounts = { ...booking }; // the claim booked the declared cost
      let left: BudgetAmounts = { ...booking };
      for (const s of steps) {
        const { outcome, draw } = bookedChargeOutcome(used, caps, s.delta, s.mode, left);
        if (!outcome.ok) throw new Error("refused");
        used = outcome.used;
        left = draw.left;
      }
      const d = decideBreakLease(
        { run: { budgetUsed: used, version: 1 }, lease: { token: 7, owner: "w1", attempt: 1, reserved: left }, unit: { failures: 0 } },
        { unit: "a", token: 7, at: NOW },
      );
      const written = d.writes.find((w) => w.op === "set-budget-used");
      expect(written ? written.used : used).toEqual(after);
    });

  it("a tool call is booked at its declared cost before it is sent, never from the unit's booking: kept whole", () => {
    const { outcome, draw } = bookedChargeOutcome({ ...booking }, caps, tool.delta, tool.mode, undefined);
    expect(outcome).toEqual({ ok: true, used: { ...booking, tool_calls: 1 } });
    expect(draw.drawn).toEqual({});
    const s = settleBooking(
      { run: { budgetUsed: outcome.ok ? outcome.used : {}, version: 1 }, lease: { unit: "a", attempt: 1, token: 7, reserved: booking } },
      { at: NOW, why: "lease-broken" },
    );
    expect(s?.used).toEqual({ model_calls: 0, tokens: 0, tool_calls: 1 });
  });
});
