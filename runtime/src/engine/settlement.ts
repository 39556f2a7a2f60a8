/**
 * An attempt's settlement as data: from how the attempt ended
 * (attempt-outcome.ts) to the writes that record it, in order, and what
 * those writes become when the store refuses them (the run moved to another
 * plan, the attempt's fencing token is stale). Pure: the clock reading and
 * the retry jitter are arguments. Table-tested in
 * runtime/test/settlement.test.ts; engine/attempt-runner.ts carries the
 * steps out.
 */
import type { PlanUnit } from "@taskspec/compiler";
import type { CrashPoint } from "../faults/crash-points.js";
import type { ErrorClass, Hold, NextAction, RunEvent } from "../model/facts.js";
import { retryNotBefore } from "../scheduler/backoff.js";
import type { CheckpointCommit, Store } from "../store/types.js";
import type { AttemptOutcome } from "./attempt-outcome.js";
import { endsReplay } from "./paid-replay.js";

export type RunEventDraft = Omit<RunEvent, "run" | "seq">;
/** What `Store.endAttempt` records of an attempt that ended without completing. */
export type AttemptEnd = Parameters<Store["endAttempt"]>[3];

/** An attempt's wall-clock time and the event that records its booking. */
export interface AttemptTime {
  amounts: { wall_clock_ms: number };
  event: RunEventDraft;
}

export type SettleStep =
  /** Book the attempt's time on its own (every end but a committed result, which books it in its own transaction). */
  | { kind: "book-time" }
  /** A named crash point of the fault drills (faults/crash-points.ts). */
  | { kind: "crash-point"; point: CrashPoint }
  /** The unit's completion, through the group commit. */
  | { kind: "commit"; commit: CheckpointCommit }
  /** End the attempt without a completion (counted or not), releasing its lease. */
  | { kind: "end-attempt"; end: AttemptEnd; events: RunEventDraft[] }
  /** Hold the run (a refused budget charge). */
  | { kind: "hold-run"; hold: Hold; event: RunEventDraft }
  | { kind: "append-events"; events: RunEventDraft[] }
  /** An input artifact read corrupt: its producer and everything downstream run again. */
  | { kind: "invalidate-corrupt"; producer: string; path: string; message: string }
  | { kind: "log"; line: string };

export interface SettleInput {
  run: string;
  unit: Pick<PlanUnit, "id" | "retry">;
  attempt: number;
  token: number;
  /** The plan the attempt ran under. */
  planVersion: string;
  outcome: AttemptOutcome;
  time: AttemptTime;
  /** The unit's counted failures before this attempt. */
  failures: number;
  now: string;
  /** A draw in [0, 1) for the retry backoff's jitter. */
  jitter: number;
  /** Approvals current at the worker's last decision, and the next action it saw: recorded with a completion. */
  approvals: string[];
  nextAction: NextAction;
}

/** How the store refused a settlement write. */
export type Refusal = { kind: "plan-changed"; held: string; current: string } | { kind: "stale-token"; message: string };

const eventOf =
  (input: Pick<SettleInput, "now" | "unit" | "attempt">) =>
  (type: string, data: Record<string, unknown> = {}): RunEventDraft => ({
    at: input.now,
    type,
    unit: input.unit.id,
    attempt: input.attempt,
    data,
  });

/** The steps that record `input.outcome`, in order. */
export function settle(input: SettleInput): SettleStep[] {
  const { outcome, unit, run } = input;
  const e = eventOf(input);
  const uncounted = (rejected: AttemptEnd["rejected"], event: RunEventDraft): SettleStep => ({
    kind: "end-attempt",
    end: { countsAsFailure: false, rejected },
    events: [event],
  });
  // a result is committed with its time in one transaction; any other end books it on its own first
  const steps: SettleStep[] = outcome.kind === "succeeded" ? [] : [{ kind: "book-time" }];
  switch (outcome.kind) {
    case "succeeded":
      return [
        { kind: "crash-point", point: "after-artifact-before-commit" },
        {
          kind: "commit",
          commit: {
            kind: "unit",
            fence: { unit: unit.id, token: input.token },
            planVersion: input.planVersion,
            changes: [outcome.change],
            charge: input.time.amounts,
            approvals: input.approvals,
            nextAction: input.nextAction,
            events: [
              input.time.event,
              e("verified", { results: outcome.verifierResults.map((v) => ({ name: v.name, passed: v.passed })) }),
              e("unit-succeeded", { artifacts: outcome.change.artifacts.map((a) => ({ name: a.name, sha256: a.sha256 })) }),
            ],
            now: input.now,
          },
        },
        { kind: "crash-point", point: "after-commit-before-ack" },
      ];
    case "failed":
      return [
        ...steps,
        failureEnd(input, outcome.error, outcome.countsAsFailure, {
          closesLoop: outcome.closesLoop === true,
          // a verdict: the unit's next attempt makes its paid calls afresh (paid-replay.ts)
          closesJournal: endsReplay(outcome.kind, outcome.countsAsFailure),
          rejected: outcome.rejected,
        }),
      ];
    case "budget": {
      const b = outcome.error;
      return [
        ...steps,
        uncounted(outcome.rejected, e("attempt-blocked", { reason: "budget", budget: b.budget })),
        {
          kind: "hold-run",
          hold: {
            reason: "budget",
            detail: `${unit.id}: ${b.message}; raise the cap (\`taskspec budget ${run} --cap ${b.budget}=<n> --reason "..."\`) to continue`,
            at: input.now,
            data: { unit: unit.id, budget: b.budget, used: b.used, cap: b.cap, requested: b.requested },
          },
          event: e("blocked", { reason: "budget", budget: b.budget, used: b.used, cap: b.cap, requested: b.requested }),
        },
      ];
    }
    case "unknown-effect":
      return [...steps, uncounted(outcome.rejected, e("attempt-interrupted", { reason: "unknown-effect", effect: outcome.effectId }))];
    case "approval":
      // the call is prepared and waits for a person: not a failure, no retry counted; the gate blocks the run
      return [
        ...steps,
        uncounted(outcome.rejected, e("attempt-blocked", { reason: "approval", effect: outcome.effectId, message: outcome.message })),
      ];
    case "corrupt-input":
      return [
        ...steps,
        uncounted(outcome.rejected, e("attempt-interrupted", { reason: "corrupt-input", path: outcome.path })),
        { kind: "invalidate-corrupt", producer: outcome.producer, path: outcome.path, message: outcome.message },
      ];
    case "lease-lost":
      return [...steps, { kind: "append-events", events: [e("stale-attempt-discarded", { message: outcome.message })] }];
    case "plan-changed":
      // a tool call of the old plan was refused before it started: nothing was sent, nothing of it counts
      return [
        ...steps,
        uncounted(
          outcome.rejected,
          e("attempt-discarded", { reason: "plan-changed", held: outcome.error.held, current: outcome.error.current, at: "tool call" }),
        ),
      ];
    case "store-lost":
      // Ended uncounted once the store answers again (an outage makes this throw: the worker backs off and the
      // lease runs out instead); an effect the attempt left STARTED is looked up or retried by the next claim.
      return [...steps, uncounted([], e("attempt-interrupted", { reason: "store-lost", message: outcome.message }))];
  }
}

/**
 * What a settlement becomes when the store refuses one of its writes: the
 * steps that replace the rest of it, or undefined when the refusal is no
 * settlement's to absorb (the caller rethrows it).
 */
export function settleRefused(input: SettleInput, refusal: Refusal): SettleStep[] | undefined {
  const { outcome } = input;
  const e = eventOf(input);
  // a refused commit booked nothing: the attempt's time is booked on its own
  const steps: SettleStep[] = outcome.kind === "succeeded" ? [{ kind: "book-time" }] : [];
  if (refusal.kind === "stale-token")
    return [
      ...steps,
      { kind: "log", line: `taskspec: ${refusal.message}` },
      { kind: "append-events", events: [e("stale-commit-rejected", { message: refusal.message })] },
    ];
  // Judged by the old plan only: never current under the new one, and not the unit's failure under it either.
  if (outcome.kind === "succeeded" || outcome.kind === "failed") {
    const rejected = outcome.kind === "succeeded" ? [...outcome.change.artifacts, ...(outcome.change.rejected ?? [])] : outcome.rejected;
    const failure = outcome.kind === "failed" ? { class: outcome.error.class, message: outcome.error.message } : {};
    return [
      ...steps,
      {
        kind: "end-attempt",
        end: { countsAsFailure: false, rejected },
        events: [e("attempt-discarded", { reason: "plan-changed", held: refusal.held, current: refusal.current, ...failure })],
      },
    ];
  }
  return undefined;
}

/**
 * A failed attempt's end: counted, it brings the unit's failures up by one
 * and, with attempts left, waits out the unit's retry backoff (recorded with
 * its delay). Also what recovery writes when an effect of unknown outcome
 * proves absent (engine/recovery.ts).
 */
export function failureEnd(
  input: Pick<SettleInput, "unit" | "attempt" | "failures" | "now" | "jitter" | "planVersion">,
  error: { class: ErrorClass; message: string },
  countsAsFailure: boolean,
  more: { closesLoop?: boolean; closesJournal?: boolean; rejected?: AttemptEnd["rejected"]; eventData?: Record<string, unknown> } = {},
): Extract<SettleStep, { kind: "end-attempt" }> {
  const { unit, attempt } = input;
  const e = eventOf(input);
  const failures = input.failures + 1;
  const retry = countsAsFailure ? retryNotBefore(unit, failures, input.now, input.jitter) : undefined;
  return {
    kind: "end-attempt",
    end: {
      countsAsFailure,
      error: { ...error, attempt },
      rejected: more.rejected ?? [],
      ...(more.closesLoop ? { closeIterations: true } : {}),
      ...(more.closesJournal ? { closeJournal: true } : {}),
      ...(retry ? { notBefore: retry.notBefore } : {}),
      planVersion: input.planVersion,
    },
    events: [
      e("attempt-failed", { class: error.class, message: error.message, ...more.eventData }),
      ...(retry ? [e("retry-scheduled", { delayMs: retry.delayMs, notBefore: retry.notBefore, failures, retryMax: unit.retry.max })] : []),
    ],
  };
}

/** An attempt that threw instead of ending with an outcome: a lost store is no failure of the unit, anything else is a bug counted as one. */
export function outcomeOfThrow(err: unknown, storeUnavailable: boolean): AttemptOutcome {
  const message = err instanceof Error ? err.message : String(err);
  if (storeUnavailable) return { kind: "store-lost", message };
  return { kind: "failed", error: { class: "handler-error", message: `internal: ${message}` }, countsAsFailure: true, rejected: [] };
}
