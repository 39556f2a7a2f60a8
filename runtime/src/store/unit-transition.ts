/**
 * The unit transitions of the stores, pure: a checkpoint commit
 * (`decideCommit`), a claim (`decideClaim`), an attempt's end
 * (`decideEndAttempt`), a lease's break or release. Each backend reads the
 * rows a request touches inside its transaction (the run row, the leases of
 * fenced units, the unit rows), asks the rule, and executes the answer (as
 * writes of store/writes.ts, via store/lease-rules.ts) or throws its refusal.
 * No SQL, no clock, no I/O here, so the rules are table-tested
 * (runtime/test/unit-transition.test.ts) and mean the same on every backend.
 * The other rules of the stores are listed in store/rules.ts.
 */
import {
  BudgetBlockedError,
  InvalidTransitionError,
  LeaseHeldError,
  PlanVersionChangedError,
  StaleFencingTokenError,
  VersionConflictError,
  type RuntimeError,
} from "../errors.js";
import { budgetShortfall } from "../model/budget.js";
import type {
  BudgetAmounts,
  CheckpointHeader,
  ErrorClass,
  Hold,
  Lease,
  RunEvent,
  RunStatus,
  SupersededInfo,
  UnitStateRow,
} from "../model/facts.js";
import { recordContentDigest } from "../model/checkpoint-digest.js";
import { withSpend } from "./budget-charge.js";
import { settleBooking, type LeaseEnd, type Settlement } from "./booking.js";
import { checkpointFields, commitEvents } from "./commit-shape.js";
import type { CheckpointCommit, Store, UnitChange } from "./types.js";

type EventIn = Omit<RunEvent, "run" | "seq">;
type Manifest = Extract<UnitChange, { kind: "complete" }>["artifacts"][number];

/** A unit record: one that exists (its id), or the k-th record this decision inserts (ids are the backend's). */
export type RecordRef = number | { inserted: number };

/** One write to the unit tables, in the order the backend executes them. */
export type UnitWrite =
  /** A new current record of a completed attempt (committed in checkpoint `version` under `planVersion`). */
  | {
      op: "insert-record";
      unit: string;
      attempt: number;
      planVersion: string;
      result: unknown;
      sources: unknown;
      version: number;
      now: string;
    }
  | { op: "mark-record"; record: RecordRef; status: "current" | "superseded"; reason: string | null }
  | { op: "insert-artifacts"; artifacts: Manifest[]; status: "committed" | "rejected"; record: RecordRef | null }
  /** The unit row's committed state (its hold is cleared). */
  | {
      op: "set-unit";
      unit: string;
      state: UnitStateRow["state"];
      currentRecord: RecordRef | null;
      supersededRecord: RecordRef | null;
      superseded: SupersededInfo | null;
      lastError: UnitStateRow["lastError"] | null;
      failures: number;
      version: number;
    }
  | { op: "insert-unit"; unit: string; version: number }
  | { op: "delete-unit"; unit: string };

export type DeltaEntry = Omit<CheckpointHeader["delta"][number], "record"> & { record?: RecordRef };

export type Refusal = {
  kind: "refused";
  reason:
    | "version-conflict"
    | "stale-fence"
    | "plan-changed"
    | "run-not-active"
    | "run-flagged"
    | "no-unit"
    | "not-claimable"
    | "lease-held"
    | "nothing-to-restore"
    | "over-budget";
  /** What the store method throws. */
  error: RuntimeError;
};

const refuse = (reason: Refusal["reason"], error: RuntimeError): Refusal => ({ kind: "refused", reason, error });

/** The effect of one unit change: its writes and its entry in the checkpoint's delta. */
export interface UnitTransition {
  kind: "transition";
  writes: UnitWrite[];
  delta: DeltaEntry;
  /** The unit row as it is after the writes (undefined: deleted). */
  after: UnitStateRow | undefined;
}

/** Where a change happens: the checkpoint version it commits in, the plan version it commits under. */
export interface TransitionContext {
  run: string;
  version: number;
  planVersion: string;
  now: string;
}

/**
 * One unit change (commit, fail, supersede, remove, restore, reset) against
 * the unit's row as it is; `inserted` counts the records this decision has
 * inserted before (a new record is `{ inserted: inserted }`).
 */
export function unitTransition(
  row: UnitStateRow | undefined,
  ch: UnitChange,
  at: TransitionContext,
  inserted = 0,
): UnitTransition | Refusal {
  if (!row && ch.kind !== "reset") return refuse("no-unit", new InvalidTransitionError(`run ${at.run} has no unit ${ch.unit}`));
  const set = (
    r: UnitStateRow,
    state: UnitStateRow["state"],
    s: Pick<Extract<UnitWrite, { op: "set-unit" }>, "currentRecord" | "supersededRecord" | "superseded" | "lastError" | "failures">,
  ): { write: UnitWrite; after: UnitStateRow } => ({
    write: { op: "set-unit", unit: ch.unit, state, ...s, version: at.version },
    after: afterRow(r, state, s, at.version),
  });
  // a commit and a restore end alike: `rec` is the current record, nothing superseded, no error, failures kept
  const succeededWith = (r: UnitStateRow, rec: RecordRef) =>
    set(r, "succeeded", { currentRecord: rec, supersededRecord: null, superseded: null, lastError: null, failures: r.failures });
  switch (ch.kind) {
    case "complete": {
      const r = row!;
      const rec: RecordRef = { inserted };
      const writes: UnitWrite[] = [
        {
          op: "insert-record",
          unit: ch.unit,
          attempt: ch.attempt,
          planVersion: at.planVersion,
          result: ch.result,
          sources: ch.sources,
          version: at.version,
          now: at.now,
        },
      ];
      if (r.currentRecord !== undefined)
        writes.push({ op: "mark-record", record: r.currentRecord, status: "superseded", reason: "replaced by a newer attempt" });
      writes.push({ op: "insert-artifacts", artifacts: ch.artifacts, status: "committed", record: rec });
      if (ch.rejected?.length) writes.push({ op: "insert-artifacts", artifacts: ch.rejected, status: "rejected", record: null });
      const s = succeededWith(r, rec);
      return {
        kind: "transition",
        writes: [...writes, s.write],
        delta: { unit: ch.unit, state: "succeeded", record: rec, attempt: ch.attempt, content: recordContentDigest(ch.result, ch.sources) },
        after: s.after,
      };
    }
    case "fail": {
      const r = row!;
      const s = set(r, "failed", {
        currentRecord: r.currentRecord ?? null,
        supersededRecord: r.supersededRecord ?? null,
        superseded: r.superseded ?? null,
        lastError: { ...ch.error, attempt: ch.attempt },
        failures: r.failures,
      });
      return { kind: "transition", writes: [s.write], delta: { unit: ch.unit, state: "failed", attempt: ch.attempt }, after: s.after };
    }
    case "supersede":
    case "remove": {
      const r = row!;
      const writes: UnitWrite[] = [];
      if (r.currentRecord !== undefined)
        writes.push({ op: "mark-record", record: r.currentRecord, status: "superseded", reason: ch.info.path });
      const s = set(r, "superseded", {
        currentRecord: null,
        supersededRecord: r.currentRecord ?? r.supersededRecord ?? null,
        superseded: ch.info,
        lastError: null,
        failures: 0,
      });
      writes.push(s.write);
      if (ch.kind === "remove") writes.push({ op: "delete-unit", unit: ch.unit });
      return {
        kind: "transition",
        writes,
        delta: { unit: ch.unit, state: "superseded" },
        after: ch.kind === "remove" ? undefined : s.after,
      };
    }
    case "restore": {
      const r = row!;
      const rec = r.supersededRecord;
      if (rec === undefined)
        return refuse("nothing-to-restore", new InvalidTransitionError(`unit ${ch.unit} has no superseded record to restore`));
      const s = succeededWith(r, rec);
      return {
        kind: "transition",
        writes: [{ op: "mark-record", record: rec, status: "current", reason: null }, s.write],
        delta: { unit: ch.unit, state: "succeeded", record: rec },
        after: s.after,
      };
    }
    case "reset": {
      if (!row)
        return {
          kind: "transition",
          writes: [{ op: "insert-unit", unit: ch.unit, version: at.version }],
          delta: { unit: ch.unit, state: "pending" },
          after: { unit: ch.unit, state: "pending", attempts: 0, failures: 0, version: at.version },
        };
      const writes: UnitWrite[] = [];
      if (row.currentRecord !== undefined)
        writes.push({ op: "mark-record", record: row.currentRecord, status: "superseded", reason: "re-run requested" });
      const s = set(row, "pending", {
        currentRecord: null,
        supersededRecord: row.currentRecord ?? row.supersededRecord ?? null,
        superseded: null,
        lastError: null,
        failures: 0,
      });
      writes.push(s.write);
      return { kind: "transition", writes, delta: { unit: ch.unit, state: "pending" }, after: s.after };
    }
  }
}

/** The row after a set-unit write; symbolic record refs stay symbolic (only later writes of this decision read them). */
function afterRow(
  r: UnitStateRow,
  state: UnitStateRow["state"],
  s: Pick<Extract<UnitWrite, { op: "set-unit" }>, "currentRecord" | "supersededRecord" | "superseded" | "lastError" | "failures">,
  version: number,
): UnitStateRow {
  const out: UnitStateRow = { unit: r.unit, state, attempts: r.attempts, failures: s.failures, version };
  if (s.currentRecord !== null) out.currentRecord = s.currentRecord as number;
  if (s.supersededRecord !== null) out.supersededRecord = s.supersededRecord as number;
  if (s.superseded) out.superseded = s.superseded;
  if (s.lastError) out.lastError = s.lastError;
  return out;
}

/**
 * The plan guard: a claim or commit made under plan `held` is accepted only
 * while the run is under that plan (absent: the caller states no plan, as an
 * operator's decision that applies whatever the plan).
 */
export function planRefusal(run: string, held: string | undefined, current: string): Refusal | undefined {
  if (held === undefined || held === current) return undefined;
  return refuse("plan-changed", new PlanVersionChangedError(run, held, current));
}

/** Ending an attempt: a failure is counted only under the run's plan (an uncounted end is accepted under any). */
export function endAttemptRefusal(
  run: { run: string; planVersion: string },
  outcome: { countsAsFailure: boolean; planVersion?: string },
): Refusal | undefined {
  return outcome.countsAsFailure ? planRefusal(run.run, outcome.planVersion, run.planVersion) : undefined;
}

type AttemptError = { class: ErrorClass; message: string; attempt: number };

/** One write of an attempt that ended without a commit, in the order the backend executes them. */
export type AttemptWrite =
  /**
   * The unit row's failure bookkeeping (its state and records stay): `lastError`
   * null keeps the stored one; `notBefore` absent keeps it, null clears it.
   */
  | { op: "set-failures"; unit: string; failures: number; lastError: AttemptError | null; notBefore?: string | null }
  | Extract<UnitWrite, { op: "insert-artifacts" }>
  /** Closes the unit's open loop iterations at `at`. */
  | { op: "close-iterations"; unit: string; at: string }
  /** Closes the unit's open journal of paid calls at `at`: its next attempt calls afresh. */
  | { op: "close-journal"; unit: string; at: string }
  | { op: "delete-lease"; unit: string; token: number }
  /** The run's used budgets after the lease's booking is settled (store/booking.ts). */
  | { op: "set-budget-used"; used: BudgetAmounts };

/** A lease as an attempt's end reads it: its fence, and for the settlement its attempt and undrawn booking. */
export interface EndingLease {
  token: number;
  owner: string;
  attempt?: number;
  reserved?: BudgetAmounts;
}

/** What ending an attempt reads: the run's plan, the lease on the unit, the unit's row (absent: a plan change removed it). */
export interface EndAttemptState {
  /** `budgetUsed` and `version`: read when the lease holds an undrawn booking (it is settled). */
  run: { run: string; planVersion: string; budgetUsed?: BudgetAmounts; version?: number };
  lease: EndingLease | undefined;
  unit: { failures: number } | undefined;
}

export interface EndAttemptDecision {
  kind: "end-attempt";
  writes: AttemptWrite[];
  /** Whether the request's events are appended (a lease already gone is a no-op). */
  events: boolean;
  /** The `budget-settled` event of the lease's booking, appended after the request's events. */
  settled?: Omit<RunEvent, "run" | "seq">;
}

/** Whether a lease's end must read the run's used budgets: it holds an undrawn booking. */
export function holdsBooking(lease: { reserved?: BudgetAmounts } | undefined): boolean {
  return Object.values(lease?.reserved ?? {}).some((n) => (n ?? 0) > 0);
}

/**
 * The settlement of the lease `token` of `unit` when it ends, as writes (the
 * used budgets, before the lease's deletion) and its event; nothing when the
 * lease is not that one or holds no undrawn booking.
 */
function settleLease(
  run: { budgetUsed?: BudgetAmounts; version?: number },
  unit: string,
  lease: EndingLease | undefined,
  token: number,
  end: { at: string; why: LeaseEnd },
): Settlement | undefined {
  if (!lease || lease.token !== token || !holdsBooking(lease)) return undefined;
  return settleBooking(
    {
      run: { budgetUsed: run.budgetUsed ?? {}, version: run.version ?? 0 },
      lease: { unit, attempt: lease.attempt ?? 0, token, ...(lease.reserved ? { reserved: lease.reserved } : {}) },
    },
    end,
  );
}

/**
 * An attempt that ended without completing (Store.endAttempt): the fence
 * first, then the plan (a counted failure only under the run's plan); then the
 * failure count (+1 when it counts), the error (kept when none is given), the
 * retry backoff (cleared when none), the rejected files, the loop and the
 * journal of paid calls closed if asked, and the lease released. `at` dates the closing of the iterations.
 */
export function decideEndAttempt(
  state: EndAttemptState,
  req: { unit: string; token: number; outcome: Parameters<Store["endAttempt"]>[3]; at: string },
): EndAttemptDecision | Refusal {
  const { outcome } = req;
  const stale = fenceRefusal(state.run.run, { unit: req.unit, token: req.token }, state.lease);
  if (stale) return stale;
  const left = endAttemptRefusal(state.run, outcome);
  if (left) return left;
  const writes: AttemptWrite[] = [];
  // no row: a plan change removed the unit under this attempt (its lease stays until the attempt ends)
  if (state.unit)
    writes.push({
      op: "set-failures",
      unit: req.unit,
      failures: state.unit.failures + (outcome.countsAsFailure ? 1 : 0),
      lastError: outcome.error ?? null,
      notBefore: outcome.notBefore ?? null,
    });
  if (outcome.rejected.length) writes.push({ op: "insert-artifacts", artifacts: outcome.rejected, status: "rejected", record: null });
  if (outcome.closeIterations) writes.push({ op: "close-iterations", unit: req.unit, at: req.at });
  if (outcome.closeJournal) writes.push({ op: "close-journal", unit: req.unit, at: req.at });
  const settled = settleLease(state.run, req.unit, state.lease, req.token, { at: req.at, why: "attempt-ended" });
  if (settled) writes.push({ op: "set-budget-used", used: settled.used });
  writes.push({ op: "delete-lease", unit: req.unit, token: req.token });
  return { kind: "end-attempt", writes, events: true, ...(settled ? { settled: settled.event } : {}) };
}

/**
 * Breaking a lease (Store.breakLease): only the lease with this token, if it
 * is still there (else nothing happens, no event); an `ended` attempt (its
 * worker is gone) is counted as a failure with that error, so `retry.max` and
 * the crash-loop bound count attempts that kill their worker. The backoff is
 * left as it is.
 */
export function decideBreakLease(
  state: Omit<EndAttemptState, "run"> & { run?: { budgetUsed?: BudgetAmounts; version?: number } },
  req: { unit: string; token: number; at: string; ended?: { error: AttemptError } },
): EndAttemptDecision {
  if (state.lease?.token !== req.token) return { kind: "end-attempt", writes: [], events: false };
  // what the attempt under the lease did not draw of its booking was not spent: the recovery settles it
  const settled = settleLease(state.run ?? {}, req.unit, state.lease, req.token, { at: req.at, why: "lease-broken" });
  const writes: AttemptWrite[] = settled ? [{ op: "set-budget-used", used: settled.used }] : [];
  writes.push({ op: "delete-lease", unit: req.unit, token: req.token });
  if (req.ended && state.unit)
    writes.push({ op: "set-failures", unit: req.unit, failures: state.unit.failures + 1, lastError: req.ended.error });
  return { kind: "end-attempt", writes, events: true, ...(settled ? { settled: settled.event } : {}) };
}

/**
 * Releasing a lease (Store.releaseLease): the lease with this token, if it is
 * still there, with its booking settled (a recovery lease has none).
 */
export function decideReleaseLease(
  state: Omit<EndAttemptState, "run" | "unit"> & { run?: { budgetUsed?: BudgetAmounts; version?: number } },
  req: { unit: string; token: number; at: string },
): EndAttemptDecision {
  if (state.lease?.token !== req.token) return { kind: "end-attempt", writes: [], events: false };
  const settled = settleLease(state.run ?? {}, req.unit, state.lease, req.token, { at: req.at, why: "released" });
  const writes: AttemptWrite[] = settled ? [{ op: "set-budget-used", used: settled.used }] : [];
  writes.push({ op: "delete-lease", unit: req.unit, token: req.token });
  return { kind: "end-attempt", writes, events: true, ...(settled ? { settled: settled.event } : {}) };
}

/** The fence: a write under a lease is accepted only while that lease (its token) is the unit's current one. */
export function fenceRefusal(
  run: string,
  fence: { unit: string; token: number },
  lease: { token: number; owner: string } | undefined,
): Refusal | undefined {
  if (lease && lease.token === fence.token) return undefined;
  return refuse("stale-fence", new StaleFencingTokenError(run, fence.unit, fence.token, lease?.token, lease?.owner));
}

/** What a commit decision reads: the run row, the leases of the fenced units, the rows of the changed units. */
export interface CommitState {
  run: {
    run: string;
    version: number;
    status: RunStatus;
    planVersion: string;
    inputVersion: string;
    budgetUsed: CheckpointHeader["budgetUsed"];
  };
  /** The lease on each fenced unit (absent: no lease), with its undrawn booking (settled by the commit). */
  leases: ReadonlyMap<string, EndingLease>;
  /** The row of each changed unit (absent: no such unit). */
  units: ReadonlyMap<string, UnitStateRow>;
}

/** One checkpoint of the group, as the backend writes it. */
export interface CommitStep {
  version: number;
  /** A plan version to record (plan changes). */
  plan?: { planVersion: string; plan: unknown };
  writes: UnitWrite[];
  /** The fenced lease to delete once the changes are written. */
  deleteLease?: { unit: string; token: number };
  /** The checkpoint header but its chain fields (run, parent, digest); its delta's records may be symbolic. */
  header: Omit<CheckpointHeader, "run" | "version" | "parent" | "digest" | "delta"> & { delta: DeltaEntry[] };
  events: EventIn[];
}

export interface CommitDecision {
  kind: "commit";
  steps: CommitStep[];
  /** The run row afterwards (`budgetUsed` only when a commit booked a charge). */
  run: {
    version: number;
    planVersion: string;
    inputVersion: string;
    status: RunStatus;
    updatedAt: string;
    lastProgressAt?: string;
    budgetUsed?: BudgetAmounts;
  };
}

/**
 * A group of checkpoint commits (versions expected+1..) as one decision:
 * compare-and-set on the run's version; per commit, the fence first (a stale
 * worker is told it is stale, whatever became of the run since), then the
 * plan the commit was made under must be the run's plan at that point of the
 * group (a plan change's is the version it changes from), then the run must be
 * active for a unit completion; then every unit change. One refusal refuses
 * the whole group. `committedAt` is the backend's wall-clock time.
 */
export function decideCommit(
  state: CommitState,
  expectedVersion: number,
  commits: readonly CheckpointCommit[],
  committedAt: string,
): CommitDecision | Refusal {
  const { run } = state;
  if (run.version !== expectedVersion) return refuse("version-conflict", new VersionConflictError(run.run, expectedVersion, run.version));
  const units = new Map(state.units);
  const leases = new Map(state.leases);
  let { planVersion, inputVersion, status } = run;
  let version = run.version;
  let budgetUsed = run.budgetUsed;
  let charged = false;
  let inserted = 0;
  let progressed = false;
  const steps: CommitStep[] = [];
  for (const c of commits) {
    if (c.fence) {
      const stale = fenceRefusal(run.run, c.fence, leases.get(c.fence.unit));
      if (stale) return stale;
    }
    const left = planRefusal(run.run, c.planVersion, planVersion);
    if (left) return left;
    if (c.kind === "unit" && status !== "active")
      return refuse("run-not-active", new InvalidTransitionError(`run ${run.run} is ${status}; a unit completion is not accepted`));
    version += 1;
    if (c.plan) {
      planVersion = c.plan.planVersion;
      inputVersion = c.plan.inputVersion;
    }
    const writes: UnitWrite[] = [];
    const delta: DeltaEntry[] = [];
    for (const ch of c.changes) {
      const t = unitTransition(units.get(ch.unit), ch, { run: run.run, version, planVersion, now: c.now }, inserted);
      if (t.kind === "refused") return t;
      for (const w of t.writes) if (w.op === "insert-record") inserted++;
      writes.push(...t.writes);
      delta.push(t.delta);
      if (t.after) units.set(ch.unit, t.after);
      else units.delete(ch.unit);
    }
    if (c.charge) {
      budgetUsed = withSpend(budgetUsed, c.charge);
      charged = true;
    }
    // the result ends the attempt: what it did not draw of its booking was not spent
    const settled = c.fence
      ? settleLease({ budgetUsed, version: version - 1 }, c.fence.unit, leases.get(c.fence.unit), c.fence.token, {
          at: c.now,
          why: "committed",
        })
      : undefined;
    if (settled) {
      budgetUsed = settled.used;
      charged = true;
    }
    if (c.fence) leases.delete(c.fence.unit);
    steps.push({
      version,
      ...(c.plan ? { plan: { planVersion: c.plan.planVersion, plan: c.plan.plan } } : {}),
      writes,
      ...(c.fence ? { deleteLease: c.fence } : {}),
      header: { ...checkpointFields(c, { planVersion, inputVersion, budgetUsed, delta: [] }, committedAt), delta },
      events: [...commitEvents(c, version), ...(settled ? [settled.event] : [])],
    });
    if (c.status) status = c.status;
    if (c.changes.some((ch) => ch.kind === "complete")) progressed = true;
  }
  const last = commits[commits.length - 1];
  const now = last?.now ?? committedAt;
  return {
    kind: "commit",
    steps,
    run: {
      version,
      planVersion,
      inputVersion,
      status,
      updatedAt: now,
      ...(progressed ? { lastProgressAt: now } : {}),
      ...(charged ? { budgetUsed } : {}),
    },
  };
}

/** A step's header with its delta's records made real. */
export function resolveHeader(
  header: CommitStep["header"],
  inserted: readonly number[],
): Omit<CheckpointHeader, "run" | "version" | "parent" | "digest"> {
  return {
    ...header,
    delta: header.delta.map(({ record, ...e }) => ({ ...e, ...(record !== undefined ? { record: resolveRecord(record, inserted) } : {}) })),
  };
}

/** A symbolic record ref made real, given the ids of the records the backend inserted (in order). */
export function resolveRecord(ref: RecordRef, inserted: readonly number[]): number {
  if (typeof ref === "number") return ref;
  const id = inserted[ref.inserted];
  if (id === undefined) throw new Error(`internal: record ${ref.inserted} of this commit was not inserted before its use`);
  return id;
}

/** What a claim decision reads: the run (with its budgets when the claim books a cost), the unit's row, the lease on it (if any). */
export interface ClaimState {
  run: {
    run: string;
    version: number;
    status: RunStatus;
    planVersion: string;
    budgetUsed?: BudgetAmounts;
    caps?: BudgetAmounts;
    /** Read for one rule: a run flagged as needing expert handling starts no attempt. */
    hold?: Pick<Hold, "reason" | "detail">;
  };
  unit: UnitStateRow | undefined;
  /** The lease on the unit; an expired one taken over has its booking settled (then `run.budgetUsed` is read). */
  held: { owner: string; token: number; attempt: number; expiresAt: string; reserved?: BudgetAmounts } | undefined;
}

export interface ClaimRequest {
  unit: string;
  owner: string;
  ttlMs: number;
  now: string;
  expectedVersion?: number;
  /** A recovery lease takes a fresh token but no attempt number. */
  recovery?: boolean;
  /** The plan version the claimer holds; refused (PlanVersionChangedError) when the run is under another. */
  planVersion?: string;
  /**
   * The unit's declared per-attempt cost (model/budget.ts `reservationOf`):
   * booked into the run's used budgets in the claim's transaction, or the
   * claim is refused when it does not fit, so two workers cannot both pass
   * the check and overspend. A recovery lease books nothing.
   */
  reserve?: BudgetAmounts;
}

export interface ClaimDecision {
  kind: "claim";
  /** The attempt number the lease is for; `attempts` of the unit row is set to it. */
  attempt: number;
  /** Whether the unit row's `attempts` changes (not for a recovery lease). */
  newAttempt: boolean;
  expiresAt: string;
  /** What this attempt booked at its claim (empty: nothing), and the run's used budgets afterwards (absent: unchanged). */
  reserved: BudgetAmounts;
  budgetUsed?: BudgetAmounts;
  /** The settlement of the expired lease this claim takes over (its `budget-settled` event). */
  settled?: EventIn;
}

/**
 * Only a pending or superseded unit of an active run, with no live lease on it, under the claimer's plan, can be claimed;
 * a run flagged as needing expert handling, or a unit narrowed out of its scope, starts no attempt (a recovery lease,
 * which starts none, is still granted).
 */
export function decideClaim(state: ClaimState, req: ClaimRequest): ClaimDecision | Refusal {
  const { run, unit, held } = state;
  if (req.expectedVersion !== undefined && run.version !== req.expectedVersion)
    return refuse("version-conflict", new VersionConflictError(run.run, req.expectedVersion, run.version));
  const left = planRefusal(run.run, req.planVersion, run.planVersion);
  if (left) return left;
  if (run.status !== "active")
    return refuse("run-not-active", new InvalidTransitionError(`run ${run.run} is ${run.status}; nothing can be claimed`));
  // the flag is checked here, not only by the scheduler: a worker that decided before the flag was recorded claims after it
  if (!req.recovery && run.hold?.reason === "needs-expert")
    return refuse(
      "run-flagged",
      new InvalidTransitionError(
        `run ${run.run} is flagged as needing expert handling (${run.hold.detail}); nothing can be claimed until \`taskspec unflag ${run.run}\``,
      ),
    );
  if (!unit) return refuse("no-unit", new InvalidTransitionError(`run ${run.run} has no unit ${req.unit}`));
  if (unit.state !== "pending" && unit.state !== "superseded")
    return refuse(
      "not-claimable",
      new InvalidTransitionError(`unit ${req.unit} is ${unit.state}; only a pending or superseded unit can be claimed`),
    );
  // checked here like the flag: a worker that decided before the narrow was recorded claims after it
  if (!req.recovery && unit.hold?.reason === "out-of-scope")
    return refuse(
      "not-claimable",
      new InvalidTransitionError(`unit ${req.unit} is out of run ${run.run}'s scope (${unit.hold.detail}); it starts no attempt`),
    );
  if (held && held.expiresAt > req.now) return refuse("lease-held", new LeaseHeldError(run.run, req.unit, held.owner, held.expiresAt));
  // A worker deciding from older facts must not cut a retry backoff short; a recovery lease starts no attempt.
  if (!req.recovery && unit.notBefore !== undefined && unit.notBefore > req.now)
    return refuse(
      "not-claimable",
      new InvalidTransitionError(`unit ${req.unit} waits for its retry backoff until ${unit.notBefore}; it cannot be claimed before`),
    );
  const expiresAt = new Date(Date.parse(req.now) + req.ttlMs).toISOString();
  // the expired lease this claim replaces ends here: its attempt's undrawn booking is settled first
  const settled = held
    ? settleLease({ budgetUsed: run.budgetUsed ?? {}, version: run.version }, req.unit, held, held.token, {
        at: req.now,
        why: "taken-over",
      })
    : undefined;
  const settledPart = settled ? { budgetUsed: settled.used, settled: settled.event } : {};
  if (req.recovery) return { kind: "claim", attempt: unit.attempts, newAttempt: false, expiresAt, reserved: {}, ...settledPart };
  const reserve = req.reserve ?? {};
  const used = settled?.used ?? run.budgetUsed ?? {};
  const short = budgetShortfall(reserve, used, run.caps ?? {});
  if (short) {
    const budget = short.budget as keyof BudgetAmounts;
    return refuse("over-budget", new BudgetBlockedError(short.budget, used[budget] ?? 0, run.caps![budget]!, short.need));
  }
  const booked = Object.keys(reserve).length > 0;
  const after: BudgetAmounts = { ...used };
  for (const [name, n] of Object.entries(reserve) as Array<[keyof BudgetAmounts, number]>) after[name] = (after[name] ?? 0) + n;
  return {
    kind: "claim",
    attempt: unit.attempts + 1,
    newAttempt: true,
    expiresAt,
    reserved: reserve,
    ...settledPart,
    ...(booked ? { budgetUsed: after } : {}),
  };
}

/** The lease row a granted claim writes (`reserved` only when the claim booked something). */
export function claimedLease(req: ClaimRequest, d: ClaimDecision, token: number, run: string): Lease {
  return {
    run,
    unit: req.unit,
    owner: req.owner,
    token,
    attempt: d.attempt,
    expiresAt: d.expiresAt,
    renewedAt: req.now,
    ...(Object.keys(d.reserved).length ? { reserved: d.reserved } : {}),
  };
}

/** The events of a granted claim with its token: the take-over of an expired lease, then the new lease. */
export function claimEvents(state: ClaimState, req: ClaimRequest, d: ClaimDecision, token: number): EventIn[] {
  const events: EventIn[] = [];
  if (state.held)
    events.push({
      at: req.now,
      type: "lease-taken-over",
      unit: req.unit,
      attempt: state.held.attempt,
      data: { from: state.held.owner, staleToken: state.held.token, newToken: token },
    });
  if (d.settled) events.push(d.settled);
  events.push({
    at: req.now,
    type: "leased",
    unit: req.unit,
    attempt: d.attempt,
    data: { owner: req.owner, token, expiresAt: d.expiresAt, ...(req.recovery ? { for: "recovery" } : {}) },
  });
  if (Object.keys(d.reserved).length)
    events.push({
      at: req.now,
      type: "budget-reserved",
      unit: req.unit,
      attempt: d.attempt,
      data: { ...d.reserved, for: "declared cost" },
    });
  return events;
}
