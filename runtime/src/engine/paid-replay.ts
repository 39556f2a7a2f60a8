/**
 * Paid calls are not paid twice. Every model call and charge an attempt makes
 * goes into the unit's journal (store: `paid_calls`) before the request leaves
 * (`started`), and its answer before the handler sees it (`answered`). While
 * the unit's attempts end without a verdict (a worker killed, a lost store or
 * lease, a gate holding the prepared request, a budget block), the journal
 * stays open and the next attempt is handed back the earlier answers instead
 * of calling again, in order, as long as each request is exactly the one
 * recorded (its canonical hash); the first request that differs ends the
 * replay and every later call of that attempt is made afresh. A verdict
 * (succeeded, or a counted failure: verifiers, a handler error, a timeout, a
 * guard) closes the journal: the next attempt calls afresh. Pure functions;
 * attempt.ts journals the calls and the worker closes the journal.
 */
import { canonicalJson, sha256 } from "../model/identity.js";
import type { PaidCall, PaidCallKind } from "../model/facts.js";
import type { AttemptOutcome } from "./attempt-outcome.js";

export type { PaidCall, PaidCallKind } from "../model/facts.js";

/** The hash a paid call is matched by: its kind and its canonical request. */
export function paidCallHash(kind: PaidCallKind, request: unknown): string {
  return sha256(canonicalJson({ kind, request: request ?? null }));
}

/** An answer the next attempt may be handed back. */
export interface ReplayEntry {
  kind: PaidCallKind;
  /** The loop iteration it was made in (1 outside loops). */
  iteration: number;
  requestHash: string;
  reply: unknown;
  /** The attempt that paid for it. */
  attempt: number;
  seq: number;
}

/**
 * What a new attempt replays, from the open journal of its unit's earlier
 * attempts: attempt by attempt, in order, the sequence the handler saw. An
 * attempt's rows are a replayed prefix (p rows) then fresh calls; fresh calls
 * replace what followed that prefix (the handler went another way, or further),
 * up to the first call whose answer is not replayable (never answered: it was
 * paid and is not known; failed; not storable). An attempt that made no fresh
 * call leaves the sequence as it was.
 */
export function replaySequence(rows: readonly PaidCall[], beforeAttempt: number): ReplayEntry[] {
  const byAttempt = new Map<number, PaidCall[]>();
  for (const r of rows) {
    if (r.attempt >= beforeAttempt || r.closedAt !== undefined) continue;
    const list = byAttempt.get(r.attempt) ?? [];
    list.push(r);
    byAttempt.set(r.attempt, list);
  }
  let sequence: ReplayEntry[] = [];
  for (const attempt of [...byAttempt.keys()].sort((a, b) => a - b)) {
    const calls = byAttempt.get(attempt)!.sort((a, b) => a.seq - b.seq);
    let p = 0;
    while (p < calls.length && calls[p]!.state === "replayed" && calls[p]!.seq === p) p++;
    const fresh = calls.slice(p);
    if (fresh.length === 0) continue;
    const kept = sequence.slice(0, Math.min(p, sequence.length));
    for (const [i, c] of fresh.entries()) {
      if (c.seq !== p + i || c.state !== "answered" || c.replayable === false) break;
      kept.push({
        kind: c.kind,
        iteration: c.iteration,
        requestHash: c.requestHash,
        reply: c.reply ?? null,
        attempt: c.attempt,
        seq: c.seq,
      });
    }
    sequence = kept;
  }
  return sequence;
}

/** Where an attempt is in its replay: the next position, or over (a request differed, or nothing was left). */
export interface ReplayCursor {
  next: number;
  over: boolean;
}

export type CallDecision =
  | { kind: "replay"; entry: ReplayEntry; cursor: ReplayCursor }
  /** `ended`: this call ended the replay (it differs from the recorded one, or the recorded ones ran out). */
  | { kind: "fresh"; cursor: ReplayCursor; ended?: "differs" | "exhausted" };

/**
 * The next paid call of an attempt (made in loop iteration `iteration`):
 * handed back when it is exactly the next recorded request of the same
 * iteration, else made. Recorded calls of earlier iterations are passed over:
 * a loop's committed iterations are answered from the store and not run again,
 * so their calls are not made again either.
 */
export function nextPaidCall(
  sequence: readonly ReplayEntry[],
  cursor: ReplayCursor,
  kind: PaidCallKind,
  requestHash: string,
  iteration = 1,
): CallDecision {
  if (cursor.over) return { kind: "fresh", cursor };
  let next = cursor.next;
  while (sequence[next] && sequence[next]!.iteration < iteration) next++;
  const entry = sequence[next];
  if (!entry) return { kind: "fresh", cursor: { next, over: true }, ...(sequence.length ? { ended: "exhausted" } : {}) };
  if (entry.kind === kind && entry.requestHash === requestHash && entry.iteration === iteration)
    return { kind: "replay", entry, cursor: { next: next + 1, over: false } };
  return { kind: "fresh", cursor: { next, over: true }, ended: "differs" };
}

/**
 * Does this outcome of an attempt end its unit's replay (close the journal)?
 * A verdict does: the unit succeeded, or failed in a way that counts (its
 * verifiers, its handler, a timeout, a guard): the next attempt must not see
 * the same answers again. An attempt that ended without a verdict keeps the
 * journal open: held at a gate after preparing its request, blocked on the
 * budget, stopped at an effect of unknown outcome or a corrupt input, its
 * lease or the store lost, its plan changed (a request rendered differently
 * under the new plan is not replayed: it differs). A killed worker never
 * reaches this: its journal stays open.
 */
export function endsReplay(outcome: AttemptOutcome["kind"], countsAsFailure = true): boolean {
  switch (outcome) {
    case "succeeded":
      return true;
    case "failed":
      return countsAsFailure;
    case "budget":
    case "unknown-effect":
    case "corrupt-input":
    case "approval":
    case "lease-lost":
    case "plan-changed":
    case "store-lost":
      return false;
  }
}
