/**
 * `taskspec status`: every figure of a run recomputed from the store, as data
 * (the CLI prints it as text or JSON). Counts of current / superseded / orphan
 * artifacts, baseline commits, ready / running / blocked units, lease owners,
 * budget used and left, pending approvals, UNKNOWN effects, stall signals and
 * the next safe action. No percentage alone.
 */
import type { Plan } from "@taskspec/compiler";
import { RUN_SKIPPED_EVENT, standingSkips, type RunSkip } from "./skipped.js";
import { COLLECTED_EVENT, collectionsOf, type CollectionSummary } from "./gc-plan.js";
import type { ArtifactStorage } from "../artifacts/storage.js";
import { currentApproval, preparedRequests, type PreparedRequest } from "../engine/approvals.js";
import { iterationsToResume } from "../engine/attempt-prepare.js";
import { decideRun } from "../engine/decide-run.js";
import { VERIFIER_MODULE_EVENT } from "../engine/verifier-module.js";
import { NotFoundError } from "../errors.js";
import {
  BASELINE_KINDS,
  BUDGET_NAMES,
  type BudgetAmounts,
  type EffectRecord,
  type Lease,
  type LoopIteration,
  type RunEvent,
} from "../model/facts.js";
import type { BlockedReason, Decision } from "../scheduler/decide.js";
import { detectStalls, type StallSignal } from "../scheduler/stall.js";
import type { Store } from "../store/types.js";

export interface StatusReport {
  run: string;
  task: string;
  status: string;
  planVersion: string;
  inputVersion: string;
  contract?: string;
  handlers?: string;
  /** The verifier module the run's worker used last (event `verifier-module`): path and sha256 of its file. */
  verifierModule?: { path: string; sha256: string };
  checkpoint: { version: number; kind: string; committedAt: string };
  counts: {
    units: number;
    /** Units whose current result is committed and valid. */
    current: number;
    /** Completions that a change later invalidated (kept, never deleted). */
    superseded: number;
    pending: number;
    ready: number;
    running: number;
    blocked: number;
    failed: number;
    /** Units superseded and waiting to re-run. */
    waitingRerun: number;
  };
  artifacts: { current: number; superseded: number; orphan: number; rejected: number; corrupt: number; orphans: string[] };
  baselineCommits: number;
  checkpoints: number;
  events: number;
  units: Array<{
    unit: string;
    state: string;
    attempts: number;
    reason?: string;
    superseded?: string;
    /** A unit inside its loop: `current` of `max` is the iteration running or next, after `committed` committed ones. */
    iteration?: { current: number; max: number; committed: number };
    /** A unit waiting out its retry backoff: its next attempt starts at `at`, `inMs` from the status's `now`. */
    retry?: { at: string; inMs: number };
  }>;
  /** `reserved`: the declared cost its attempt booked at the claim (in `budget.used` already). */
  leases: Array<{ unit: string; owner: string; token: number; expiresAt: string; live: boolean; reserved?: BudgetAmounts }>;
  lastProgressAt: string;
  /** Workers that could not load the run (its contract or a module) since it last made progress (operator/skipped.ts). */
  skipped?: RunSkip[];
  /** `reserved`: of `used`, what the attempts running now booked at their claims (declared cost not yet drawn or beyond). */
  budget: { used: BudgetAmounts; caps: BudgetAmounts; left: BudgetAmounts; reserved: BudgetAmounts };
  approvals: {
    pending: Array<{ unit: string; tokenExpiresAt?: string }>;
    granted: Array<{ id: string; unit: string; current: boolean; expiresAt: string }>;
  };
  unknownEffects: Array<{ id: string; unit: string; tool: string; key?: string; intent: string; state: string }>;
  /** Requests prepared at gates in front of irreversible calls: exactly what an approval releases (never sent yet). */
  prepared: PreparedRequest[];
  supersededUnits: Array<{ unit: string; attempt: number; planVersion: string; reason: string }>;
  blocked: BlockedReason[];
  stall: StallSignal[];
  recentErrors: Array<{ unit?: string; attempt?: number; class?: string; message?: string; at: string }>;
  /** What `taskspec gc` removed from the run (file and payload counts, the last collection); absent: nothing yet. */
  collected?: Omit<CollectionSummary, "removedAt">;
  nextSafeAction: string;
}

/** The plan a run carries out: the version its row records, read from the store. */
export async function planOfRun(store: Store, run: string): Promise<Plan> {
  const r = await store.getRun(run);
  if (!r) throw new NotFoundError(`no run ${run} in this store`);
  const plan = (await store.getPlan(r.planVersion)) as Plan | undefined;
  if (!plan) throw new NotFoundError(`the store has no plan ${r.planVersion} for run ${run}`);
  return plan;
}

export async function decisionFor(
  store: Store,
  plan: Plan,
  run: string,
  now: string,
): Promise<{ decision: Decision; facts: Awaited<ReturnType<Store["loadFacts"]>> }> {
  const facts = await store.loadFacts(run);
  const { decision } = await decideRun(store, plan, run, facts, now, { planVersion: facts.run.planVersion, owner: "" });
  return { decision, facts };
}

export async function statusOf(
  store: Store,
  storage: ArtifactStorage,
  run: string,
  now: string = new Date().toISOString(),
): Promise<StatusReport> {
  const plan = await planOfRun(store, run);
  const { decision: d, facts } = await decisionFor(store, plan, run, now);
  const r = facts.run;
  const [checkpoints, artifacts, records, events, effects, approvals, pendingTokens, files, iterations] = await Promise.all([
    store.listCheckpoints(run),
    store.listArtifacts(run),
    store.getRecords(run),
    statusEvents(store, run),
    store.listEffects(run),
    store.listApprovals(run),
    store.pendingResumeTokens(run, now),
    storage.listRunFiles(run),
    store.listIterations(run, { open: true }),
  ]);
  const latest = checkpoints[checkpoints.length - 1]!;
  const skipped = r.status === "active" ? standingSkips(events.skips, r.lastProgressAt) : [];
  const verifierModule = events.verifierModule.at(-1)?.data;
  const currentRecords = new Set(records.filter((x) => x.status === "current").map((x) => x.id));
  const known = new Set(artifacts.map((a) => a.path));
  const orphans = files.filter((f) => !known.has(f));
  const left: BudgetAmounts = {};
  for (const name of BUDGET_NAMES) {
    const cap = r.caps[name];
    if (cap !== undefined) left[name] = cap - (r.budgetUsed[name] ?? 0);
  }
  // a request held at a gate never started: it is shown as prepared, not as an effect of unknown outcome
  const unknownEffects = effects.filter((e) => e.state === "UNKNOWN" || e.state === "STARTED" || (e.state === "PREPARED" && !e.held));
  const rowOf = new Map(facts.units.map((u) => [u.unit, u]));
  const granted = [];
  for (const a of approvals) {
    const cur = await currentApproval(store, plan, run, a.unit, r.planVersion, now);
    granted.push({ id: a.id, unit: a.unit, current: cur?.id === a.id, expiresAt: a.expiresAt });
  }
  const report: StatusReport = {
    run,
    task: r.taskId,
    status: derivedStatus(r.status, d),
    planVersion: r.planVersion,
    inputVersion: r.inputVersion,
    ...(r.origin.contract ? { contract: r.origin.contract } : {}),
    ...(r.origin.handlers ? { handlers: r.origin.handlers } : {}),
    ...(typeof verifierModule?.path === "string" && typeof verifierModule.sha256 === "string"
      ? { verifierModule: { path: verifierModule.path, sha256: verifierModule.sha256 } }
      : {}),
    checkpoint: { version: latest.version, kind: latest.kind, committedAt: latest.committedAt },
    counts: {
      units: plan.units.length,
      current: d.counts.succeeded,
      superseded: records.filter((x) => x.status === "superseded").length,
      pending: d.counts.pending,
      ready: d.counts.ready,
      running: d.counts.running,
      blocked: d.counts.blocked,
      failed: d.counts.failed,
      waitingRerun: d.counts.superseded,
    },
    artifacts: {
      current: artifacts.filter((a) => a.status === "committed" && a.recordId !== undefined && currentRecords.has(a.recordId)).length,
      superseded: artifacts.filter((a) => a.status === "committed" && (a.recordId === undefined || !currentRecords.has(a.recordId))).length,
      orphan: orphans.length,
      rejected: artifacts.filter((a) => a.status === "rejected").length,
      corrupt: artifacts.filter((a) => a.status === "corrupt").length,
      orphans,
    },
    baselineCommits: checkpoints.filter((c) => BASELINE_KINDS.includes(c.kind)).length,
    checkpoints: checkpoints.length,
    events: events.total,
    units: plan.units.map((u) => {
      const row = rowOf.get(u.id);
      const blocked = d.blocked.find((b) => b.unit === u.id);
      return {
        unit: u.id,
        state: d.states[u.id] ?? "pending",
        attempts: row?.attempts ?? 0,
        ...(blocked
          ? { reason: `${blocked.reason}: ${blocked.detail}` }
          : row?.hold?.reason === "out-of-scope"
            ? { reason: `out-of-scope: ${row.hold.detail}` }
            : row?.lastError && d.states[u.id] === "failed"
              ? { reason: `${row.lastError.class}: ${row.lastError.message}` }
              : {}),
        ...(row?.superseded ? { superseded: row.superseded.path } : {}),
        ...(u.loop && d.states[u.id] !== "succeeded" ? loopProgress(iterations.filter((it) => it.unit === u.id)) : {}),
        ...retryOf(d, u.id, now),
      };
    }),
    leases: facts.leases.map((l) => ({
      unit: l.unit,
      owner: l.owner,
      token: l.token,
      expiresAt: l.expiresAt,
      live: d.running.some((x) => x.token === l.token),
      ...(l.reserved ? { reserved: l.reserved } : {}),
    })),
    lastProgressAt: r.lastProgressAt,
    ...collectedOf(events.collected),
    ...(skipped.length ? { skipped } : {}),
    budget: { used: r.budgetUsed, caps: r.caps, left, reserved: reservedByRunning(facts.leases, d.running) },
    approvals: {
      pending: d.awaitingApproval.map((unit) => {
        const t = pendingTokens.find((p) => p.unit === unit);
        return { unit, ...(t ? { tokenExpiresAt: t.expiresAt } : {}) };
      }),
      granted,
    },
    unknownEffects: unknownEffects.map((e: EffectRecord) => ({
      id: e.id,
      unit: e.unit,
      tool: e.tool,
      intent: e.intent,
      state: e.state,
      ...(e.key ? { key: e.key } : {}),
    })),
    prepared: await preparedRequests(store, run, now),
    supersededUnits: records
      .filter((x) => x.status === "superseded")
      .map((x) => ({ unit: x.unit, attempt: x.attempt, planVersion: x.planVersion, reason: x.supersededReason ?? "" })),
    blocked: d.blocked,
    stall: detectStalls(r, d, events.recent, facts.leases, now),
    recentErrors: events.errors.map((e) => ({
      at: e.at,
      ...(e.unit ? { unit: e.unit } : {}),
      ...(e.attempt ? { attempt: e.attempt } : {}),
      ...(e.data?.class ? { class: String(e.data.class) } : {}),
      ...(e.data?.message ? { message: String(e.data.message) } : {}),
    })),
    nextSafeAction: "",
  };
  report.nextSafeAction = nextSafeAction(report, d);
  return report;
}

/** When a unit waiting out its retry backoff starts its next attempt. */
function retryOf(d: Decision, unit: string, now: string): { retry?: { at: string; inMs: number } } {
  const waiting = d.backingOff.find((b) => b.unit === unit);
  return waiting ? { retry: { at: waiting.notBefore, inMs: Math.max(0, Date.parse(waiting.notBefore) - Date.parse(now)) } } : {};
}

/** Where a unit is inside its loop: the latest loop's committed iterations (1..k) and the one running or next. */
export function loopProgress(open: readonly LoopIteration[]): { iteration?: { current: number; max: number; committed: number } } {
  const latest = [...open].sort((a, b) => a.committedAt.localeCompare(b.committedAt)).at(-1);
  if (!latest) return {};
  const committed = iterationsToResume(
    open.filter((it) => it.loop === latest.loop),
    latest.max,
  ).length;
  return { iteration: { current: Math.min(committed + 1, latest.max), max: latest.max, committed } };
}

export function nextSafeAction(s: StatusReport, d: Decision): string {
  const run = s.run;
  if (s.status === "done") return "none: the run is done and task.done passed on the final artifacts";
  if (s.status === "cancelled") return "none: the run was cancelled";
  const hold = d.blocked.find((b) => !b.unit);
  if (hold?.reason === "budget")
    return `raise the cap with a recorded decision: taskspec budget ${run} --cap <budget>=<n> --reason "..." (${hold.detail})`;
  if (hold?.reason === "cancelling") return `finish the cancel: ${hold.detail}`;
  if (hold?.reason === "needs-expert") return `expert handling: ${hold.detail}; when it is settled: taskspec unflag ${run}`;
  if (hold?.reason === "compensation-failed") return `fix the remote by hand, then retry: taskspec cancel ${run} (${hold.detail})`;
  if (hold) return `inspect: ${hold.detail}; then taskspec rerun ${run} <unit> or taskspec cancel ${run}`;
  const unknown = d.blocked.find((b) => b.reason === "unknown-effect");
  if (unknown) return `resolve the UNKNOWN effect by checking the remote: ${unknown.detail}`;
  if (s.counts.running)
    return `wait: ${s.leases
      .filter((l) => l.live)
      .map((l) => `${l.unit} (lease ${l.owner} until ${l.expiresAt})`)
      .join(", ")} running`;
  const retry = d.ready.length === 0 ? d.backingOff[0] : undefined;
  if (retry && s.status === "resumable")
    return `wait: ${retry.unit} retries at ${retry.notBefore} (retry backoff after a failed attempt); a worker sleeps until then, or with none running: taskspec resume ${run}`;
  if (s.status === "resumable") return `resume: taskspec resume ${run}`;
  if (d.awaitingApproval.length) {
    const gate = d.awaitingApproval[0]!;
    // at a gate in front of an irreversible call: what will be sent comes first
    const look = s.prepared.some((p) => p.unit === gate) ? `see what will be sent (taskspec approve ${run} ${gate} --dry-run), then ` : "";
    return `${look}approve the gate(s) ${d.awaitingApproval.join(", ")}: taskspec approve ${run} ${gate} --token <the resume token printed when it blocked> (or --operator-key-file <file>)`;
  }
  const budget = d.blocked.find((b) => b.reason === "budget");
  if (budget) return `raise the cap: taskspec budget ${run} --cap <budget>=<n> (${budget.detail})`;
  if (s.counts.failed)
    return `re-run the failed unit(s) after fixing the cause: taskspec rerun ${run} ${s.units.find((u) => u.state === "failed")?.unit}, or taskspec cancel ${run}`;
  return `inspect: taskspec handoff ${run}`;
}

/**
 * `active` is split for people: running (a live lease), resumable (work can go
 * on, also once a retry backoff is over), or blocked. An open effect of a unit already held for it (its outcome
 * waits for `taskspec resolve`) is a person's to settle, not work to resume.
 */
export function derivedStatus(status: string, d: Decision): string {
  if (status !== "active") return status;
  if (d.running.length) return "running";
  const reconcilable = d.toReconcile.filter((e) => d.states[e.unit] !== "blocked");
  if (d.ready.length || d.breakableLeases.length || reconcilable.length || d.allSucceeded) return "resumable";
  // a unit waiting out its retry backoff is work that goes on by itself once the wait is over, not a block
  if (d.backingOff.length) return "resumable";
  return "blocked";
}

/** What the attempts running now (live leases) booked at their claims, summed per budget. */
function reservedByRunning(leases: readonly Lease[], running: readonly Lease[]): BudgetAmounts {
  const out: BudgetAmounts = {};
  for (const l of leases)
    if (running.some((x) => x.token === l.token))
      for (const [name, n] of Object.entries(l.reserved ?? {}) as Array<[keyof BudgetAmounts, number]>) out[name] = (out[name] ?? 0) + n;
  return out;
}

/** The gc summary status shows: the counts, without every removed path. */
function collectedOf(events: Parameters<typeof collectionsOf>[0]): { collected?: Omit<CollectionSummary, "removedAt"> } {
  const c = collectionsOf(events);
  if (!c) return {};
  const { removedAt: _paths, ...counts } = c;
  return { collected: counts };
}

const ERROR_EVENTS = ["attempt-failed", "stale-commit-rejected", "compensation-failed"] as const;

/**
 * The events status reads, each by its type or as the log's newest window:
 * never the whole log, so a run of 100,000 events costs the status reader
 * (and the console's run panel, which refreshes from it) what a short one
 * does (bench/RESULTS.md "console: run panel figures").
 */
async function statusEvents(store: Store, run: string) {
  const [window, skips, verifierModule, collected, ...errors] = await Promise.all([
    store.eventsWindow(run, { limit: 50 }),
    store.listEvents(run, { type: RUN_SKIPPED_EVENT }),
    store.listEvents(run, { type: VERIFIER_MODULE_EVENT }),
    store.listEvents(run, { type: COLLECTED_EVENT }),
    ...ERROR_EVENTS.map((type) => store.listEvents(run, { type })),
  ]);
  const recentErrors: RunEvent[] = errors
    .flat()
    .sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0))
    .slice(-10);
  return { total: window.total, recent: window.events, skips, verifierModule, collected, errors: recentErrors };
}
