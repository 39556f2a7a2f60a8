/**
 * The store interface: every durable fact goes through these operations. The
 * engine never writes SQL; each method is one atomic transaction, so a second
 * backend (PostgreSQL) implements the same methods and passes the same
 * conformance suite (runtime/test/conformance/).
 */
import type {
  Approval,
  ArtifactManifest,
  BudgetAmounts,
  CheckpointHeader,
  CheckpointKind,
  CommittedUnitState,
  EffectRecord,
  EffectState,
  ErrorClass,
  Hold,
  Lease,
  LoopIteration,
  NextAction,
  PaidCall,
  RunEvent,
  RunRow,
  RunStatus,
  SourceDigests,
  SupersededInfo,
  UnitRecord,
  UnitStateRow,
} from "../model/facts.js";
import type { ChainLink } from "../model/checkpoint-digest.js";
import type { RunRows } from "./run-rows.js";

export interface CreateRunSpec {
  run: string;
  taskId: string;
  planVersion: string;
  inputVersion: string;
  /** The compiled plan (JSON), kept so status/handoff/resume can read it. */
  plan: unknown;
  caps: BudgetAmounts;
  units: string[];
  origin: RunRow["origin"];
  now: string;
}

/** One unit's change inside a checkpoint commit. */
export type UnitChange =
  | {
      kind: "complete";
      unit: string;
      attempt: number;
      result: unknown;
      sources: SourceDigests;
      /** Manifests of the attempt's artifacts; committed in the same transaction. */
      artifacts: Array<Omit<ArtifactManifest, "status" | "recordId">>;
      /** Files of the attempt that are not its output (earlier loop iterations): recorded, never current. */
      rejected?: Array<Omit<ArtifactManifest, "status" | "recordId">>;
    }
  | { kind: "fail"; unit: string; attempt: number; error: { class: ErrorClass; message: string } }
  /** A change reached this succeeded unit: its record is kept, marked superseded, the unit re-runs. */
  | { kind: "supersede"; unit: string; info: SupersededInfo }
  /** Early cutoff: the superseded record is current again (its inputs hash the same as when it ran). */
  | { kind: "restore"; unit: string }
  /** A unit new in this plan version, or one an operator asked to re-run from scratch. */
  | { kind: "reset"; unit: string }
  /** A unit that no longer exists in the new plan: its record is kept as superseded. */
  | { kind: "remove"; unit: string; info: SupersededInfo };

export interface CheckpointCommit {
  kind: CheckpointKind;
  changes: UnitChange[];
  /** The lease that authorises this commit; a stale token is rejected (StaleFencingTokenError). */
  fence?: { unit: string; token: number };
  /** For plan changes: the new plan version, input version and plan JSON. */
  plan?: { planVersion: string; inputVersion: string; plan: unknown };
  /**
   * The plan version the committer holds (for a plan change: the version it
   * changes from). Refused (PlanVersionChangedError) when the run is under
   * another by then: a worker holding an old plan cannot commit under a new
   * one, nor move the run back. Absent: an operator's decision, any plan.
   */
  planVersion?: string;
  approvals: string[];
  nextAction: NextAction;
  status?: RunStatus;
  /**
   * Spend already made (a completed attempt's wall-clock time), booked with
   * this commit, cap or not (chargeBudget's "record" mode): the checkpoint that
   * commits an attempt's result carries what the attempt cost, in one
   * transaction instead of a charge of its own. Its event is among `events`.
   */
  charge?: BudgetAmounts;
  events: Array<Omit<RunEvent, "run" | "seq">>;
  now: string;
}

export interface CommitHooks {
  /** Called inside the open transaction after the first writes (fault injection: torn transaction). */
  insideTransaction?: () => void;
}

export interface Claim {
  token: number;
  attempt: number;
  lease: Lease;
  /**
   * What the claim booked of the unit's declared cost (empty: nothing); the attempt's own spend draws
   * on it first, and what it has not drawn when its lease ends is released (store/booking.ts).
   */
  reserved: BudgetAmounts;
}

/** One unit of a claim round, with claimUnit's options. */
export interface ClaimRequestOf {
  unit: string;
  planVersion?: string;
  reserve?: BudgetAmounts;
}

/** What a claim round got: its claims in request order, and the refusal that ended it early (if one did). */
export interface ClaimRound {
  claims: Claim[];
  refused?: Error;
}

export type ChargeOutcome = { ok: true; used: BudgetAmounts } | { ok: false; budget: string; used: number; cap: number; requested: number };

/** The facts that drive a scheduling decision, read in one consistent snapshot. */
export interface RunFacts {
  run: RunRow;
  /** Every unit row, or with `since`, only the rows changed after that change sequence number. */
  units: UnitStateRow[];
  /** The run's change sequence number at this snapshot (pass it as `since` next time). */
  changeSeq: number;
  leases: Lease[];
  /** Effects not in a final state, plus committed ones with compensation pending/failed. */
  openEffects: EffectRecord[];
  approvals: Approval[];
}

/** A worker process: its id (engine/owner.ts), host name and pid. */
export interface WorkerIdentity {
  id: string;
  host: string;
  pid: number;
}

/** A worker's row: when it registered, its last heartbeat and when it stopped (the store's clock). */
export interface WorkerRow extends WorkerIdentity {
  startedAt: string;
  heartbeatAt: string;
  stoppedAt?: string;
}

/** The workers table as read at `at` (the store's clock). */
export interface WorkersSnapshot {
  at: string;
  workers: WorkerRow[];
}

/** An active run as a worker's queue sees it. */
export interface ActiveRun extends RunRow {
  changeSeq: number;
  /** The seq of its latest event (0: none). */
  lastEventSeq: number;
}

export interface Store {
  /** Applies migrations; refuses a database written by a newer version (SchemaVersionError). */
  init(): Promise<void>;
  close(): Promise<void>;
  schemaVersion(): Promise<number>;
  /**
   * The store's own time, as an ISO string: the clock leases are judged by.
   * PostgreSQL's (every host asks the one server, so a host whose clock is
   * off judges leases as the others do); SQLite's is its host's, the only
   * host a SQLite file is written from.
   */
  clock(): Promise<string>;
  /**
   * Registers a worker process (or stamps its heartbeat again) at the store's
   * clock, and returns every worker's row as of now: one call per heartbeat.
   */
  heartbeat(worker: WorkerIdentity): Promise<WorkersSnapshot>;
  /** A worker that exits marks its row stopped: leases it still holds are taken over at once. */
  stopWorker(id: string): Promise<void>;
  /** The workers table and every lease, for the operator (`taskspec workers`). */
  listWorkers(): Promise<WorkersSnapshot & { leases: Lease[] }>;
  /**
   * Tells the workers listening on this store that there is new work (a run
   * submitted). PostgreSQL: a NOTIFY on the store's channel; SQLite: nothing
   * (its workers poll).
   */
  announceWork(): Promise<void>;
  /**
   * Calls `wake` whenever work is announced on this store, from any host,
   * until the returned function is called. A lost listening connection stops
   * the calls silently: a listener polls as well (SQLite never calls it).
   */
  onWork(wake: () => void): Promise<() => Promise<void>>;

  createRun(spec: CreateRunSpec): Promise<CheckpointHeader>;
  /**
   * Every row of one run as stored (store/run-rows.ts), read in one snapshot:
   * what a run bundle carries (`taskspec handoff --bundle`). Undefined: no such run.
   */
  exportRunRows(run: string): Promise<RunRows | undefined>;
  /**
   * Writes a run's rows as they were exported, ids, sequence numbers and
   * tokens included, in one transaction, and moves this store's sequences and
   * fencing counter past them. Refused (ImportConflictError), nothing written,
   * when the run exists here or any of its ids is taken.
   */
  importRunRows(rows: RunRows): Promise<void>;
  getRun(run: string): Promise<RunRow | undefined>;
  listRuns(): Promise<RunRow[]>;
  /**
   * The active runs, in creation order, each with what tells a worker whether anything was written
   * for it since it last looked (scheduler/visit-rest.ts): its unit-change counter and latest event.
   */
  activeRuns(): Promise<ActiveRun[]>;
  getPlan(planVersion: string): Promise<unknown | undefined>;
  /**
   * One consistent snapshot of what scheduling needs. With `since`, `units`
   * holds only rows changed after that sequence number (a removed unit is not
   * reported: reload fully when the plan version changes).
   */
  loadFacts(run: string, since?: number): Promise<RunFacts>;

  /** Compare-and-set on the run's latest version; one transaction; VersionConflictError on a race. */
  commitCheckpoint(run: string, expectedVersion: number, commit: CheckpointCommit, hooks?: CommitHooks): Promise<CheckpointHeader>;
  /** Group commit: several checkpoints (versions expected+1..) in one transaction and one fsync. */
  commitCheckpoints(run: string, expectedVersion: number, commits: CheckpointCommit[], hooks?: CommitHooks): Promise<CheckpointHeader[]>;
  listCheckpoints(run: string): Promise<CheckpointHeader[]>;
  /** The chain as stored (fields as text), for verification without parsing. */
  listChainLinks(run: string): Promise<ChainLink[]>;
  latestCheckpoint(run: string): Promise<CheckpointHeader>;

  /**
   * Takes a lease on a pending/superseded unit: new attempt number and a fresh fencing token.
   * `recovery`: a lease for reconciling the unit's open effects with a token newer than their
   * caller's, before any attempt; it takes a fresh token but no attempt number.
   * `planVersion`: the plan the claimer holds; a run under another plan refuses
   * the claim (PlanVersionChangedError).
   * `reserve`: the unit's declared per-attempt cost, booked into the run's used budgets in the
   * same transaction; when it does not fit, nothing is claimed (BudgetBlockedError).
   */
  claimUnit(
    run: string,
    unit: string,
    owner: string,
    ttlMs: number,
    now: string,
    expectedVersion?: number,
    options?: { recovery?: boolean; planVersion?: string; reserve?: BudgetAmounts },
  ): Promise<Claim>;
  /**
   * A scheduling round's claims for one owner, in order, each as `claimUnit`
   * decides it (never a recovery claim): it stops at the first refusal (a
   * ClaimRefusal: version conflict, plan changed, lease held, not claimable,
   * over budget), which it returns with the claims made before it; those
   * stand. Any other error is thrown. SQLite makes the round one transaction.
   */
  claimUnits(
    run: string,
    requests: ClaimRequestOf[],
    owner: string,
    ttlMs: number,
    now: string,
    expectedVersion?: number,
  ): Promise<ClaimRound>;
  /**
   * Makes every write committed so far durable against a power loss. A claim
   * may commit without its own fsync (SQLite); an attempt calls this before
   * its number or token first leaves the store (engine/attempt.ts
   * `claimDurable`), and the worker before the lookup carrying a recovery
   * token, so what anyone outside has seen is never handed out twice.
   * Callers waiting together share one fsync.
   */
  sync(): Promise<void>;
  renewLease(run: string, unit: string, token: number, ttlMs: number, now: string): Promise<Lease>;
  releaseLease(run: string, unit: string, token: number, event?: Omit<RunEvent, "run" | "seq">): Promise<void>;
  /**
   * Removes an expired lease (or one of a dead worker) so the unit can be reconciled and re-claimed.
   * `ended`: the attempt under the lease is over without a result (its worker is gone): counted
   * as a failure with this error, so `retry.max` bounds attempts that kill their worker too.
   */
  breakLease(
    run: string,
    unit: string,
    token: number,
    event: Omit<RunEvent, "run" | "seq">,
    ended?: { error: { class: ErrorClass; message: string; attempt: number } },
  ): Promise<void>;
  /** Records an attempt that ended without completing (failure counted, or not), releasing its lease. */
  endAttempt(
    run: string,
    unit: string,
    token: number,
    outcome: {
      countsAsFailure: boolean;
      error?: { class: ErrorClass; message: string; attempt: number };
      rejected: Array<Omit<ArtifactManifest, "status" | "recordId">>;
      /** The attempt failed after its loop had ended (loop exhausted, verifier failed): close the unit's open iterations, so a retry runs the loop afresh. */
      closeIterations?: boolean;
      /** The attempt ended with a verdict (engine/paid-replay.ts `endsReplay`): close the unit's journal of paid calls, so the next attempt calls afresh. */
      closeJournal?: boolean;
      /** The unit's retry backoff: its next attempt starts no earlier (absent: at once). */
      notBefore?: string;
      /**
       * The plan the attempt ran under: a failure counted under a plan the run
       * has left is refused (PlanVersionChangedError), so the old plan's
       * verdict never uses up the new plan's `retry.max`; end it uncounted.
       */
      planVersion?: string;
    },
    events: Array<Omit<RunEvent, "run" | "seq">>,
  ): Promise<void>;

  /**
   * Commits one loop iteration of the attempt holding `fence` (a stale token is
   * refused: StaleFencingTokenError): the row, and the manifests of the files
   * it wrote (status `rejected`: recorded, never current, until a completion
   * commits them). An open iteration already committed for the same run, unit,
   * loop and number is refused (InvalidTransitionError): an iteration is paid
   * once; after its loop is closed, the number can be committed again.
   * Every checkpoint commit that changes the unit (complete, fail, supersede,
   * restore, reset, remove) closes its open iterations.
   */
  commitIteration(
    iteration: Omit<LoopIteration, "closedAt">,
    fence: { unit: string; token: number },
    event: Omit<RunEvent, "run" | "seq">,
  ): Promise<void>;
  /** Iterations in order (unit, loop, number); `open`: only those no commit has closed yet. */
  listIterations(run: string, filter?: { unit?: string; loop?: string; open?: boolean }): Promise<LoopIteration[]>;

  /**
   * Journals a paid call of the attempt holding `fence` (a stale token is
   * refused: StaleFencingTokenError), before its request leaves (`started`) or
   * as handed back (`replayed`). Open until a verdict closes the unit's journal:
   * every checkpoint commit that changes the unit, and endAttempt with
   * `closeJournal` (engine/paid-replay.ts).
   */
  journalPaidCall(call: Omit<PaidCall, "closedAt">, fence: { unit: string; token: number }): Promise<void>;
  /** Records a started call's answer (or its failure); a call no longer `started` is left as it is. */
  answerPaidCall(
    key: { run: string; unit: string; attempt: number; seq: number },
    answer: { state: "answered" | "failed"; reply?: unknown; replayable?: boolean; answeredAt: string },
  ): Promise<void>;
  /** Paid calls in order (unit, attempt, seq); `open`: only those no verdict has closed yet. */
  listPaidCalls(run: string, filter?: { unit?: string; open?: boolean }): Promise<PaidCall[]>;

  /**
   * Adds spend atomically unless it would pass a cap (then nothing is added).
   * `record` adds it regardless: spend that already happened (wall-clock time).
   * `booking`: an attempt's own spend, drawn first on what its claim booked and
   * it has not drawn yet (the lease with that token; none once the lease is
   * gone), only the rest checked and added; the event's data gets `reserved`,
   * what was drawn (store/booking.ts).
   */
  chargeBudget(
    run: string,
    delta: BudgetAmounts,
    event: Omit<RunEvent, "run" | "seq">,
    mode?: "check" | "record",
    booking?: { unit: string; token: number },
  ): Promise<ChargeOutcome>;
  /** Raising (or setting) caps: a recorded decision. */
  setCaps(run: string, caps: BudgetAmounts, event: Omit<RunEvent, "run" | "seq">): Promise<void>;
  setRunHold(run: string, hold: Hold | null, event: Omit<RunEvent, "run" | "seq">): Promise<void>;
  setUnitHold(run: string, unit: string, hold: Hold | null, event: Omit<RunEvent, "run" | "seq">): Promise<void>;
  setRunStatus(run: string, status: RunStatus, event: Omit<RunEvent, "run" | "seq">): Promise<void>;
  /**
   * A new contract or handler module for the run from now on (`resume
   * --contract`, `run` on an existing run): a recorded decision, so the next
   * plain `resume` and every worker read it. Merged into the recorded origin.
   */
  setRunOrigin(run: string, origin: Partial<RunRow["origin"]>, event: Omit<RunEvent, "run" | "seq">): Promise<void>;

  appendEvents(run: string, events: Array<Omit<RunEvent, "run" | "seq">>): Promise<void>;
  listEvents(run: string, options?: { afterSeq?: number; type?: string }): Promise<RunEvent[]>;
  /**
   * A window of the log for a reader that pages back from the newest (the
   * console's timeline): the last `limit` events before `beforeSeq` (or the
   * newest), oldest first, and how many the run's log holds; never the whole log.
   */
  eventsWindow(run: string, window: { beforeSeq?: number; limit: number }): Promise<{ events: RunEvent[]; total: number }>;

  getRecords(run: string, filter?: { unit?: string; status?: UnitRecord["status"] }): Promise<UnitRecord[]>;
  listArtifacts(
    run: string,
    filter?: { unit?: string; status?: ArtifactManifest["status"]; recordId?: number },
  ): Promise<ArtifactManifest[]>;
  markArtifactCorrupt(run: string, path: string, event: Omit<RunEvent, "run" | "seq">): Promise<void>;
  /**
   * Records a collection (`taskspec gc`): removes the payloads of the events
   * `payloads` names and appends `event`, in one transaction; refused
   * (InvalidTransitionError) while the run is active or holds a lease.
   */
  recordCollection(run: string, payloads: readonly number[], event: Omit<RunEvent, "run" | "seq">): Promise<void>;

  /**
   * Writes a PREPARED effect after checking the fence; refuses a stale token,
   * and an effect whose tool and key name a recorded effect made with another
   * request (EffectKeyConflictError; store/effect-identity.ts).
   */
  /**
   * Records a PREPARED effect under the attempt's lease. With `fence.planVersion`, refused
   * (PlanVersionChangedError) once the run has left that plan: an attempt of an old plan
   * never starts a side effect under a new one.
   */
  prepareEffect(
    effect: Omit<EffectRecord, "state" | "commitSeq">,
    fence: { unit: string; token: number; planVersion?: string },
  ): Promise<EffectRecord>;
  /** Compare-and-set on the effect's state; COMMITTED takes the next commit sequence number. */
  updateEffect(
    id: string,
    from: EffectState[],
    patch: Partial<Omit<EffectRecord, "id" | "run" | "commitSeq">>,
    event?: Omit<RunEvent, "run" | "seq">,
  ): Promise<EffectRecord>;
  /** Effects of the run in order of preparation; `key` and `tool` narrow to one key's effects. */
  listEffects(run: string, filter?: { unit?: string; tool?: string; key?: string; states?: EffectState[] }): Promise<EffectRecord[]>;

  grantApproval(approval: Approval, event: Omit<RunEvent, "run" | "seq">): Promise<void>;
  revokeApproval(id: string, now: string, event: Omit<RunEvent, "run" | "seq">): Promise<void>;
  listApprovals(run: string): Promise<Approval[]>;
  issueResumeToken(tokenHash: string, row: { run: string; unit: string; expiresAt: string; createdAt: string }): Promise<void>;
  /**
   * Single use: marks it used and returns its gate; ResumeTokenError when
   * unknown, used, expired, or issued for another gate than `gate` (then it
   * is left unused: a token tried on the wrong run is not used up).
   */
  consumeResumeToken(tokenHash: string, now: string, gate: { run: string; unit: string }): Promise<{ run: string; unit: string }>;

  /** Records an operator identity (name and the sha256 of its key); InvalidTransitionError when the name or key exists. */
  addOperator(row: { name: string; keyHash: string; createdAt: string }): Promise<void>;
  /** The operator whose key hashes to `keyHash`, if any. */
  findOperator(keyHash: string): Promise<{ name: string; createdAt: string } | undefined>;
  /** How many operator identities the store has (0: none configured yet). */
  countOperators(): Promise<number>;
  pendingResumeTokens(run: string, now: string): Promise<Array<{ unit: string; expiresAt: string }>>;
}

export type { CommittedUnitState };
