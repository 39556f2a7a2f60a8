/**
 * The write vocabulary of the stores: every row a store rule decides to write
 * is one of these, as data. A rule (store/*-rules.ts, store/unit-transition.ts)
 * reads rows and answers with writes or a refusal; each backend has one
 * executor that turns writes into statements (store/write-sql.ts) and runs
 * them in order inside the rule's transaction. A new rule reuses these writes;
 * a new kind of write is added here, rendered once in write-sql.ts.
 */
import type { RuntimeError } from "../errors.js";
import type * as facts from "../model/facts.js";
import type { Row } from "./rows.js";
import type { AttemptWrite, CommitStep, UnitWrite } from "./unit-transition.js";

export type EventIn = Omit<facts.RunEvent, "run" | "seq">;

/** The run row's fields a write may set (absent: kept). */
export interface RunPatch {
  version?: number;
  planVersion?: string;
  inputVersion?: string;
  status?: facts.RunStatus;
  caps?: facts.BudgetAmounts;
  budgetUsed?: facts.BudgetAmounts;
  hold?: facts.Hold | null;
  origin?: facts.RunRow["origin"];
  updatedAt?: string;
  lastProgressAt?: string;
}

/** One write, in the order the executor runs them; `run` is the executor's (every write is inside one run). */
export type StoreWrite =
  | UnitWrite
  | AttemptWrite
  | { op: "insert-events"; events: readonly EventIn[] }
  /** A plan version, kept once: a second insert of the same version writes nothing. */
  | { op: "insert-plan"; planVersion: string; plan: unknown }
  /** A new run row; refused with `exists` when the run is already there (the insert decides, not a read). */
  | {
      op: "insert-run";
      taskId: string;
      planVersion: string;
      inputVersion: string;
      caps: facts.BudgetAmounts;
      origin: facts.RunRow["origin"];
      now: string;
      exists: RuntimeError;
    }
  /** New pending unit rows at version 0. */
  | { op: "insert-units"; units: readonly string[] }
  /**
   * The next checkpoint of the chain: its parent is `version - 1` (none for 0),
   * its digest chains on the executor's last one; symbolic records resolve to
   * the ids inserted before it.
   */
  | { op: "insert-checkpoint"; version: number; header: CommitStep["header"] }
  | { op: "update-run"; set: RunPatch }
  /** Closes the open loop iterations and the open journal of paid calls of these units. */
  | { op: "close-loops"; units: readonly string[]; at: string }
  | { op: "set-attempts"; unit: string; attempts: number }
  | { op: "set-unit-hold"; unit: string; hold: facts.Hold | null }
  /** The lease on `lease.unit`, replacing any older one. */
  | { op: "put-lease"; lease: facts.Lease }
  | { op: "renew-lease"; unit: string; token: number; expiresAt: string; renewedAt: string }
  | { op: "set-lease-reserved"; unit: string; token: number; reserved: facts.BudgetAmounts | null }
  /** A PREPARED effect; the executor keeps the written row. */
  | { op: "insert-effect"; effect: Omit<facts.EffectRecord, "state" | "commitSeq"> }
  /**
   * Effect columns (store/rows.ts EFFECT_PATCH_COLUMNS) set on one effect; with
   * `commitSeq` it takes the run's next commit sequence number. The executor
   * keeps the row as written.
   */
  | { op: "update-effect"; id: string; columns: Readonly<Record<string, unknown>>; commitSeq: boolean }
  | { op: "insert-approval"; approval: facts.Approval }
  | { op: "revoke-approval"; id: string; at: string }
  | { op: "insert-resume-token"; tokenHash: string; unit: string; expiresAt: string; createdAt: string }
  | { op: "use-resume-token"; tokenHash: string; at: string }
  /** A committed loop iteration; refused with `committed` when the unit's open loop already has it (the unique index decides). */
  | { op: "insert-iteration"; iteration: Omit<facts.LoopIteration, "closedAt">; committed: RuntimeError }
  | { op: "insert-paid-call"; call: Omit<facts.PaidCall, "closedAt"> }
  | {
      op: "answer-paid-call";
      key: { unit: string; attempt: number; seq: number };
      answer: { state: "answered" | "failed"; reply?: unknown; replayable?: boolean; answeredAt: string };
    }
  | { op: "mark-artifact-corrupt"; path: string }
  /** The payloads of these events of the run removed (gc); the events themselves stay. */
  | { op: "clear-event-payloads"; seqs: readonly number[] }
  | { op: "insert-operator"; name: string; keyHash: string; createdAt: string };

export type ArtifactRow = Omit<facts.ArtifactManifest, "status" | "recordId">;

/** What the executor learns while it runs one transaction's writes, for the writes after and the caller. */
export interface WriteContext {
  /** Ids of the records inserted, in order (a symbolic record ref indexes them). */
  inserted: number[];
  /** The digest of the last checkpoint of the chain (the next one's parent). */
  digest: string;
  /** The checkpoints written, in order. */
  headers: facts.CheckpointHeader[];
  /** The row the last effect write left. */
  effect?: Row;
}

export function writeContext(digest = ""): WriteContext {
  return { inserted: [], digest, headers: [] };
}

/** A rule's answer: the writes to make, or a refusal (the error the store method throws). */
export type Decided<T = object> = ({ kind: "writes"; writes: StoreWrite[] } & T) | { kind: "refused"; reason: string; error: RuntimeError };

export const events = (...list: EventIn[]): StoreWrite => ({ op: "insert-events", events: list });

/** The writes of a rule's answer; its refusal is thrown (the error the store method throws). */
export function accepted<T extends object>(d: Decided<T>): Extract<Decided<T>, { kind: "writes" }> {
  if (d.kind === "refused") throw d.error;
  return d as Extract<Decided<T>, { kind: "writes" }>;
}
