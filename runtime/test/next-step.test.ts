/** The worker's order of actions as data: decision + what the worker holds -> the one next step, a table of named cases. */
import { describe, expect, it } from "vitest";
import type { EffectRecord, Lease, RunRow } from "../src/model/facts.js";
import type { Decision } from "../src/scheduler/decide.js";
import { budgetHoldLifted, nextStep, type Step, type StepInput } from "../src/scheduler/next-step.js";

const NOW = "2026-01-01T01:00:00.000Z";
const nowMs = Date.parse(NOW);
const later = (ms: number) => new Date(nowMs + ms).toISOString();

const decision = (over: Partial<Decision> = {}): Decision => ({
  states: {},
  ready: [],
  running: [],
  breakableLeases: [],
  toReconcile: [],
  exhausted: [],
  backingOff: [],
  blocked: [],
  awaitingApproval: [],
  allSucceeded: false,
  dropped: [],
  counts: { pending: 0, ready: 0, running: 0, blocked: 0, succeeded: 0, failed: 0, superseded: 0 },
  ...over,
});
const lease = (unit: string, expiresAt = later(10_000)): Lease => ({
  run: "R",
  unit,
  owner: "w1",
  token: 7,
  attempt: 1,
  expiresAt,
  renewedAt: NOW,
});
const effect = (id: string, unit: string): EffectRecord => ({
  id,
  run: "R",
  unit,
  attempt: 1,
  seq: 1,
  tool: "post",
  toolClass: "dedup",
  intent: "post()",
  argsDigest: "d",
  state: "STARTED",
  token: 7,
  preparedAt: NOW,
});
const run: StepInput["run"] = { status: "active", caps: { model_calls: 10 }, budgetUsed: {}, planVersion: "p1" };
const budgetHold = (requested: number): RunRow["hold"] => ({
  reason: "budget",
  detail: "d",
  at: NOW,
  data: { budget: "model_calls", requested },
});

function input(over: Partial<StepInput> = {}): StepInput {
  return {
    decision: decision(),
    run,
    planVersion: "p1",
    units: [],
    inflight: new Set(),
    concurrency: 2,
    stopping: false,
    reconciled: new Set(),
    nowMs,
    ...over,
  };
}

describe("nextStep: the worker's order of actions", () => {
  const cases: Array<[string, Partial<StepInput>, Step]> = [
    // the run moved on
    [
      "another plan version, nothing in flight: stop for a reload",
      { run: { ...run, planVersion: "p2" } },
      { kind: "plan-changed", settle: false, planVersion: "p2" },
    ],
    [
      "another plan version with attempts in flight: let them settle first (before anything else, even a finish)",
      { run: { ...run, planVersion: "p2", status: "done" }, inflight: new Set(["a"]) },
      { kind: "plan-changed", settle: true, planVersion: "p2" },
    ],
    [
      "a run that is no longer active: finish with its status",
      { run: { ...run, status: "cancelled" } },
      { kind: "finish", status: "cancelled" },
    ],
    [
      "told to stop, nothing in flight: finish",
      { stopping: true, decision: decision({ ready: ["a"] }) },
      { kind: "finish", status: "active" },
    ],
    // recovery first
    [
      "dead leases are broken first, not this worker's own",
      { decision: decision({ breakableLeases: [lease("a"), lease("b")], ready: ["c"] }), inflight: new Set(["a"]) },
      { kind: "break-leases", leases: [lease("b")] },
    ],
    [
      "only this worker's own expired lease: nothing to break",
      { decision: decision({ breakableLeases: [lease("a")] }), inflight: new Set(["a"]) },
      { kind: "wait", on: "attempts" },
    ],
    [
      "open effects are reconciled before anything is claimed, each once per worker",
      { decision: decision({ toReconcile: [effect("e1", "a"), effect("e2", "b")], ready: ["c"] }), reconciled: new Set(["e1"]) },
      { kind: "reconcile", effects: [effect("e2", "b")] },
    ],
    [
      "an effect already looked up is not looked up again: the run goes on",
      { decision: decision({ toReconcile: [effect("e1", "a")], ready: ["c"] }), reconciled: new Set(["e1"]) },
      { kind: "claim", units: ["c"] },
    ],
    // holds
    [
      "a budget hold the caps now cover is lifted",
      { run: { ...run, hold: budgetHold(2), budgetUsed: { model_calls: 8 } } },
      { kind: "lift-budget-hold" },
    ],
    [
      "a budget hold still short: stop at the hold",
      { run: { ...run, hold: budgetHold(3), budgetUsed: { model_calls: 8 } }, decision: decision({ ready: ["a"] }) },
      { kind: "stop-at-hold" },
    ],
    [
      "a hold with attempts in flight: they settle first",
      { run: { ...run, hold: { reason: "cancelling", detail: "d", at: NOW } }, inflight: new Set(["a"]) },
      { kind: "wait", on: "attempts" },
    ],
    // failing and finishing
    [
      "exhausted units are failed before any claim",
      { decision: decision({ exhausted: ["a"], ready: ["b"] }) },
      { kind: "fail-exhausted", units: ["a"] },
    ],
    ["every unit succeeded: verify task.done", { decision: decision({ allSucceeded: true }) }, { kind: "verify-done" }],
    [
      "every unit succeeded but one still settles: wait for it",
      { decision: decision({ allSucceeded: true }), inflight: new Set(["a"]) },
      { kind: "wait", on: "attempts" },
    ],
    // claiming
    ["ready units are claimed in order", { decision: decision({ ready: ["a", "b", "c"] }) }, { kind: "claim", units: ["a", "b", "c"] }],
    [
      "a unit already in flight here is not claimed again",
      { decision: decision({ ready: ["a", "b"] }), inflight: new Set(["a"]) },
      { kind: "claim", units: ["b"] },
    ],
    [
      "every slot taken: wait for an attempt",
      { decision: decision({ ready: ["c"] }), inflight: new Set(["a", "b"]) },
      { kind: "wait", on: "attempts" },
    ],
    [
      "told to stop with attempts in flight: claim nothing, let them settle",
      { decision: decision({ ready: ["c"] }), inflight: new Set(["a"]), stopping: true },
      { kind: "wait", on: "attempts" },
    ],
    // after the claim step
    [
      "after a cutoff (started, nothing in flight): decide again",
      { decision: decision({ ready: ["a"] }), claimed: { started: 1, raced: false } },
      { kind: "decide-again" },
    ],
    [
      "after claims: wait for the attempts",
      { decision: decision({ ready: ["a"] }), inflight: new Set(["a"]), claimed: { started: 1, raced: false } },
      { kind: "wait", on: "attempts" },
    ],
    [
      "after a lost race: decide again",
      { decision: decision({ ready: ["a"] }), claimed: { started: 0, raced: true } },
      { kind: "decide-again" },
    ],
    // waiting
    [
      "another worker's lease: poll until it expires, at most every 500 ms",
      { decision: decision({ running: [lease("a", later(10_000))] }) },
      { kind: "wait", on: "others", ms: 500 },
    ],
    [
      "another worker's lease about to expire: poll no faster than 50 ms",
      { decision: decision({ running: [lease("a", later(5))] }) },
      { kind: "wait", on: "others", ms: 50 },
    ],
    [
      "a unit backing off: sleep until the soonest retry (not block, not fail the run)",
      { decision: decision({ backingOff: [{ unit: "b", notBefore: later(1500) }] }), units: [{ unit: "a", state: "failed" }] },
      { kind: "wait", on: "others", ms: 1500 },
    ],
    [
      "backing off and another's lease: whichever comes first",
      { decision: decision({ backingOff: [{ unit: "b", notBefore: later(120) }], running: [lease("a")] }) },
      { kind: "wait", on: "others", ms: 120 },
    ],
    [
      "a backoff already over (a timer rounded down): wake in 1 ms, never spin at 0",
      { decision: decision({ backingOff: [{ unit: "b", notBefore: later(-3) }] }) },
      { kind: "wait", on: "others", ms: 1 },
    ],
    [
      "a free slot while attempts run: wake at the soonest retry too",
      { decision: decision({ backingOff: [{ unit: "b", notBefore: later(700) }] }), inflight: new Set(["a"]) },
      { kind: "wait", on: "attempts", ms: 700 },
    ],
    [
      "no free slot: only an attempt's end wakes the worker",
      { decision: decision({ backingOff: [{ unit: "b", notBefore: later(700) }] }), inflight: new Set(["a"]), concurrency: 1 },
      { kind: "wait", on: "attempts" },
    ],
    // the end
    [
      "a failed unit and nothing else to run: the run failed",
      {
        units: [
          { unit: "a", state: "failed" },
          { unit: "b", state: "pending" },
        ],
      },
      { kind: "fail-run", units: ["a"] },
    ],
    [
      "nothing ready, nothing running: blocked with the decision's reasons",
      { decision: decision({ blocked: [{ unit: "g", reason: "approval", detail: "waits" }], awaitingApproval: ["g"] }) },
      { kind: "block", blocked: [{ unit: "g", reason: "approval", detail: "waits" }] },
    ],
    [
      "nothing at all to say: blocked, no safe action",
      {},
      { kind: "block", blocked: [{ reason: "no-safe-action", detail: "no unit is ready and none is running" }] },
    ],
  ];
  it.each(cases)("%s", (_name, over, step) => {
    expect(nextStep(input(over))).toEqual(step);
  });

  it("is a function of its input", () => {
    const i = input({ decision: decision({ ready: ["a"], backingOff: [{ unit: "b", notBefore: later(10) }] }), inflight: new Set(["c"]) });
    expect(nextStep(i)).toEqual(nextStep(structuredClone(i)));
  });

  it("a budget hold is lifted only when the caps cover the refused charge (or the cap is gone)", () => {
    expect(budgetHoldLifted({ hold: budgetHold(2), caps: { model_calls: 10 }, budgetUsed: { model_calls: 8 } })).toBe(true);
    expect(budgetHoldLifted({ hold: budgetHold(3), caps: { model_calls: 10 }, budgetUsed: { model_calls: 8 } })).toBe(false);
    expect(budgetHoldLifted({ hold: budgetHold(3), caps: {}, budgetUsed: { model_calls: 8 } })).toBe(true);
  });
});
