/**
 * Read-only operator views over the store: the runs of a store
 * (`taskspec runs`), one unit of a run (`taskspec show RUN UNIT`) and the
 * event log (`taskspec events`). Facts as stored, plus the derived state of
 * each run from the same decision `status` uses; nothing is written.
 */
import type { Plan } from "@taskspec/compiler";
import { NotFoundError } from "../errors.js";
import type { ArtifactManifest, EffectRecord, LoopIteration, RunEvent, RunRow, UnitRecord } from "../model/facts.js";
import type { Store } from "../store/types.js";
import { decisionFor, derivedStatus, planOfRun } from "./status.js";
import { RUN_SKIPPED_EVENT, standingSkips, type RunSkip } from "./skipped.js";
import { COLLECTED_EVENT, collectionsOf } from "./gc-plan.js";

export interface RunSummary {
  run: string;
  task: string;
  /** As `status` says it: running, resumable, blocked, done, failed, cancelled. */
  status: string;
  planVersion: string;
  checkpoint: number;
  units: { total: number; succeeded: number; failed: number; blocked: number };
  lastProgressAt: string;
  updatedAt: string;
  /** Workers that could not load the run (its contract or a module) since it last made progress. */
  skipped?: RunSkip[];
  /** Why it cannot go on, one line each (`approval at U: ...`). */
  blocked: string[];
  /** Gates waiting for an approval. */
  awaitingApproval: string[];
}

export async function runsOf(store: Store, now: string = new Date().toISOString()): Promise<RunSummary[]> {
  const plans = new Map<string, Plan | undefined>();
  const out: RunSummary[] = [];
  for (const r of await store.listRuns()) out.push(await runSummaryOf(store, r, now, plans));
  return out.sort(newestFirst);
}

/** Runs by last change, newest first (then by id): the order of `runs` and of the console's list. */
export function newestFirst(a: Pick<RunRow, "updatedAt" | "run">, b: Pick<RunRow, "updatedAt" | "run">): number {
  return a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.run < b.run ? -1 : a.run > b.run ? 1 : 0;
}

/** One run's line of `runs`, its state derived as `status` derives it; `plans` caches plans by version across calls. */
export async function runSummaryOf(store: Store, r: RunRow, now: string, plans = new Map<string, Plan | undefined>()): Promise<RunSummary> {
  if (!plans.has(r.planVersion)) plans.set(r.planVersion, (await store.getPlan(r.planVersion)) as Plan | undefined);
  const plan = plans.get(r.planVersion);
  let status: string = r.status;
  let units = { total: 0, succeeded: 0, failed: 0, blocked: 0 };
  let blocked: string[] = [];
  let awaitingApproval: string[] = [];
  if (plan) {
    const { decision: d } = await decisionFor(store, plan, r.run, now);
    status = derivedStatus(r.status, d);
    units = { total: plan.units.length, succeeded: d.counts.succeeded, failed: d.counts.failed, blocked: d.counts.blocked };
    blocked = d.blocked.map((b) => `${b.reason}${b.unit ? ` at ${b.unit}` : ""}: ${b.detail}`);
    awaitingApproval = d.awaitingApproval;
  }
  const skipped = r.status === "active" ? standingSkips(await store.listEvents(r.run, { type: RUN_SKIPPED_EVENT }), r.lastProgressAt) : [];
  return {
    run: r.run,
    task: r.taskId,
    status,
    planVersion: r.planVersion,
    checkpoint: r.version,
    units,
    lastProgressAt: r.lastProgressAt,
    updatedAt: r.updatedAt,
    ...(skipped.length ? { skipped } : {}),
    blocked,
    awaitingApproval,
  };
}

export interface UnitView {
  run: string;
  unit: string;
  state: string;
  attempts: number;
  failures: number;
  lastError?: { class: string; message: string; attempt: number };
  lease?: { owner: string; token: number; attempt: number; expiresAt: string };
  /** The current record: the committed result and the digests of what it consumed. */
  current?: Pick<UnitRecord, "attempt" | "planVersion" | "result" | "sources" | "committedVersion" | "createdAt">;
  /** Earlier records (superseded or failed), newest first. */
  history: Array<Pick<UnitRecord, "attempt" | "planVersion" | "status" | "supersededReason" | "createdAt">>;
  /** Every manifest of the unit; `current` marks those of the current record. */
  artifacts: Array<
    Pick<ArtifactManifest, "name" | "path" | "sha256" | "size" | "mediaType" | "attempt" | "status" | "verifierResults"> & {
      current: boolean;
      /** When `taskspec gc` removed the file (its manifest and hash stay). */
      collectedAt?: string;
    }
  >;
  /**
   * A loop unit's committed iterations, oldest first: open ones are what the
   * next attempt resumes from, closed ones belong to a loop that is over.
   */
  iterations: Array<
    Pick<LoopIteration, "iteration" | "max" | "attempt" | "result" | "committedAt" | "closedAt"> & {
      files: Array<{ name: string; path: string; sha256: string }>;
    }
  >;
  effects: Array<
    Pick<
      EffectRecord,
      | "id"
      | "attempt"
      | "tool"
      | "toolClass"
      | "intent"
      | "argsDigest"
      | "key"
      | "state"
      | "remoteId"
      | "receipt"
      | "error"
      | "compensationState"
    >
  >;
}

export async function unitViewOf(store: Store, run: string, unit: string, now: string = new Date().toISOString()): Promise<UnitView> {
  const plan = await planOfRun(store, run);
  if (!plan.units.some((u) => u.id === unit))
    throw new NotFoundError(`run ${run} has no unit ${unit} (its units: ${plan.units.map((u) => u.id).join(", ")})`);
  const { decision: d, facts } = await decisionFor(store, plan, run, now);
  const row = facts.units.find((u) => u.unit === unit);
  const [records, artifacts, effects, iterations, collections] = await Promise.all([
    store.getRecords(run, { unit }),
    store.listArtifacts(run, { unit }),
    store.listEffects(run, { unit }),
    store.listIterations(run, { unit }),
    store.listEvents(run, { type: COLLECTED_EVENT }),
  ]);
  const removedAt = collectionsOf(collections)?.removedAt ?? {};
  const current = records.find((r) => r.status === "current");
  const lease = facts.leases.find((l) => l.unit === unit);
  return {
    run,
    unit,
    state: d.states[unit] ?? "pending",
    attempts: row?.attempts ?? 0,
    failures: row?.failures ?? 0,
    ...(row?.lastError ? { lastError: row.lastError } : {}),
    ...(lease ? { lease: { owner: lease.owner, token: lease.token, attempt: lease.attempt, expiresAt: lease.expiresAt } } : {}),
    ...(current
      ? {
          current: {
            attempt: current.attempt,
            planVersion: current.planVersion,
            result: current.result,
            sources: current.sources,
            committedVersion: current.committedVersion,
            createdAt: current.createdAt,
          },
        }
      : {}),
    history: records
      .filter((r) => r !== current)
      .sort((a, b) => b.id - a.id)
      .map((r) => ({
        attempt: r.attempt,
        planVersion: r.planVersion,
        status: r.status,
        createdAt: r.createdAt,
        ...(r.supersededReason ? { supersededReason: r.supersededReason } : {}),
      })),
    artifacts: artifacts.map((a) => ({
      name: a.name,
      path: a.path,
      sha256: a.sha256,
      size: a.size,
      mediaType: a.mediaType,
      attempt: a.attempt,
      status: a.status,
      current: current !== undefined && a.recordId === current.id,
      verifierResults: a.verifierResults,
      ...(removedAt[a.path] ? { collectedAt: removedAt[a.path] } : {}),
    })),
    iterations: iterations.map((it) => ({
      iteration: it.iteration,
      max: it.max,
      attempt: it.attempt,
      result: it.result,
      committedAt: it.committedAt,
      ...(it.closedAt ? { closedAt: it.closedAt } : {}),
      files: it.artifacts.map((a) => ({ name: a.name, path: a.path, sha256: a.sha256 })),
    })),
    effects: effects.map((e) => ({
      id: e.id,
      attempt: e.attempt,
      tool: e.tool,
      toolClass: e.toolClass,
      intent: e.intent,
      argsDigest: e.argsDigest,
      state: e.state,
      ...(e.key ? { key: e.key } : {}),
      ...(e.remoteId ? { remoteId: e.remoteId } : {}),
      ...(e.receipt !== undefined ? { receipt: e.receipt } : {}),
      ...(e.error ? { error: e.error } : {}),
      ...(e.compensationState ? { compensationState: e.compensationState } : {}),
    })),
  };
}

export async function eventsOf(store: Store, run: string, afterSeq?: number): Promise<RunEvent[]> {
  if (!(await store.getRun(run))) throw new NotFoundError(`no run ${run} in this store`);
  return store.listEvents(run, afterSeq === undefined ? {} : { afterSeq });
}

/** One event as one line for people: `#12 2026-... attempt-failed b a2 class=handler-error message="..."`. */
export function formatEvent(e: RunEvent): string {
  const data = Object.entries(e.data ?? {})
    .map(([k, v]) => `${k}=${typeof v === "string" ? (/^[\w.:/@-]+$/.test(v) ? v : JSON.stringify(v)) : JSON.stringify(v)}`)
    .join(" ");
  return [`#${e.seq ?? "?"}`, e.at, e.type, e.unit, e.attempt !== undefined ? `a${e.attempt}` : undefined, data || undefined]
    .filter((x) => x !== undefined && x !== "")
    .join(" ");
}
