/**
 * The persisted facts of a run. Everything the runtime knows after a crash is
 * one of these; ready lists, blocked reasons, progress and summaries are
 * recomputed from them (scheduler/decide.ts), never stored as truth.
 */

export const BUDGET_NAMES = ["model_calls", "tool_calls", "tokens", "wall_clock_ms"] as const;
export type BudgetKey = (typeof BUDGET_NAMES)[number];
/** Amounts per budget; a missing key is 0 (used) or uncapped (caps). */
export type BudgetAmounts = Partial<Record<BudgetKey, number>>;

/** Committed unit states. `ready`, `running` and `blocked` are derived views. */
export type CommittedUnitState = "pending" | "succeeded" | "failed" | "superseded";

/** Why a unit (or the run) cannot go on; a fact while it holds, cleared by a decision. */
export interface Hold {
  /** `cancelling`: a cancel started and has not finished (it lists why); `taskspec cancel` again. */
  /** `no-progress`: a worker claimed the unit again and again without progress and stopped (scheduler/spin-guard.ts). */
  /** `needs-expert`: an operator flagged the run (`taskspec flag`); no attempt starts until `taskspec unflag`. */
  /** `out-of-scope`: an operator narrowed the run's goal (`taskspec narrow`); the unit never runs and the run is done without it. */
  reason:
    | "budget"
    | "approval"
    | "unknown-effect"
    | "compensation-failed"
    | "cancelling"
    | "no-safe-action"
    | "no-progress"
    | "needs-expert"
    | "out-of-scope";
  detail: string;
  at: string;
  data?: Record<string, unknown>;
}

export interface SupersededInfo {
  /** Explanation path from the impact engine, e.g. `audience --audience--> U27`. */
  path: string;
  /** true when the change reached this unit itself (its definition, an input it needs, a rule naming it, corruption of its own output). */
  direct: boolean;
  planVersion: string;
}

export interface UnitStateRow {
  unit: string;
  state: CommittedUnitState;
  /** Attempts started so far (a<n> directories taken). */
  attempts: number;
  /** Attempts that ended in a classified failure (count against `retry.max`). */
  failures: number;
  /** The current (succeeded) record, if any. */
  currentRecord?: number;
  /** The record that a change superseded while the unit waits to re-run (for early cutoff). */
  supersededRecord?: number;
  superseded?: SupersededInfo;
  hold?: Hold;
  lastError?: { class: ErrorClass; message: string; attempt: number };
  /**
   * After a counted failure, the earliest time the next attempt may start (the
   * unit's retry backoff); cleared by every change of the unit's committed state.
   */
  notBefore?: string;
  /** Checkpoint version that last changed this row's committed state. */
  version: number;
}

export type ErrorClass =
  | "handler-error"
  | "timeout"
  | "invalid-result"
  | "verifier-failed"
  | "guard"
  | "loop-exhausted"
  | "tool-error"
  | "stale-lease"
  | "crashed"
  /** The attempt's worker died or stopped renewing its lease before the attempt ended (its lease was broken). */
  | "worker-lost";

/** What a unit consumed: per need, the artifact digests (and facet digests) it read. */
export type SourceDigests = Record<string, Array<{ name: string; sha256: string; facets?: Record<string, string> }>>;

export interface UnitRecord {
  id: number;
  run: string;
  unit: string;
  attempt: number;
  planVersion: string;
  status: "current" | "superseded" | "failed";
  result: unknown;
  sources: SourceDigests;
  committedVersion: number;
  supersededReason?: string;
  createdAt: string;
}

export interface ArtifactManifest {
  run: string;
  unit: string;
  attempt: number;
  name: string;
  /** Relative to the artifact root: runs/<run>/<unit>/a<n>/<name> */
  path: string;
  sha256: string;
  size: number;
  mediaType: string;
  facets?: Record<string, string>;
  planVersion: string;
  verifierResults: VerifierResult[];
  status: "committed" | "rejected" | "corrupt";
  recordId?: number;
  createdAt: string;
}

export type PaidCallKind = "model" | "charge";

/**
 * One row of a unit's journal of paid calls (engine/paid-replay.ts).
 * `started`: the request may have left (it was paid, its answer is not
 * known); `answered`: the answer is `reply` (`replayable` false when it could
 * not be stored, e.g. it holds a secret value); `failed`: the call failed or
 * was refused; `replayed`: this attempt was handed an earlier attempt's
 * answer (no reply of its own).
 */
export interface PaidCall {
  run: string;
  unit: string;
  attempt: number;
  /** Its place among the attempt's paid calls, from 0. */
  seq: number;
  /** The loop iteration it was made in (1 outside loops): a call is replayed only in its own iteration. */
  iteration: number;
  kind: PaidCallKind;
  /** sha256 of the canonical request (kind and request): only the hash is stored, never the request. */
  requestHash: string;
  state: "started" | "answered" | "failed" | "replayed";
  reply?: unknown;
  replayable?: boolean;
  at: string;
  answeredAt?: string;
  closedAt?: string;
}

/**
 * One committed iteration of a unit's `loop` (store table loop_iterations):
 * its number, the result it returned and the files it wrote. A later attempt
 * of the same loop (same `loop` digest: the unit's definition and the sources
 * it ran from) answers these from the store instead of running them again.
 */
export interface LoopIteration {
  run: string;
  unit: string;
  /** Digest naming this loop: the unit's definition hash and the sources (inputs, needs, code) it ran from. */
  loop: string;
  /** 1-based. */
  iteration: number;
  /** The loop's bound (`loop.max`), for "iteration k of max". */
  max: number;
  /** The attempt that ran it. */
  attempt: number;
  result: unknown;
  /** The files this iteration wrote (their manifests are recorded as `rejected` until a completion commits them). */
  artifacts: Array<Omit<ArtifactManifest, "status" | "recordId">>;
  committedAt: string;
  /** Set once the loop is over (the unit completed, failed, was reset or superseded): no attempt resumes from it. */
  closedAt?: string;
}

export interface VerifierResult {
  name: string;
  passed: boolean;
  reason?: string;
}

export type CheckpointKind = "start" | "unit" | "unit-failed" | "plan-change" | "cutoff" | "decision";
/** Kinds that count as "baseline commits" (seed 004: unit completions + plan changes). */
export const BASELINE_KINDS: readonly CheckpointKind[] = ["unit", "plan-change"];

export interface CheckpointHeader {
  run: string;
  version: number;
  parent: number | null;
  kind: CheckpointKind;
  planVersion: string;
  inputVersion: string;
  budgetUsed: BudgetAmounts;
  /** Approval ids current at commit time. */
  approvals: string[];
  nextAction: NextAction;
  /**
   * What this checkpoint changed (unit ids and their new committed state). A
   * completion also carries `content`, the digest of the record it inserted
   * (recordContentDigest), so an edit of that row is told from the chain.
   */
  delta: Array<{ unit: string; state: CommittedUnitState; record?: number; attempt?: number; content?: string }>;
  /** sha256 over the parent's digest and this header's content: the parent chain. */
  digest: string;
  createdAt: string;
  committedAt: string;
}

export type NextAction =
  | { kind: "run"; units: string[] }
  | { kind: "blocked"; reasons: Array<{ unit?: string; reason: Hold["reason"]; detail: string }> }
  | { kind: "done" }
  | { kind: "verify-done" }
  | { kind: "cancelled" }
  | { kind: "failed"; units: string[] };

export type RunStatus = "active" | "done" | "failed" | "cancelled";

export interface RunRow {
  run: string;
  taskId: string;
  planVersion: string;
  inputVersion: string;
  /** Latest committed checkpoint version. */
  version: number;
  status: RunStatus;
  caps: BudgetAmounts;
  budgetUsed: BudgetAmounts;
  /** Run-level hold (budget, compensation failure): blocks every claim. */
  hold?: Hold;
  /** Where the run came from, so `resume <run>` needs no arguments. */
  /** The files the run is driven with (absolute paths): contract, handler module, verifier module. */
  /** The files the run uses: contract, handler module, tools module (`--tools`), verifier module; and where its artifacts live (a directory, `pg:` or an `s3://` URL: artifacts/open.ts). */
  origin: {
    contract?: string;
    handlers?: string;
    tools?: string;
    verifiers?: string;
    artifactRoot: string;
    /** The work queue it was submitted to (`taskspec submit --queue`; scheduler/run-queue.ts); absent: `default`. */
    queue?: string;
    /** The tenant within its queue (the contract's `queue.key`, rendered at submission: scheduler/queue-of.ts); absent: none. */
    queueKey?: string;
    /** Higher is visited first (`--priority`); absent: 0. */
    priority?: number;
    /** Units of this run at once on one worker (`--max-parallel`); absent: the worker's own limit. */
    maxParallel?: number;
    /** Loaded from a run bundle (`taskspec import`): a copy to read, never driven here (operator/run-bundle.ts). */
    imported?: { digest: string; exportedAt: string; importedAt: string };
  };
  createdAt: string;
  updatedAt: string;
  /** Last time a unit committed (stall detection). */
  lastProgressAt: string;
}

export interface Lease {
  run: string;
  unit: string;
  owner: string;
  token: number;
  attempt: number;
  expiresAt: string;
  renewedAt: string;
  /**
   * What its attempt's booking still holds: the declared cost booked at the
   * claim less what the attempt's own spend drew on it (absent: none, all of
   * it drawn, or a recovery lease). Released when the lease ends (store/booking.ts).
   */
  reserved?: BudgetAmounts;
}

export type EffectState = "PREPARED" | "STARTED" | "COMMITTED" | "UNKNOWN" | "FAILED" | "COMPENSATED";

/** A tool call as the store may keep it: the tool and, per argument, `sha256:` + the first 16 hex of its value's digest. */
export interface RedactedRequest {
  tool: string;
  args: Record<string, string>;
}

export interface EffectRecord {
  id: string;
  run: string;
  unit: string;
  attempt: number;
  seq: number;
  tool: string;
  toolClass: string;
  /** One line for people: `create_post(title=...)`, without secrets. */
  intent: string;
  argsDigest: string;
  /**
   * sha256 of the canonical request, `canonicalJson({ tool, args })`: with the
   * key, the effect's identity. A call with a known key and another request
   * is refused (ledger.ts). Absent on effects recorded before schema 3.
   */
  requestHash?: string;
  /** The request without its values: each argument's digest (redact.ts `redactedRequest`), for people comparing two requests. */
  request?: RedactedRequest;
  /** The loop iteration that made the call (1 outside loops); part of the effect's identity. */
  iteration?: number;
  key?: string;
  state: EffectState;
  remoteId?: string;
  receipt?: unknown;
  lookupUsed?: string;
  /** Rendered at commit time so compensation runs after a crash without the handler. */
  compensation?: { tool: string; args: Record<string, unknown> };
  compensationState?: "pending" | "done" | "failed";
  error?: string;
  token: number;
  preparedAt: string;
  startedAt?: string;
  resolvedAt?: string;
  /** Order of commits across the run (compensation runs in reverse). */
  commitSeq?: number;
  /**
   * A PREPARED effect that waits for a person: a gate in front of an
   * irreversible call ran up to the call and recorded what it would send
   * (ledger.ts). Dropped (null) once the effect is released or replaced.
   */
  held?: HeldRequest;
}

/**
 * What a PREPARED effect behind a gate would send, and the values it was
 * rendered from: what `taskspec approve --dry-run` and `status` show and
 * what an approval binds (Approval.binding).
 */
export interface HeldRequest {
  reason: "approval";
  /**
   * The request for the person who approves: the rendered arguments, each
   * string made safe by the ledger's redaction (credential-shaped text
   * masked, at most 300 characters; `masked` names the arguments it
   * changed). The request hash covers the exact values. Kept only while the
   * effect waits.
   */
  display: { tool: string; args: Record<string, unknown>; key?: string; masked?: string[] };
  /** Digest of each declared input the gate unit read (sha256 of its canonical JSON value). */
  inputs: Record<string, string>;
  /** Digest of each need the gate unit read (its result and artifact hashes). */
  needs: Record<string, string>;
  planVersion: string;
  /** What differs from the approval or the prepared request this one replaced. */
  changed?: string[];
}

/** What an approval of a prepared gate releases: exactly this request, rendered from these values. */
export interface ApprovalBinding {
  /** The PREPARED effect the person saw. */
  effect: string;
  tool: string;
  key?: string;
  requestHash: string;
  /** The request without values (per-argument digests), to name what differs. */
  request?: RedactedRequest;
  inputs: Record<string, string>;
  needs: Record<string, string>;
}

export interface Approval {
  id: string;
  run: string;
  unit: string;
  planVersion: string;
  /** Hashes of the artifacts the gate unit will read, at approval time. */
  artifactHashes: Record<string, string>;
  scope: string;
  expiresAt: string;
  grantedBy: string;
  grantedAt: string;
  revokedAt?: string;
  /**
   * For a gate in front of an irreversible call: the prepared request it
   * releases (request hash, the gate unit's input and need digests). With
   * planVersion, scope and expiry, anything different at the call needs a
   * new approval.
   */
  binding?: ApprovalBinding;
}

export interface ResumeTokenRow {
  run: string;
  unit: string;
  expiresAt: string;
  usedAt?: string;
  createdAt: string;
}

export interface RunEvent {
  seq?: number;
  run: string;
  at: string;
  type: string;
  unit?: string;
  attempt?: number;
  /** Metadata only: no secrets, no raw provider responses. */
  data?: Record<string, unknown>;
}
