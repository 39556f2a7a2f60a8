/**
 * What a worker holds in memory between its steps, declared once. Nothing
 * here is needed to recover a run (every decision is recomputed from the
 * store); it saves store reads and keeps a worker from repeating itself
 * (an effect looked up twice, a unit claimed without progress for ever).
 * The worker's parts (worker.ts, resume.ts, claim.ts, attempt-runner.ts,
 * group-commit.ts, recovery.ts, verify-done.ts) share it through a
 * `WorkerContext`.
 */
import type { CheckpointHeader, NextAction, RunStatus, UnitStateRow } from "../model/facts.js";
import type { Decision } from "../scheduler/decide.js";
import type { SpinState } from "../scheduler/spin-guard.js";
import type { CheckpointCommit, RunFacts } from "../store/types.js";
import { nowIso, type EngineCore } from "./core.js";
import type { Liveness } from "./owner.js";

export interface WorkerOptions {
  /** Units run at once in this process (default 1). */
  concurrency?: number;
  /** How long an issued resume token stays valid (default 24 h). */
  resumeTokenTtlMs?: number;
  /** `full` re-hashes every current artifact on resume; `size` only checks presence and size (default full). */
  verifyArtifacts?: "full" | "size";
  onProgress?: (p: Progress) => void;
  /** When aborted (a worker told to stop): claim nothing new, let in-flight attempts settle, return. */
  stop?: AbortSignal;
  /**
   * The run's plan version when the caller read the contract it compiled (the
   * `worker` command and a plain `resume` compile the run's recorded one):
   * `prepare` changes the plan only from that version, so a contract that
   * `resume --contract` recorded meanwhile is never replaced by the older one
   * read before it (PlanVersionChangedError: read the run again). Absent: the
   * contract is the caller's own decision, applied over whatever plan the run has.
   */
  planVersionRead?: string;
  /** This process's knowledge of the workers' heartbeats (engine/worker-heartbeat.ts): leases of dead workers are taken over. */
  liveness?: () => Liveness | undefined;
}

export interface Progress {
  counts: Decision["counts"];
  total: number;
  budgetUsed: Record<string, number>;
  caps: Record<string, number>;
  lastEvent: string;
}

/** A completion waiting for the group commit, and who waits for its header. */
export interface QueuedCommit {
  commit: CheckpointCommit;
  resolve: (h: CheckpointHeader | undefined) => void;
  reject: (e: unknown) => void;
}

export interface WorkerState {
  /** The run's checkpoint version as this worker last read or wrote it (commits compare-and-set on it). */
  version: number;
  /** The run's status when this worker resumed it: a finished run that a change reaches opens again. */
  runStatus: RunStatus;
  /** The last decision and the facts it was made from. */
  lastDecision: Decision | undefined;
  facts: RunFacts | undefined;
  /** Approvals current at the last decision: recorded in every checkpoint this worker commits. */
  approvalIds: string[];
  /** Unit rows as of change `seq` under `planVersion`; each step reads only the rows changed since (a plan change reloads all). */
  unitCache: { rows: Map<string, UnitStateRow>; seq: number; planVersion: string } | undefined;
  /** This worker's attempts, by unit, until they have settled. */
  inflight: Map<string, Promise<void>>;
  /** Open effects this worker looked up already (at most once per worker run: a failed lookup blocks, it does not spin). */
  reconciled: Set<string>;
  /** Claims of each unit since its last progress, and the units this worker stopped claiming (scheduler/spin-guard.ts). */
  spin: SpinState;
  stopped: Map<string, string>;
  /** Completions waiting for the group commit, and whether a flush is scheduled. */
  queue: QueuedCommit[];
  flushScheduled: boolean;
}

export function newWorkerState(): WorkerState {
  return {
    version: 0,
    runStatus: "active",
    lastDecision: undefined,
    facts: undefined,
    approvalIds: [],
    unitCache: undefined,
    inflight: new Map(),
    reconciled: new Set(),
    spin: {},
    stopped: new Map(),
    queue: [],
    flushScheduled: false,
  };
}

/** What each part of a worker is handed: the engine's injected parts, the caller's options, the worker's state. */
export interface WorkerContext {
  core: EngineCore;
  options: WorkerOptions;
  state: WorkerState;
}

/** A run event as this worker records it, stamped with the engine's clock. */
export const ev = (core: EngineCore, type: string, extra: { unit?: string; attempt?: number; data?: Record<string, unknown> } = {}) => ({
  at: nowIso(core),
  type,
  ...extra,
});

/** A finished or failed run that a change reaches is open again; a cancelled one stays cancelled. */
export const reopen = (status: RunStatus): { status?: RunStatus } => (status === "done" || status === "failed" ? { status: "active" } : {});

/** The next action recorded in a checkpoint: what the last decision said comes next. */
export function nextActionOf(state: Pick<WorkerState, "lastDecision">): NextAction {
  const d = state.lastDecision;
  if (!d) return { kind: "run", units: [] };
  if (d.allSucceeded) return { kind: "verify-done" };
  if (d.ready.length) return { kind: "run", units: d.ready.slice(0, 10) };
  return { kind: "blocked", reasons: d.blocked };
}
