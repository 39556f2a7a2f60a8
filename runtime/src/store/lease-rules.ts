/**
 * The rules of the writes an attempt makes under its lease, pure, and the
 * writes of the unit transitions (store/unit-transition.ts) in the store's
 * write vocabulary: a claim, a group commit, an attempt's end, a lease's
 * renewal, a loop iteration, a journalled paid call. Table-tested in
 * runtime/test/store-rules.test.ts.
 */
import { InvalidTransitionError } from "../errors.js";
import type { Lease, LoopIteration, PaidCall } from "../model/facts.js";
import {
  claimedLease,
  claimEvents,
  fenceRefusal,
  type ClaimDecision,
  type ClaimRequest,
  type ClaimState,
  type CommitDecision,
  type EndAttemptDecision,
} from "./unit-transition.js";
import { events, type Decided, type EventIn, type StoreWrite } from "./writes.js";

type Fence = { unit: string; token: number };
type LeaseRow = { token: number; owner: string };

/** A granted claim with its fencing token: the attempt number, the booking, the lease (replacing an expired one) and their events. */
export function claimWrites(state: ClaimState, req: ClaimRequest, d: ClaimDecision, token: number): StoreWrite[] {
  const run = state.run.run;
  return [
    ...(d.newAttempt ? [{ op: "set-attempts", unit: req.unit, attempts: d.attempt } as const] : []),
    ...(d.budgetUsed ? [{ op: "update-run", set: { budgetUsed: d.budgetUsed, updatedAt: req.now } } as const] : []),
    { op: "put-lease", lease: claimedLease(req, d, token, run) },
    events(...claimEvents(state, req, d, token)),
  ];
}

/**
 * A group commit's writes, checkpoint after checkpoint (each: its plan, its
 * unit writes, the fenced lease deleted, the checkpoint chained on the one
 * before, its events); then the loops and journals of every changed unit are
 * closed (no later attempt resumes or replays from them) and the run row
 * takes its new version. `hookAfter`: how many writes precede the test hook
 * `CommitHooks.insideTransaction` (the first checkpoint's unit writes).
 */
export function commitWrites(d: CommitDecision, changed: readonly string[]): { writes: StoreWrite[]; hookAfter: number } {
  const writes: StoreWrite[] = [];
  let hookAfter = 0;
  for (const [i, step] of d.steps.entries()) {
    if (step.plan) writes.push({ op: "insert-plan", ...step.plan });
    writes.push(...step.writes);
    if (i === 0) hookAfter = writes.length;
    if (step.deleteLease) writes.push({ op: "delete-lease", ...step.deleteLease });
    writes.push({ op: "insert-checkpoint", version: step.version, header: step.header }, events(...step.events));
  }
  const { version, planVersion, inputVersion, status, updatedAt, lastProgressAt, budgetUsed } = d.run;
  writes.push(
    { op: "close-loops", units: changed, at: updatedAt },
    {
      op: "update-run",
      set: {
        version,
        planVersion,
        inputVersion,
        status,
        updatedAt,
        ...(lastProgressAt ? { lastProgressAt } : {}),
        ...(budgetUsed ? { budgetUsed } : {}),
      },
    },
  );
  return { writes, hookAfter };
}

/** An attempt's end (or a lease's break or release): its writes, the request's events if it ended anything, the settlement's. */
export function endWrites(d: Pick<EndAttemptDecision, "writes" | "events" | "settled">, request: readonly EventIn[]): StoreWrite[] {
  return [...d.writes, ...(d.events && request.length ? [events(...request)] : []), ...(d.settled ? [events(d.settled)] : [])];
}

/** Renewing a lease: only the current one (its token), to `now + ttlMs`; the lease as renewed. */
export function decideRenewLease(
  lease: Lease | undefined,
  run: string,
  fence: Fence,
  ttlMs: number,
  now: string,
): Decided<{ lease: Lease }> {
  const stale = fenceRefusal(run, fence, lease);
  if (stale) return stale;
  const expiresAt = new Date(Date.parse(now) + ttlMs).toISOString();
  return {
    kind: "writes",
    writes: [{ op: "renew-lease", ...fence, expiresAt, renewedAt: now }],
    lease: { ...lease!, expiresAt, renewedAt: now },
  };
}

/**
 * A loop iteration committed under the current lease; its files are recorded
 * as `rejected` (a later commit of the unit may make them its output). The
 * same iteration of the unit's open loop twice is refused.
 */
export function decideCommitIteration(
  lease: LeaseRow | undefined,
  it: Omit<LoopIteration, "closedAt">,
  fence: Fence,
  event: EventIn,
): Decided {
  const stale = fenceRefusal(it.run, fence, lease);
  if (stale) return stale;
  const committed = new InvalidTransitionError(`iteration ${it.iteration} of ${it.unit}'s loop is already committed in run ${it.run}`);
  return {
    kind: "writes",
    writes: [
      { op: "insert-iteration", iteration: it, committed },
      { op: "insert-artifacts", artifacts: it.artifacts, status: "rejected", record: null },
      events(event),
    ],
  };
}

/** A paid call journalled under the current lease. */
export function decideJournalPaidCall(lease: LeaseRow | undefined, call: Omit<PaidCall, "closedAt">, fence: Fence): Decided {
  const stale = fenceRefusal(call.run, fence, lease);
  if (stale) return stale;
  return { kind: "writes", writes: [{ op: "insert-paid-call", call }] };
}
