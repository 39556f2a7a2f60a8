/**
 * An attempt's settlement as data: a table of outcomes and the writes each
 * makes, then a table of store refusals and what each turns the settlement into.
 */
import { describe, expect, it } from "vitest";
import { BudgetBlockedError, PlanVersionChangedError } from "../src/errors.js";
import type { AttemptOutcome, Manifest } from "../src/engine/attempt-outcome.js";
import {
  failureEnd,
  outcomeOfThrow,
  settle,
  settleRefused,
  type Refusal,
  type SettleInput,
  type SettleStep,
} from "../src/engine/settlement.js";

const NOW = "2026-01-01T00:00:00.000Z";
const leftover = { name: "x", path: "runs/R/u/a3/x", sha256: "aa" } as Manifest;
const earlier = { name: "it1", path: "runs/R/u/a3/it1", sha256: "bb" } as Manifest;
const timeEvent = { at: NOW, type: "budget-charged", unit: "u", attempt: 3, data: { wall_clock_ms: 40, for: "attempt time" } };
const budget = new BudgetBlockedError("model_calls", 9, 10, 2);
const planChanged = new PlanVersionChangedError("R", "p1", "p2");
/** No jitter, 1 s then 2 s: a retry's delay is read off the table. */
const backoff = { initialMs: 1000, factor: 2, maxMs: 60_000, jitter: "none" } as const;

function input(outcome: AttemptOutcome, over: Partial<SettleInput> = {}): SettleInput {
  return {
    run: "R",
    unit: { id: "u", retry: { max: 2, backoff } },
    attempt: 3,
    token: 7,
    planVersion: "p1",
    outcome,
    time: { amounts: { wall_clock_ms: 40 }, event: timeEvent },
    failures: 0,
    now: NOW,
    jitter: 0.5,
    approvals: ["ap1"],
    nextAction: { kind: "run", units: [] },
    ...over,
  };
}

const event = (type: string, data: Record<string, unknown>) => ({ at: NOW, type, unit: "u", attempt: 3, data });
const uncounted = (rejected: Manifest[], type: string, data: Record<string, unknown>): SettleStep => ({
  kind: "end-attempt",
  end: { countsAsFailure: false, rejected },
  events: [event(type, data)],
});
const failed = (over: Partial<Extract<AttemptOutcome, { kind: "failed" }>> = {}): AttemptOutcome => ({
  kind: "failed",
  error: { class: "handler-error", message: "handler threw: boom" },
  countsAsFailure: true,
  rejected: [leftover],
  ...over,
});
const succeeded: AttemptOutcome = {
  kind: "succeeded",
  change: { kind: "complete", unit: "u", attempt: 3, result: {}, sources: {}, artifacts: [leftover], rejected: [earlier] },
  verifierResults: [{ name: "ok", passed: true }],
};

describe("settle: what each outcome writes", () => {
  const cases: Array<[string, SettleInput, SettleStep[]]> = [
    [
      "succeeded: the completion with its time and events, through the group commit, between two crash points",
      input(succeeded),
      [
        { kind: "crash-point", point: "after-artifact-before-commit" },
        {
          kind: "commit",
          commit: {
            kind: "unit",
            fence: { unit: "u", token: 7 },
            planVersion: "p1",
            changes: [(succeeded as Extract<AttemptOutcome, { kind: "succeeded" }>).change],
            charge: { wall_clock_ms: 40 },
            approvals: ["ap1"],
            nextAction: { kind: "run", units: [] },
            events: [
              timeEvent,
              event("verified", { results: [{ name: "ok", passed: true }] }),
              event("unit-succeeded", { artifacts: [{ name: "x", sha256: "aa" }] }),
            ],
            now: NOW,
          },
        },
        { kind: "crash-point", point: "after-commit-before-ack" },
      ],
    ],
    [
      "a counted failure with attempts left: time booked, the failure counted, its paid journal closed, the retry's backoff recorded",
      input(failed(), { failures: 1 }),
      [
        { kind: "book-time" },
        {
          kind: "end-attempt",
          end: {
            countsAsFailure: true,
            error: { class: "handler-error", message: "handler threw: boom", attempt: 3 },
            rejected: [leftover],
            closeJournal: true,
            notBefore: "2026-01-01T00:00:02.000Z",
            planVersion: "p1",
          },
          events: [
            event("attempt-failed", { class: "handler-error", message: "handler threw: boom" }),
            event("retry-scheduled", { delayMs: 2000, notBefore: "2026-01-01T00:00:02.000Z", failures: 2, retryMax: 2 }),
          ],
        },
      ],
    ],
    [
      "a counted failure that uses up the attempts: no retry to wait for",
      input(failed(), { failures: 2 }),
      [
        { kind: "book-time" },
        {
          kind: "end-attempt",
          end: {
            countsAsFailure: true,
            error: { class: "handler-error", message: "handler threw: boom", attempt: 3 },
            rejected: [leftover],
            closeJournal: true,
            planVersion: "p1",
          },
          events: [event("attempt-failed", { class: "handler-error", message: "handler threw: boom" })],
        },
      ],
    ],
    [
      "a failure after the unit's loop ended closes its iterations",
      input(failed({ error: { class: "loop-exhausted", message: "max 3" }, closesLoop: true }), { unit: { id: "u", retry: { max: 0 } } }),
      [
        { kind: "book-time" },
        {
          kind: "end-attempt",
          end: {
            countsAsFailure: true,
            error: { class: "loop-exhausted", message: "max 3", attempt: 3 },
            rejected: [leftover],
            closeIterations: true,
            closeJournal: true,
            planVersion: "p1",
          },
          events: [event("attempt-failed", { class: "loop-exhausted", message: "max 3" })],
        },
      ],
    ],
    [
      "an uncounted failure: no retry backoff, the paid journal kept for the next attempt",
      input(failed({ countsAsFailure: false })),
      [
        { kind: "book-time" },
        {
          kind: "end-attempt",
          end: {
            countsAsFailure: false,
            error: { class: "handler-error", message: "handler threw: boom", attempt: 3 },
            rejected: [leftover],
            planVersion: "p1",
          },
          events: [event("attempt-failed", { class: "handler-error", message: "handler threw: boom" })],
        },
      ],
    ],
    [
      "a refused budget charge: ended uncounted and the run held with the command that lifts it",
      input({ kind: "budget", error: budget, rejected: [leftover] }),
      [
        { kind: "book-time" },
        uncounted([leftover], "attempt-blocked", { reason: "budget", budget: "model_calls" }),
        {
          kind: "hold-run",
          hold: {
            reason: "budget",
            detail: expect.stringMatching(/^u: .*taskspec budget R --cap model_calls=<n>/) as unknown as string,
            at: NOW,
            data: { unit: "u", budget: "model_calls", used: 9, cap: 10, requested: 2 },
          },
          event: event("blocked", { reason: "budget", budget: "model_calls", used: 9, cap: 10, requested: 2 }),
        },
      ],
    ],
    [
      "an effect of unknown outcome: interrupted, uncounted (recovery looks it up)",
      input({ kind: "unknown-effect", effectId: "e1", message: "m", rejected: [leftover] }),
      [{ kind: "book-time" }, uncounted([leftover], "attempt-interrupted", { reason: "unknown-effect", effect: "e1" })],
    ],
    [
      "a call held for an approval: blocked, uncounted",
      input({ kind: "approval", effectId: "e2", message: "waits for approval", rejected: [] }),
      [{ kind: "book-time" }, uncounted([], "attempt-blocked", { reason: "approval", effect: "e2", message: "waits for approval" })],
    ],
    [
      "a corrupt input: interrupted, uncounted, and its producer invalidated",
      input({ kind: "corrupt-input", producer: "p", path: "runs/R/p/a1/in", message: "hash differs", rejected: [leftover] }),
      [
        { kind: "book-time" },
        uncounted([leftover], "attempt-interrupted", { reason: "corrupt-input", path: "runs/R/p/a1/in" }),
        { kind: "invalidate-corrupt", producer: "p", path: "runs/R/p/a1/in", message: "hash differs" },
      ],
    ],
    [
      "a lost lease: the attempt is another worker's business now; only an event",
      input({ kind: "lease-lost", message: "stale token" }),
      [{ kind: "book-time" }, { kind: "append-events", events: [event("stale-attempt-discarded", { message: "stale token" })] }],
    ],
    [
      "a tool call refused under a plan the run left: discarded, uncounted",
      input({ kind: "plan-changed", error: planChanged, rejected: [leftover] }),
      [
        { kind: "book-time" },
        uncounted([leftover], "attempt-discarded", { reason: "plan-changed", held: "p1", current: "p2", at: "tool call" }),
      ],
    ],
    [
      "a lost store: interrupted, uncounted, nothing rejected",
      input({ kind: "store-lost", message: "connection reset" }),
      [{ kind: "book-time" }, uncounted([], "attempt-interrupted", { reason: "store-lost", message: "connection reset" })],
    ],
  ];
  for (const [name, given, want] of cases) it(name, () => expect(settle(given)).toEqual(want));
});

describe("settleRefused: what a store refusal turns the settlement into", () => {
  const stale: Refusal = { kind: "stale-token", message: "token 7 is stale" };
  const moved: Refusal = { kind: "plan-changed", held: "p1", current: "p2" };
  const staleSteps: SettleStep[] = [
    { kind: "log", line: "taskspec: token 7 is stale" },
    { kind: "append-events", events: [event("stale-commit-rejected", { message: "token 7 is stale" })] },
  ];
  const cases: Array<[string, SettleInput, Refusal, SettleStep[] | undefined]> = [
    [
      "a completion under another plan: its time booked alone, its artifacts and earlier files rejected, discarded uncounted",
      input(succeeded),
      moved,
      [{ kind: "book-time" }, uncounted([leftover, earlier], "attempt-discarded", { reason: "plan-changed", held: "p1", current: "p2" })],
    ],
    [
      "a completion with a stale token: its time booked alone, the refusal logged and recorded",
      input(succeeded),
      stale,
      [{ kind: "book-time" }, ...staleSteps],
    ],
    [
      "a failure under another plan: not the unit's failure under the new one; discarded with what it was",
      input(failed()),
      moved,
      [
        uncounted([leftover], "attempt-discarded", {
          reason: "plan-changed",
          held: "p1",
          current: "p2",
          class: "handler-error",
          message: "handler threw: boom",
        }),
      ],
    ],
    ["a failure with a stale token: recorded, its time was booked already", input(failed()), stale, staleSteps],
    ["a budget block with a stale token: no hold", input({ kind: "budget", error: budget, rejected: [] }), stale, staleSteps],
    [
      "a budget block refused for a plan change: not the settlement's to absorb",
      input({ kind: "budget", error: budget, rejected: [] }),
      moved,
      undefined,
    ],
    ["a lost store refused for a plan change: rethrown", input({ kind: "store-lost", message: "m" }), moved, undefined],
  ];
  for (const [name, given, refusal, want] of cases) it(name, () => expect(settleRefused(given, refusal)).toEqual(want));
});

describe("failureEnd: recovery's counted retry after an effect found absent", () => {
  it("counts the failure against the effect's attempt and schedules the retry", () => {
    const step = failureEnd(
      { unit: { id: "u", retry: { max: 1, backoff } }, attempt: 2, failures: 0, now: NOW, jitter: 0, planVersion: "p1" },
      { class: "tool-error", message: "lookup found it absent" },
      true,
      { eventData: { effect: "e1", after: "unknown-effect" } },
    );
    expect(step).toEqual({
      kind: "end-attempt",
      end: {
        countsAsFailure: true,
        error: { class: "tool-error", message: "lookup found it absent", attempt: 2 },
        rejected: [],
        notBefore: "2026-01-01T00:00:01.000Z",
        planVersion: "p1",
      },
      events: [
        {
          at: NOW,
          type: "attempt-failed",
          unit: "u",
          attempt: 2,
          data: { class: "tool-error", message: "lookup found it absent", effect: "e1", after: "unknown-effect" },
        },
        {
          at: NOW,
          type: "retry-scheduled",
          unit: "u",
          attempt: 2,
          data: { delayMs: 1000, notBefore: "2026-01-01T00:00:01.000Z", failures: 1, retryMax: 1 },
        },
      ],
    });
  });
});

describe("outcomeOfThrow: an attempt that threw instead of ending", () => {
  it("a lost store is no failure of the unit", () =>
    expect(outcomeOfThrow(new Error("connection reset"), true)).toEqual({ kind: "store-lost", message: "connection reset" }));
  it("anything else is an internal error, counted", () =>
    expect(outcomeOfThrow(new TypeError("x is undefined"), false)).toEqual({
      kind: "failed",
      error: { class: "handler-error", message: "internal: x is undefined" },
      countsAsFailure: true,
      rejected: [],
    }));
});
