/**
 * The worker's order of actions as data: from a decision (decide.ts) and
 * what this worker holds in memory (its attempts in flight, the effects it
 * already looked up, whether it was told to stop) to the one thing it does
 * next. Pure, no clock (`nowMs` is an argument), table-tested in
 * runtime/test/next-step.test.ts; `Worker.loop()` (engine/worker.ts) only
 * executes the step and decides again.
 *
 * The order, each taken only when everything before it has nothing to do:
 * stop for a reload when the run moved to another plan version; finish a run that is no longer active (or a stopped worker with nothing in
 * flight); break dead leases; reconcile open effects; lift a budget hold the
 * caps now cover; stop at a run-level hold; fail the exhausted units; verify
 * `task.done` when every unit succeeded; claim ready units; then wait (for
 * this worker's attempts, other workers' leases, or the soonest retry
 * backoff); fail a run that has failed units and nothing left to run; block.
 */
import { MAX_TIMER_MS } from "@taskspec/compiler";
import type { EffectRecord, Lease, RunRow, UnitStateRow } from "../model/facts.js";
import type { BlockedReason, Decision } from "./decide.js";

export interface StepInput {
  decision: Decision;
  run: Pick<RunRow, "status" | "hold" | "caps" | "budgetUsed" | "planVersion">;
  /** The plan version this worker holds (a run that moved to another one is reloaded, never worked under the old). */
  planVersion: string;
  units: ReadonlyArray<Pick<UnitStateRow, "unit" | "state">>;
  /** Units whose attempts run in this worker now. */
  inflight: ReadonlySet<string>;
  /** Most attempts this worker runs at once. */
  concurrency: number;
  /** The worker was told to stop: claim nothing new, let in-flight attempts settle. */
  stopping: boolean;
  /** Open effects this worker already looked up (each at most once per worker run: a failed lookup blocks, it does not spin). */
  reconciled: ReadonlySet<string>;
  nowMs: number;
  /**
   * Set when the `claim` step of this decision was just executed: how many
   * units it started (a claim or an early cutoff) and whether it lost a race
   * (another worker got there first, or the run moved on).
   */
  claimed?: { started: number; raced: boolean };
}

/** Waits on another worker's lease poll at least this often, and at most this rarely. */
export const LEASE_POLL_MS = { min: 50, max: 500 } as const;

export type Step =
  /**
   * The run moved to another plan version: let what is in flight settle (its
   * commits are refused and discarded), then stop for a reload (`settle: false`).
   */
  | { kind: "plan-changed"; settle: boolean; planVersion: string }
  /** The run is not active (done, failed, cancelled), or the worker stops with nothing in flight: return. */
  | { kind: "finish"; status: RunRow["status"] }
  /** Leases past expiry or of a dead owner, not this worker's own attempts: break them (the attempts ended). */
  | { kind: "break-leases"; leases: Lease[] }
  /** Open effects with no live lease over them, not looked up yet by this worker: reconcile them. */
  | { kind: "reconcile"; effects: EffectRecord[] }
  /** The run's budget hold no longer applies (the caps were raised): lift it. */
  | { kind: "lift-budget-hold" }
  /** A run-level hold and nothing in flight: return blocked with its reason. */
  | { kind: "stop-at-hold" }
  /** Units that used up their attempts: commit them failed. */
  | { kind: "fail-exhausted"; units: string[] }
  /** Every unit succeeded: verify `task.done` on the final artifacts. */
  | { kind: "verify-done" }
  /** Try these ready units in order (early cutoff, else a claim), while a slot is free. */
  | { kind: "claim"; units: string[] }
  /** The claim step changed the facts (a cutoff committed, a race lost): decide again at once. */
  | { kind: "decide-again" }
  /**
   * Sleep: until one of this worker's attempts ends (`attempts`; with a free
   * slot, at most `ms`, the soonest retry), or `ms` (other workers' leases,
   * retry backoff); a stop wakes any timed wait.
   */
  | { kind: "wait"; on: "attempts"; ms?: number }
  | { kind: "wait"; on: "others"; ms: number }
  /** Nothing can run and some unit failed: the run failed. */
  | { kind: "fail-run"; units: string[] }
  /** Nothing can run, nothing runs: blocked with these reasons (gates waiting get resume tokens). */
  | { kind: "block"; blocked: BlockedReason[] };

export function nextStep(input: StepInput): Step {
  const { decision: d, run, inflight } = input;
  if (run.planVersion !== input.planVersion) return { kind: "plan-changed", settle: inflight.size > 0, planVersion: run.planVersion };
  if (run.status !== "active") return { kind: "finish", status: run.status };
  if (input.stopping && inflight.size === 0) return { kind: "finish", status: run.status };

  const leases = d.breakableLeases.filter((l) => !inflight.has(l.unit));
  if (leases.length) return { kind: "break-leases", leases };
  const effects = d.toReconcile.filter((e) => !inflight.has(e.unit) && !input.reconciled.has(e.id));
  if (effects.length) return { kind: "reconcile", effects };
  if (run.hold?.reason === "budget" && budgetHoldLifted(run)) return { kind: "lift-budget-hold" };
  if (run.hold && inflight.size === 0) return { kind: "stop-at-hold" };
  if (d.exhausted.length) return { kind: "fail-exhausted", units: d.exhausted };
  if (d.allSucceeded && inflight.size === 0 && !run.hold) return { kind: "verify-done" };

  if (!input.claimed) {
    const units = input.stopping || inflight.size >= input.concurrency ? [] : d.ready.filter((u) => !inflight.has(u));
    if (units.length) return { kind: "claim", units };
  }
  const { started, raced } = input.claimed ?? { started: 0, raced: false };
  if (started > 0 && inflight.size === 0) return { kind: "decide-again" };
  if (inflight.size > 0) {
    // A slot left free wakes at the soonest retry, not only when an attempt ends.
    const retry = inflight.size < input.concurrency ? untilSoonestRetry(d, input.nowMs) : undefined;
    return retry === undefined ? { kind: "wait", on: "attempts" } : { kind: "wait", on: "attempts", ms: retry };
  }
  if (raced) return { kind: "decide-again" };
  if (d.running.length > 0 || d.backingOff.length > 0) {
    // Units under another worker's live lease: poll for them (or their expiry). Units waiting out their
    // retry backoff: sleep until the soonest may start (never block or exit for it).
    const lease = d.running.length
      ? Math.max(LEASE_POLL_MS.min, Math.min(LEASE_POLL_MS.max, Math.min(...d.running.map((l) => Date.parse(l.expiresAt))) - input.nowMs))
      : Infinity;
    return { kind: "wait", on: "others", ms: Math.min(lease, untilSoonestRetry(d, input.nowMs) ?? Infinity) };
  }
  const failed = input.units.filter((u) => u.state === "failed").map((u) => u.unit);
  if (failed.length && d.ready.length === 0) return { kind: "fail-run", units: failed };
  return {
    kind: "block",
    blocked: d.blocked.length ? d.blocked : [{ reason: "no-safe-action", detail: "no unit is ready and none is running" }],
  };
}

/** Milliseconds until the soonest unit waiting out its retry backoff may start (undefined: none waits). */
export function untilSoonestRetry(d: Pick<Decision, "backingOff">, nowMs: number): number | undefined {
  const soonest = d.backingOff[0];
  if (!soonest) return undefined;
  // at least 1 ms (a timer rounded down must not spin), at most what Node's timers honour
  return Math.min(Math.max(1, Date.parse(soonest.notBefore) - nowMs), MAX_TIMER_MS);
}

/** A budget hold is lifted once the caps cover the charge it refused. */
export function budgetHoldLifted(run: Pick<RunRow, "hold" | "caps" | "budgetUsed">): boolean {
  const data = run.hold?.data ?? {};
  const budget = String(data.budget ?? "");
  const cap = run.caps[budget as keyof RunRow["caps"]];
  return cap === undefined || (run.budgetUsed[budget as keyof RunRow["budgetUsed"]] ?? 0) + Number(data.requested ?? 0) <= cap;
}
