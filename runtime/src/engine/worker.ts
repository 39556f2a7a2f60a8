/**
 * The worker loop: resume (verify, reconcile, re-plan), then repeatedly
 * decide from persisted facts, claim ready units with fencing tokens, run
 * attempts and commit their outcomes. Completions that finish together are
 * committed in one transaction (group commit). Every decision is recomputed
 * from the store, so killing this process anywhere loses nothing committed.
 */
import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { Plan, PlanUnit } from "@taskspec/compiler";
import { CorruptArtifactError } from "../artifacts/storage.js";
import {
  InvalidTransitionError,
  LeaseHeldError,
  PlanVersionChangedError,
  RuntimeError,
  StaleFencingTokenError,
  VersionConflictError,
  VolatileInputError,
} from "../errors.js";
import { reconcileEffect } from "../ledger/reconcile.js";
import { reservationOf } from "../model/budget.js";
import type {
  CheckpointHeader,
  EffectRecord,
  Lease,
  NextAction,
  RunEvent,
  RunStatus,
  SourceDigests,
  UnitStateRow,
} from "../model/facts.js";
import { canonicalJson, sha256 } from "../model/identity.js";
import { attemptsExhausted, decide, type BlockedReason, type Decision } from "../scheduler/decide.js";
import { retryNotBefore } from "../scheduler/backoff.js";
import { decideUnknownRetry } from "./unknown-retry.js";
import { nextStep, type Step, type StepInput } from "../scheduler/next-step.js";
import type { CheckpointCommit, Claim, RunFacts, UnitChange } from "../store/types.js";
import { isStoreUnavailable } from "../store/unavailable.js";
import { issueResumeToken, openGates } from "./approvals.js";
import { endsReplay } from "./paid-replay.js";
import { forget, noteClaim, progressMark, restartsCount, SPIN_LIMIT, type SpinState } from "../scheduler/spin-guard.js";
import { runAttempt, type AttemptOutcome } from "./attempt.js";
import { nowIso, type EngineCore } from "./core.js";
import { invalidateFrom, planChangeChanges, sourcesUnchanged, supersedeChanges } from "./invalidate.js";
import { verifyChain } from "./chain.js";
import { runVerifiers } from "./verify.js";
import { detectStalls } from "../scheduler/stall.js";
import { impact } from "@taskspec/compiler";
import { ownEntry } from "../model/own.js";

/** An attempt's wall-clock time and the event that records its booking. */
interface AttemptTime {
  amounts: { wall_clock_ms: number };
  event: Omit<RunEvent, "run" | "seq">;
}

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
}

export interface Progress {
  counts: Decision["counts"];
  total: number;
  budgetUsed: Record<string, number>;
  caps: Record<string, number>;
  lastEvent: string;
}

export interface RunOutcome {
  status: RunStatus | "blocked";
  blocked: BlockedReason[];
  /** Tokens issued in this call for gates that wait (print them for the approver). */
  resumeTokens: Array<{ unit: string; token: string; expiresAt: string }>;
  counts: Decision["counts"];
}

export function newOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/** A lease held by a process of this host that no longer exists (or by an earlier worker of this very process). */
export function ownerIsDead(owner: string, self: string): boolean {
  const [host, pidText] = owner.split(":");
  if (host !== hostname() || owner === self) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/** A finished or failed run that a change reaches is open again; a cancelled one stays cancelled. */
const reopen = (status: RunStatus): { status?: RunStatus } => (status === "done" || status === "failed" ? { status: "active" } : {});

const ev = (core: EngineCore, type: string, extra: { unit?: string; attempt?: number; data?: Record<string, unknown> } = {}) => ({
  at: nowIso(core),
  type,
  ...extra,
});

/** Creates the run (version 0) if the store does not have it yet. */
export async function ensureRun(core: EngineCore, origin: { contract?: string; handlers?: string }): Promise<boolean> {
  if (await core.store.getRun(core.run)) return false;
  const b = core.plan.budgets;
  try {
    await createRun(core, origin, b);
  } catch (err) {
    // Another worker created it between our check and our insert: resume theirs.
    if (err instanceof InvalidTransitionError && (await core.store.getRun(core.run))) return false;
    throw err;
  }
  return true;
}

async function createRun(
  core: EngineCore,
  origin: { contract?: string; handlers?: string },
  b: EngineCore["plan"]["budgets"],
): Promise<void> {
  await core.store.createRun({
    run: core.run,
    taskId: core.plan.task.id,
    planVersion: core.planVersion,
    inputVersion: core.inputVersion,
    plan: core.plan,
    caps: {
      ...(b.model_calls !== undefined ? { model_calls: b.model_calls } : {}),
      ...(b.tool_calls !== undefined ? { tool_calls: b.tool_calls } : {}),
      ...(b.tokens !== undefined ? { tokens: b.tokens } : {}),
      ...(b.wall_clock_ms !== undefined ? { wall_clock_ms: b.wall_clock_ms } : {}),
    },
    units: core.plan.units.map((u) => u.id),
    origin: { ...origin, artifactRoot: core.storage.location },
    now: nowIso(core),
  });
}

export class Worker {
  private version = 0;
  private lastDecision: Decision | undefined;
  private readonly inflight = new Map<string, Promise<void>>();
  private readonly queue: Array<{
    commit: CheckpointCommit;
    resolve: (h: CheckpointHeader | undefined) => void;
    reject: (e: unknown) => void;
  }> = [];
  private flushScheduled = false;
  private readonly reconciled = new Set<string>();

  constructor(
    private readonly core: EngineCore,
    private readonly options: WorkerOptions = {},
  ) {}

  /**
   * The resume algorithm of runtime.md, then the run loop until done, blocked,
   * failed or cancelled. Throws PlanVersionChangedError (once its attempts in
   * flight have settled) when the run moves to another plan meanwhile: the
   * caller reloads the run's contract.
   */
  async run(): Promise<RunOutcome> {
    await this.prepare();
    try {
      return await this.loop();
    } catch (err) {
      this.abandonInflight();
      throw err;
    }
  }

  /**
   * The loop ended with an error (a store outage, say) while attempts were still in flight: nobody
   * awaits them any more (`run` and `resume` start a new worker after an outage), so an attempt that
   * fails to record its end would be an unhandled rejection and end the process. Its lease runs out
   * instead and the next claim settles the unit; the reason is logged.
   */
  private abandonInflight(): void {
    for (const [unit, p] of this.inflight)
      p.catch((err: unknown) =>
        this.core.log(
          `taskspec: attempt of ${unit} ended after its worker stopped (${err instanceof Error ? err.message : String(err)}); its lease runs out and the next claim settles the unit`,
        ),
      );
  }

  /** Verify chain and artifacts, apply plan/input changes, refresh volatile evidence. Idempotent. */
  async prepare(): Promise<void> {
    const { store, run } = this.core;
    verifyChain(await store.listChainLinks(run));
    const facts = await store.loadFacts(run);
    this.version = facts.run.version;
    this.runStatus = facts.run.status;
    const oldPlan = (await store.getPlan(facts.run.planVersion)) as Plan | undefined;
    await this.commitDirect((f) => {
      if (f.run.planVersion === this.core.planVersion && f.run.inputVersion === this.core.inputVersion) return undefined;
      if (f.run.planVersion !== facts.run.planVersion)
        throw new RuntimeError(`run ${run} moved to plan ${f.run.planVersion} while this resume started; resume again`);
      if (!oldPlan)
        throw new RuntimeError(`the store has no plan ${f.run.planVersion} to compare with; cannot compute what the change invalidates`);
      const { changes, edit } = planChangeChanges(oldPlan, this.core.plan, this.core.planVersion, f.units);
      return {
        kind: "plan-change",
        changes,
        ...reopen(f.run.status),
        plan: { planVersion: this.core.planVersion, inputVersion: this.core.inputVersion, plan: this.core.plan },
        planVersion: this.options.planVersionRead ?? f.run.planVersion,
        approvals: [],
        nextAction: { kind: "run", units: [] },
        events: [
          ev(this.core, "plan-changed", {
            data: {
              from: f.run.planVersion,
              to: this.core.planVersion,
              changes: edit.diff.changes,
              added: edit.diff.units.added,
              removed: edit.diff.units.removed,
            },
          }),
          ...changes
            .filter((c) => c.kind === "supersede")
            .map((c) => ev(this.core, "superseded", { unit: c.unit, data: { path: c.kind === "supersede" ? c.info.path : "" } })),
        ],
        now: nowIso(this.core),
      };
    });
    await this.refreshVolatileInputs();
    await this.checkArtifacts();
  }

  private async refreshVolatileInputs(): Promise<void> {
    const { store, run, plan, handlers } = this.core;
    for (const input of plan.inputs) {
      const reader = handlers.inputs?.[input.name];
      if (!input.volatile || !reader) continue;
      let value: unknown;
      try {
        value = await reader({ run: { id: run }, input: input.name });
      } catch (err) {
        throw new VolatileInputError(input.name, run, err instanceof Error ? err.message : String(err));
      }
      const digest = sha256(canonicalJson(value ?? null) + input.definitionHash);
      const readers = plan.units.filter((u) => u.needs.some((n) => n.node === input.name));
      let stale = false;
      for (const u of readers) {
        const [rec] = await store.getRecords(run, { unit: u.id, status: "current" });
        const seen = rec?.sources[`input:${input.name}`]?.[0]?.sha256;
        if (seen !== undefined && seen !== digest) stale = true;
      }
      if (!stale) continue;
      const report = impact(plan, [{ origin: input.name, kinds: "all" }]);
      await this.commitDirect((f) => {
        const changes = supersedeChanges(plan, this.core.planVersion, report.invalidated, f.units);
        return changes.length
          ? this.decisionCommit(changes, [
              ev(this.core, "stale-evidence-dropped", { data: { input: input.name, units: changes.map((c) => c.unit) } }),
            ])
          : undefined;
      });
    }
  }

  private async checkArtifacts(): Promise<void> {
    const { store, run, storage } = this.core;
    const current = await store.listArtifacts(run, { status: "committed" });
    const records = new Map((await store.getRecords(run, { status: "current" })).map((r) => [r.id, r]));
    for (const a of current) {
      if (a.recordId === undefined || !records.has(a.recordId)) continue;
      try {
        if (this.options.verifyArtifacts === "size") {
          const size = await storage.size(a.path);
          if (size !== a.size) throw new CorruptArtifactError(a.path, a.sha256, size === undefined ? undefined : `size ${size}`);
        } else {
          await storage.read(a.path, a.sha256);
        }
      } catch (err) {
        if (!(err instanceof CorruptArtifactError)) throw err;
        await this.handleCorrupt(a.unit, a.path, err.message);
      }
    }
  }

  private async handleCorrupt(producer: string, path: string, message: string): Promise<void> {
    const { store, run, plan } = this.core;
    await store.markArtifactCorrupt(run, path, ev(this.core, "artifact-corrupt", { unit: producer, data: { path, message } }));
    await this.commitDirect((f) => {
      const changes = invalidateFrom(plan, this.core.planVersion, producer, `corrupt artifact ${path}`, f.units);
      return changes.length
        ? this.decisionCommit(
            changes,
            changes.map((c) => ev(this.core, "superseded", { unit: c.unit, data: { reason: "corrupt", path } })),
          )
        : undefined;
    });
  }

  private decisionCommit(changes: UnitChange[], events: CheckpointCommit["events"]): CheckpointCommit {
    return {
      kind: "decision",
      changes,
      approvals: this.approvalIds,
      nextAction: this.nextAction(),
      events,
      now: nowIso(this.core),
      ...reopen(this.runStatus),
    };
  }
  private runStatus: RunStatus = "active";
  /** Approvals current at the last decision: recorded in every checkpoint this worker commits. */
  private approvalIds: string[] = [];

  private nextAction(): NextAction {
    const d = this.lastDecision;
    if (!d) return { kind: "run", units: [] };
    if (d.allSucceeded) return { kind: "verify-done" };
    if (d.ready.length) return { kind: "run", units: d.ready.slice(0, 10) };
    return { kind: "blocked", reasons: d.blocked };
  }

  /**
   * A commit outside the group queue (plan change, corruption, cutoff, failure).
   * It is built from fresh facts and, on a version race, rebuilt from the
   * facts as they are then: a change another worker already made is not made
   * twice (the builder returns undefined when nothing is left to do).
   */
  private async commitDirect(build: (facts: RunFacts) => CheckpointCommit | undefined): Promise<CheckpointHeader | undefined> {
    for (;;) {
      const facts = await this.core.store.loadFacts(this.core.run);
      this.version = facts.run.version;
      const commit = build(facts);
      if (!commit) return undefined;
      try {
        const h = await this.core.store.commitCheckpoint(this.core.run, facts.run.version, commit);
        this.version = h.version;
        return h;
      } catch (err) {
        if (!(err instanceof VersionConflictError)) throw err;
      }
    }
  }

  /** Unit rows as of `cacheSeq`; each step reads only the rows changed since (a plan change reloads all). */
  private unitCache: Map<string, UnitStateRow> | undefined;
  private cacheSeq = 0;
  private cachePlanVersion = "";

  private async loadFactsIncrementally(): Promise<RunFacts> {
    const { store, run } = this.core;
    if (this.unitCache) {
      const delta = await store.loadFacts(run, this.cacheSeq);
      if (delta.run.planVersion === this.cachePlanVersion) {
        for (const u of delta.units) this.unitCache.set(u.unit, u);
        this.cacheSeq = delta.changeSeq;
        return { ...delta, units: [...this.unitCache.values()] };
      }
    }
    const full = await store.loadFacts(run);
    this.unitCache = new Map(full.units.map((u) => [u.unit, u]));
    this.cacheSeq = full.changeSeq;
    this.cachePlanVersion = full.run.planVersion;
    return full;
  }

  private async decideNow(): Promise<{ decision: Decision; approvalIds: string[] }> {
    const { store, run, plan } = this.core;
    const facts = await this.loadFactsIncrementally();
    this.version = Math.max(this.version, facts.run.version);
    const now = nowIso(this.core);
    const gates = await openGates(store, plan, run, this.core.planVersion, facts, now);
    const approvalIds = gates.approvalIds;
    const deadOwners = new Set(
      facts.leases.filter((l) => !this.inflight.has(l.unit) && ownerIsDead(l.owner, this.core.owner)).map((l) => l.owner),
    );
    const decision = decide({
      plan,
      run: facts.run,
      units: facts.units,
      leases: facts.leases,
      openEffects: facts.openEffects,
      approvedGates: gates.gates,
      gateDetails: gates.details,
      stopped: this.stopped,
      deadOwners,
      now,
    });
    this.lastDecision = decision;
    this.facts = facts;
    return { decision, approvalIds };
  }
  private facts: RunFacts | undefined;
  /** Claims of each unit since its last progress, and the units this worker stopped claiming (spin-guard.ts). */
  private spin: SpinState = {};
  private readonly stopped = new Map<string, string>();

  /** Decides from the store, asks nextStep (scheduler/next-step.ts) what comes next, executes that one step; again. */
  private async loop(): Promise<RunOutcome> {
    const concurrency = Math.max(1, this.options.concurrency ?? 1);
    const resumeTokens: RunOutcome["resumeTokens"] = [];
    for (;;) {
      const { decision: d, approvalIds } = await this.decideNow();
      this.approvalIds = approvalIds;
      const facts = this.facts!;
      const input = (): StepInput => ({
        decision: d,
        run: facts.run,
        planVersion: this.core.planVersion,
        units: facts.units,
        inflight: new Set(this.inflight.keys()),
        concurrency,
        stopping: this.options.stop?.aborted === true,
        reconciled: this.reconciled,
        nowMs: this.core.clock.now().getTime(),
      });
      let step = nextStep(input());
      if (step.kind !== "plan-changed" && step.kind !== "finish") this.progress(d, facts.run.budgetUsed, facts.run.caps);
      // Claiming changes what this worker holds, not the decision: what follows a claim is asked of the same decision.
      if (step.kind === "claim") step = nextStep({ ...input(), claimed: await this.claimUnits(step.units, concurrency) });
      const outcome = await this.execute(step, d, approvalIds, resumeTokens);
      if (outcome) return outcome;
    }
  }

  /** Executes one step; a step that ends the loop returns the run's outcome. */
  private async execute(
    step: Step,
    d: Decision,
    approvalIds: string[],
    resumeTokens: RunOutcome["resumeTokens"],
  ): Promise<RunOutcome | undefined> {
    const { store, run } = this.core;
    switch (step.kind) {
      case "plan-changed":
        // Another contract is the run's now: what is in flight settles (its commits are refused and discarded), then reload.
        if (step.settle) await Promise.race(this.inflight.values());
        else throw new PlanVersionChangedError(run, this.core.planVersion, step.planVersion);
        return undefined;
      case "finish":
        return this.finish(step.status, d, resumeTokens);
      case "break-leases":
        for (const l of step.leases) await this.breakLease(l);
        return undefined;
      case "reconcile":
        await this.reconcile(step.effects);
        return undefined;
      case "lift-budget-hold":
        await store.setRunHold(
          run,
          null,
          ev(this.core, "unblocked", { data: { reason: "budget", detail: "caps now cover the refused charge" } }),
        );
        return undefined;
      case "stop-at-hold":
        await store.appendEvents(run, [ev(this.core, "blocked", { data: { reason: this.facts!.run.hold?.reason } })]);
        return { status: "blocked", blocked: d.blocked, resumeTokens, counts: d.counts };
      case "fail-exhausted":
        for (const unit of step.units) await this.failExhausted(unit, approvalIds);
        return undefined;
      case "verify-done":
        return (await this.verifyDone()) ? this.finish("done", d, resumeTokens) : undefined;
      case "claim": // answered in loop(): nextStep never asks to claim twice for one decision
      case "decide-again":
        return undefined;
      case "wait":
        await this.sleep(step.ms, step.on === "attempts" ? this.inflight.values() : []);
        return undefined;
      case "fail-run":
        await store.setRunStatus(run, "failed", ev(this.core, "run-failed", { data: { units: step.units } }));
        return this.finish("failed", d, resumeTokens);
      case "block":
        return this.block(step.blocked, d, resumeTokens);
    }
  }

  /** Each open effect is looked up at most once per worker run: a failed lookup blocks, it does not spin. */
  private async reconcile(effects: EffectRecord[]): Promise<void> {
    const { store, run, plan } = this.core;
    for (const e of effects) {
      this.reconciled.add(e.id);
      const fence = await this.recoveryLease(e.unit);
      if (fence === "plan-changed") {
        this.reconciled.delete(e.id); // reconciled under the run's new plan, by the reloaded worker
        break;
      }
      try {
        const resolution = await reconcileEffect(
          {
            store,
            plan,
            handlers: this.core.handlers,
            crash: this.core.crash,
            now: () => nowIso(this.core),
            envFor: (x) => this.templateEnv(x.unit, x.attempt),
            ...(fence ? { tokenFor: () => fence.token } : {}),
          },
          e,
        );
        if (fence && resolution === "absent") await this.countUnknownRetry(e, fence.token);
      } finally {
        if (fence) await store.releaseLease(run, e.unit, fence.token).catch(() => undefined);
      }
    }
  }

  /**
   * An attempt that ended uncounted on an effect of unknown outcome, which recovery found absent, made nothing:
   * its failure is counted now (unknown-retry.ts), under the recovery lease, which ending the attempt releases.
   */
  private async countUnknownRetry(effect: EffectRecord, token: number): Promise<void> {
    const { store, run, plan } = this.core;
    const interrupted = await store.listEvents(run, { type: "attempt-interrupted" });
    const lookup = plan.tools.find((t) => t.name === effect.tool)?.lookup;
    const verdict = decideUnknownRetry({
      effect,
      resolution: "absent",
      ...(lookup ? { lookup } : {}),
      interruptedBy: interrupted.some((x) => x.unit === effect.unit && x.data?.reason === "unknown-effect" && x.data?.effect === effect.id),
    });
    if (!verdict.count) return;
    const unit = plan.units.find((u) => u.id === effect.unit);
    if (!unit) return;
    const failures = (this.unitCache?.get(unit.id)?.failures ?? 0) + 1;
    const retry = retryNotBefore(unit, failures, nowIso(this.core), Math.random());
    const e = (type: string, data: Record<string, unknown> = {}) => ev(this.core, type, { unit: unit.id, attempt: effect.attempt, data });
    await store.endAttempt(
      run,
      unit.id,
      token,
      {
        countsAsFailure: true,
        error: verdict.error,
        rejected: [],
        ...(retry ? { notBefore: retry.notBefore } : {}),
        planVersion: this.core.planVersion,
      },
      [
        e("attempt-failed", { class: verdict.error.class, message: verdict.error.message, effect: effect.id, after: "unknown-effect" }),
        ...(retry
          ? [e("retry-scheduled", { delayMs: retry.delayMs, notBefore: retry.notBefore, failures, retryMax: unit.retry.max })]
          : []),
      ],
    );
  }

  /** Commits an exhausted unit failed (unless another worker did, or its row moved on). */
  private async failExhausted(unit: string, approvalIds: string[]): Promise<void> {
    const planUnit = this.core.plan.units.find((u) => u.id === unit);
    const retryMax = planUnit?.retry.max ?? 0;
    await this.commitDirect((f) => {
      const row = f.units.find((u) => u.unit === unit);
      if (!row || row.state === "failed" || row.state === "succeeded" || !planUnit || !attemptsExhausted(planUnit, row)) return undefined;
      return {
        kind: "unit-failed",
        changes: [
          {
            kind: "fail",
            unit,
            attempt: row.attempts,
            error:
              row.lastError?.class === "worker-lost"
                ? {
                    class: "worker-lost",
                    message: `crash-loop: ${row.lastError.message}; retry.max is ${retryMax}`,
                  }
                : row.lastError
                  ? { class: row.lastError.class, message: row.lastError.message }
                  : { class: "handler-error", message: "attempts exhausted" },
          },
        ],
        approvals: approvalIds,
        nextAction: this.nextAction(),
        events: [
          ev(this.core, "unit-failed", {
            unit,
            data: { failures: row.failures, retryMax, ...(row.lastError?.class === "worker-lost" ? { reason: "crash-loop" } : {}) },
          }),
        ],
        now: nowIso(this.core),
      };
    });
  }

  /**
   * Tries ready units in order while a slot is free: an early cutoff or a lost race ends the round (the
   * decision changed). The units before a possible cutoff are claimed together (one store round).
   */
  private async claimUnits(units: string[], concurrency: number): Promise<{ started: number; raced: boolean }> {
    let started = 0;
    let batch: PlanUnit[] = [];
    const claimBatch = async (): Promise<boolean> => {
      const round = await this.claimRound(batch);
      started += round.started;
      batch = [];
      return round.raced;
    };
    for (const unitId of units) {
      if (this.inflight.size + batch.length >= concurrency || this.options.stop?.aborted) break;
      if (this.inflight.has(unitId)) continue;
      const unit = this.core.plan.units.find((u) => u.id === unitId)!;
      // a unit claimed again and again with nothing changed is stopped with the reason, not claimed for ever
      const verdict = noteClaim(this.spin, unitId, progressMark(unitId, this.facts!));
      this.spin = verdict.state;
      if (verdict.kind === "stop") {
        this.stopped.set(unitId, verdict.detail);
        await this.core.store.appendEvents(this.core.run, [
          ev(this.core, "unit-stopped", { unit: unitId, data: { reason: "no-progress", claims: SPIN_LIMIT, detail: verdict.detail } }),
        ]);
        if (batch.length) await claimBatch();
        return { started, raced: true }; // decide again: the unit is blocked now
      }
      if (this.cutoffCandidate(unit)) {
        if (batch.length && (await claimBatch())) return { started, raced: true };
        if (await this.tryCutoff(unit)) return { started: started + 1, raced: false };
      }
      batch.push(unit);
    }
    if (batch.length && (await claimBatch())) return { started, raced: true };
    return { started, raced: false };
  }

  /** Nothing can run and nothing runs: resume tokens for the gates that wait, the stall signals, a `blocked` event. */
  private async block(blocked: BlockedReason[], d: Decision, resumeTokens: RunOutcome["resumeTokens"]): Promise<RunOutcome> {
    const { store, run } = this.core;
    const facts = this.facts!;
    const pending = await store.pendingResumeTokens(run, nowIso(this.core));
    for (const gate of d.awaitingApproval) {
      if (pending.some((p) => p.unit === gate)) continue;
      const t = await issueResumeToken(store, run, gate, nowIso(this.core), this.options.resumeTokenTtlMs ?? 24 * 3600_000);
      resumeTokens.push({ unit: gate, ...t });
      await store.appendEvents(run, [ev(this.core, "approval-requested", { unit: gate, data: { expiresAt: t.expiresAt } })]);
    }
    const stalls = detectStalls(facts.run, d, await store.listEvents(run, { type: "attempt-failed" }), facts.leases, nowIso(this.core));
    await store.appendEvents(run, [
      ev(this.core, "blocked", { data: { reasons: d.blocked.map((b) => ({ unit: b.unit, reason: b.reason })) } }),
      ...stalls.map((x) => ev(this.core, "stall", { data: { kind: x.kind, detail: x.detail } })),
    ]);
    if (d.awaitingApproval.length) this.core.crash("during-approval-wait", { unit: d.awaitingApproval[0]! });
    return { status: "blocked", blocked, resumeTokens, counts: d.counts };
  }

  /** Waits `ms` (undefined: no timer), or until one of `also` settles, or until the worker is told to stop. */
  private async sleep(ms: number | undefined, also: Iterable<Promise<unknown>> = []): Promise<void> {
    const waits = [...also];
    let timer: NodeJS.Timeout | undefined;
    let onStop: (() => void) | undefined;
    if (ms !== undefined && Number.isFinite(ms)) waits.push(new Promise<void>((r) => (timer = setTimeout(r, ms))));
    const stop = this.options.stop;
    if (stop && !stop.aborted && ms !== undefined)
      waits.push(new Promise<void>((r) => stop.addEventListener("abort", (onStop = () => r()))));
    if (waits.length === 0) return;
    try {
      await Promise.race(waits);
    } finally {
      if (timer) clearTimeout(timer);
      if (onStop) stop?.removeEventListener("abort", onStop);
    }
  }

  private finish(status: RunStatus, d: Decision, resumeTokens: RunOutcome["resumeTokens"]): RunOutcome {
    return { status, blocked: d.blocked, resumeTokens, counts: d.counts };
  }

  private progress(d: Decision, used: Record<string, number | undefined>, caps: Record<string, number | undefined>): void {
    if (!this.options.onProgress) return;
    const clean = (o: Record<string, number | undefined>) =>
      Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, number>;
    this.options.onProgress({
      counts: d.counts,
      total: this.core.plan.units.length,
      budgetUsed: clean(used),
      caps: clean(caps),
      lastEvent: "",
    });
  }

  private async breakLease(l: Lease): Promise<void> {
    const why = l.expiresAt <= nowIso(this.core) ? "expired" : "owner process is gone";
    const { store, run } = this.core;
    const leased = await store.listEvents(run, { type: "leased" });
    // A recovery lease (no attempt of its own) ends nothing.
    const recovery = leased.some((e) => e.unit === l.unit && e.data?.token === l.token && e.data?.for === "recovery");
    // The attempt under the lease ended without a result. Two such deaths are always survivable (a
    // power loss, the machine's OOM killer, a worker frozen past its lease); a unit whose attempts keep killing their worker is a
    // crash-loop, failed after max(retry.max + 1, 3) consecutive deaths instead of claimed forever
    // (3: a worker killed and then another frozen past its lease on the same unit is two faults, not a loop).
    const unit = this.core.plan.units.find((u) => u.id === l.unit);
    const limit = Math.max((unit?.retry.max ?? 0) + 1, 3);
    // A loop's attempt that committed iterations before it died made progress that no later attempt
    // repeats (loop.max bounds the total), so its death starts no crash-loop streak: a long loop whose
    // worker keeps dying after each iteration finishes instead of failing as crash-loop.
    const progress = recovery ? 0 : (await store.listIterations(run, { unit: l.unit })).filter((i) => i.attempt === l.attempt).length;
    const deaths = recovery || progress > 0 ? 0 : 1 + (await this.consecutiveDeaths(l.unit));
    await store.breakLease(
      run,
      l.unit,
      l.token,
      ev(this.core, "lease-broken", {
        unit: l.unit,
        attempt: l.attempt,
        data: {
          owner: l.owner,
          token: l.token,
          why,
          ...(recovery ? {} : { attemptEnded: true, deaths, ...(progress > 0 ? { progress } : {}) }),
        },
      }),
      deaths >= limit
        ? {
            error: {
              class: "worker-lost",
              message: `${deaths} attempts in a row ended without a result, the last (a${l.attempt}) because its worker ${why === "expired" ? "stopped renewing its lease" : "process is gone"} (${l.owner})`,
              attempt: l.attempt,
            },
          }
        : undefined,
    );
    await this.core.store.appendEvents(this.core.run, [
      ev(this.core, "attempt-abandoned", { unit: l.unit, attempt: l.attempt, data: { owner: l.owner } }),
    ]);
  }

  /**
   * Before looking up an effect whose caller may still be alive (frozen, slow
   * on the network), take the unit's lease with a fresh fencing token and send
   * that token with the lookup: a remote that fences by token then refuses the
   * old caller's request if it lands after the lookup (runtime.md, "Fencing
   * through reconciliation"). No lease to take (another worker holds one, the
   * unit finished, the run moved on): reconcile with the effect's own token.
   */
  private async recoveryLease(unit: string): Promise<{ token: number } | "plan-changed" | undefined> {
    try {
      const c = await this.core.store.claimUnit(this.core.run, unit, this.core.owner, this.core.leaseTtlMs, nowIso(this.core), undefined, {
        recovery: true,
        planVersion: this.core.planVersion,
      });
      await this.core.store.sync(); // the token leaves the store with the lookup: never handed out again
      return { token: c.token };
    } catch (err) {
      if (err instanceof PlanVersionChangedError) return "plan-changed";
      if (err instanceof InvalidTransitionError || err instanceof LeaseHeldError || err instanceof VersionConflictError) return undefined;
      throw err;
    }
  }

  /** How many attempts of `unit` in a row, up to now, ended with their worker gone (lease-broken events with attemptEnded). */
  private async consecutiveDeaths(unit: string): Promise<number> {
    const { store, run } = this.core;
    const last = (await store.listEvents(run, { type: "lease-broken" })).filter((e) => e.unit === unit && e.data?.attemptEnded).at(-1);
    if (!last) return 0;
    const after = last.attempt ?? 0;
    const failedSince = (await store.listEvents(run, { type: "attempt-failed" })).some((e) => e.unit === unit && (e.attempt ?? 0) > after);
    const committedSince = (await store.getRecords(run, { unit })).some((r) => r.attempt > after);
    return failedSince || committedSince ? 0 : Number(last.data?.deaths ?? 1);
  }

  templateEnv(unitId: string, attempt: number): Record<string, unknown> {
    return {
      task: { id: this.core.plan.task.id, version: this.core.plan.task.version },
      run: { id: this.core.run },
      unit: { id: unitId },
      attempt: { id: `a${attempt}`, number: attempt },
    };
  }

  /** The row of a unit early cutoff may restore (superseded by an upstream change, a record to restore); else undefined. */
  private cutoffCandidate(unit: PlanUnit): (UnitStateRow & { supersededRecord: number }) | undefined {
    const row = this.facts!.units.find((u) => u.unit === unit.id);
    if (!row || row.state !== "superseded" || !row.superseded || row.superseded.direct || row.supersededRecord === undefined)
      return undefined;
    return row as UnitStateRow & { supersededRecord: number };
  }

  /** Early cutoff: a superseded unit whose inputs hash as before is restored, not re-run. */
  private async tryCutoff(unit: PlanUnit): Promise<boolean> {
    const row = this.cutoffCandidate(unit);
    if (!row) return false;
    const records = await this.core.store.getRecords(this.core.run, { unit: unit.id });
    const old = records.find((r) => r.id === row.supersededRecord);
    if (!old) return false;
    const now: SourceDigests = {};
    for (const need of unit.needs) {
      if (need.nodeType === "input") {
        now[`input:${need.node}`] = old.sources[`input:${need.node}`] ?? [];
        continue;
      }
      const [rec] = await this.core.store.getRecords(this.core.run, { unit: need.node, status: "current" });
      const arts = rec ? await this.core.store.listArtifacts(this.core.run, { recordId: rec.id }) : [];
      now[need.node] = arts.map((m) => ({ name: m.name, sha256: m.sha256, ...(m.facets ? { facets: m.facets } : {}) }));
    }
    if (!sourcesUnchanged(unit, old.sources, now)) return false;
    await this.commitDirect((f) => {
      const current = f.units.find((u) => u.unit === unit.id);
      if (current?.state !== "superseded" || current.supersededRecord !== old.id) return undefined; // someone else moved it
      return {
        kind: "cutoff",
        changes: [{ kind: "restore", unit: unit.id }],
        approvals: this.approvalIds,
        nextAction: this.nextAction(),
        events: [
          ev(this.core, "early-cutoff", {
            unit: unit.id,
            data: { record: old.id, attempt: old.attempt, why: "its inputs hash the same as when it last succeeded" },
          }),
        ],
        now: nowIso(this.core),
      };
    });
    return true;
  }

  /** Claims `units` in one store round and starts an attempt for each claim; `raced`: a refusal ended the round. */
  private async claimRound(units: PlanUnit[]): Promise<{ started: number; raced: boolean }> {
    const { store, run } = this.core;
    // the declared cost is booked with the claim, in its transaction: of two workers racing for the
    // last of a budget, one claims and the other is refused and decides again (the unit is then blocked)
    const round = await store.claimUnits(
      run,
      units.map((u) => ({ unit: u.id, planVersion: this.core.planVersion, reserve: reservationOf(u.cost) })),
      this.core.owner,
      this.core.leaseTtlMs,
      nowIso(this.core),
      this.version,
    );
    round.claims.forEach((claim, i) => this.startAttempt(units[i]!, claim));
    // another worker got there first, or the run moved on (a new plan: the loop sees it and reloads)
    return { started: round.claims.length, raced: round.refused !== undefined };
  }

  private startAttempt(unit: PlanUnit, claim: Claim): void {
    const p = (async () => {
      let outcome: AttemptOutcome;
      const started = this.core.clock.now().getTime();
      try {
        // the claim is made durable by the attempt before its first act outside the store (attempt.ts)
        outcome = await runAttempt(this.core, unit, claim);
      } catch (err) {
        // the store went away while the attempt gathered its inputs or ran its verifiers: not the unit's failure
        if (isStoreUnavailable(err)) outcome = { kind: "store-lost", message: err instanceof Error ? err.message : String(err) };
        else
          outcome = {
            kind: "failed",
            error: { class: "handler-error", message: `internal: ${err instanceof Error ? err.message : String(err)}` },
            countsAsFailure: true,
            rejected: [],
          };
      }
      // Time spent is spent: recorded whatever the outcome; a passed wall_clock cap blocks further claims.
      const elapsed = this.core.clock.now().getTime() - started;
      const time: AttemptTime = {
        amounts: { wall_clock_ms: elapsed },
        event: ev(this.core, "budget-charged", {
          unit: unit.id,
          attempt: claim.attempt,
          data: { wall_clock_ms: elapsed, for: "attempt time" },
        }),
      };
      // a result is committed with its time in one transaction; any other end books it on its own first
      if (outcome.kind !== "succeeded") await this.bookTime(time);
      if (restartsCount(outcome.kind)) this.spin = forget(this.spin, unit.id);
      await this.settle(unit, claim.token, claim.attempt, outcome, time);
    })().finally(() => this.inflight.delete(unit.id));
    this.inflight.set(unit.id, p);
  }

  private async bookTime(time: AttemptTime): Promise<void> {
    await this.core.store.chargeBudget(this.core.run, time.amounts, time.event, "record");
  }

  private async settle(unit: PlanUnit, token: number, attempt: number, outcome: AttemptOutcome, time: AttemptTime): Promise<void> {
    const { store, run } = this.core;
    const e = (type: string, data: Record<string, unknown> = {}) => ev(this.core, type, { unit: unit.id, attempt, data });
    try {
      switch (outcome.kind) {
        case "succeeded": {
          this.core.crash("after-artifact-before-commit", { unit: unit.id });
          const header = await this.enqueue({
            kind: "unit",
            fence: { unit: unit.id, token },
            planVersion: this.core.planVersion,
            changes: [outcome.change],
            charge: time.amounts,
            approvals: this.approvalIds,
            nextAction: this.nextAction(),
            events: [
              time.event,
              e("verified", { results: outcome.verifierResults.map((v) => ({ name: v.name, passed: v.passed })) }),
              e("unit-succeeded", { artifacts: outcome.change.artifacts.map((a) => ({ name: a.name, sha256: a.sha256 })) }),
            ],
            now: nowIso(this.core),
          });
          if (header) this.core.crash("after-commit-before-ack", { unit: unit.id });
          return;
        }
        case "failed": {
          // A counted failure with attempts left waits out the unit's retry backoff (recorded with its delay).
          const failures = (this.unitCache?.get(unit.id)?.failures ?? 0) + 1;
          const retry = outcome.countsAsFailure ? retryNotBefore(unit, failures, nowIso(this.core), Math.random()) : undefined;
          await store.endAttempt(
            run,
            unit.id,
            token,
            {
              countsAsFailure: outcome.countsAsFailure,
              error: { ...outcome.error, attempt },
              rejected: outcome.rejected,
              ...(outcome.closesLoop ? { closeIterations: true } : {}),
              // a verdict: the unit's next attempt makes its paid calls afresh (paid-replay.ts)
              ...(endsReplay(outcome.kind, outcome.countsAsFailure) ? { closeJournal: true } : {}),
              ...(retry ? { notBefore: retry.notBefore } : {}),
              planVersion: this.core.planVersion,
            },
            [
              e("attempt-failed", { class: outcome.error.class, message: outcome.error.message }),
              ...(retry
                ? [e("retry-scheduled", { delayMs: retry.delayMs, notBefore: retry.notBefore, failures, retryMax: unit.retry.max })]
                : []),
            ],
          );
          return;
        }
        case "budget": {
          const b = outcome.error;
          await store.endAttempt(run, unit.id, token, { countsAsFailure: false, rejected: outcome.rejected }, [
            e("attempt-blocked", { reason: "budget", budget: b.budget }),
          ]);
          await store.setRunHold(
            run,
            {
              reason: "budget",
              detail: `${unit.id}: ${b.message}; raise the cap (\`taskspec budget ${run} --cap ${b.budget}=<n> --reason "..."\`) to continue`,
              at: nowIso(this.core),
              data: { unit: unit.id, budget: b.budget, used: b.used, cap: b.cap, requested: b.requested },
            },
            e("blocked", { reason: "budget", budget: b.budget, used: b.used, cap: b.cap, requested: b.requested }),
          );
          return;
        }
        case "unknown-effect":
          await store.endAttempt(run, unit.id, token, { countsAsFailure: false, rejected: outcome.rejected }, [
            e("attempt-interrupted", { reason: "unknown-effect", effect: outcome.effectId }),
          ]);
          return;
        case "approval":
          // the call is prepared and waits for a person: not a failure, no retry counted; the gate blocks the run
          await store.endAttempt(run, unit.id, token, { countsAsFailure: false, rejected: outcome.rejected }, [
            e("attempt-blocked", { reason: "approval", effect: outcome.effectId, message: outcome.message }),
          ]);
          return;
        case "corrupt-input":
          await store.endAttempt(run, unit.id, token, { countsAsFailure: false, rejected: outcome.rejected }, [
            e("attempt-interrupted", { reason: "corrupt-input", path: outcome.path }),
          ]);
          await this.handleCorrupt(outcome.producer, outcome.path, outcome.message);
          return;
        case "lease-lost":
          await store.appendEvents(run, [e("stale-attempt-discarded", { message: outcome.message })]);
          return;
        case "plan-changed":
          // a tool call of the old plan was refused before it started: nothing was sent, nothing of it counts
          await store.endAttempt(run, unit.id, token, { countsAsFailure: false, rejected: outcome.rejected }, [
            e("attempt-discarded", { reason: "plan-changed", held: outcome.error.held, current: outcome.error.current, at: "tool call" }),
          ]);
          return;
        case "store-lost":
          // Ended uncounted once the store answers again (an outage makes this throw: the worker backs off and the
          // lease runs out instead); an effect the attempt left STARTED is looked up or retried by the next claim.
          await store.endAttempt(run, unit.id, token, { countsAsFailure: false, rejected: [] }, [
            e("attempt-interrupted", { reason: "store-lost", message: outcome.message }),
          ]);
          return;
      }
    } catch (err) {
      // a refused commit booked nothing: the attempt's time is booked on its own
      const refused = err instanceof PlanVersionChangedError || err instanceof StaleFencingTokenError;
      if (refused && outcome.kind === "succeeded") await this.bookTime(time);
      if (err instanceof PlanVersionChangedError && (outcome.kind === "succeeded" || outcome.kind === "failed")) {
        // Judged by the old plan only: never current under the new one, and not the unit's failure under it either.
        const rejected =
          outcome.kind === "succeeded" ? [...outcome.change.artifacts, ...(outcome.change.rejected ?? [])] : outcome.rejected;
        const failure = outcome.kind === "failed" ? { class: outcome.error.class, message: outcome.error.message } : {};
        await store.endAttempt(run, unit.id, token, { countsAsFailure: false, rejected }, [
          e("attempt-discarded", { reason: "plan-changed", held: err.held, current: err.current, ...failure }),
        ]);
        return;
      }
      if (err instanceof StaleFencingTokenError) {
        this.core.log(`taskspec: ${err.message}`);
        await store.appendEvents(run, [e("stale-commit-rejected", { message: err.message })]);
        return;
      }
      throw err;
    }
  }

  /** Group commit: completions queued in the same turn share one transaction (one fsync). */
  private enqueue(commit: CheckpointCommit): Promise<CheckpointHeader | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ commit, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const batch = this.queue.splice(0);
    if (batch.length === 0) return;
    const hooks = {
      insideTransaction: () => this.core.crash("mid-checkpoint", batch[0]!.commit.fence ? { unit: batch[0]!.commit.fence.unit } : {}),
    };
    for (let tries = 0; ; tries++) {
      try {
        const headers = await this.core.store.commitCheckpoints(
          this.core.run,
          this.version,
          batch.map((b) => b.commit),
          hooks,
        );
        this.version = headers[headers.length - 1]!.version;
        batch.forEach((b, i) => b.resolve(headers[i]));
        return;
      } catch (err) {
        if (err instanceof VersionConflictError && tries < 20) {
          // a plan change among the commits that raced this one is refused by the store on the retry (PlanVersionChangedError)
          this.version = err.actual;
          continue;
        }
        if (err instanceof StaleFencingTokenError && batch.length > 1) {
          // One stale member must not sink the others: commit them one by one.
          for (const b of batch) {
            try {
              const h = await this.core.store.commitCheckpoint(this.core.run, this.version, b.commit, hooks);
              this.version = h.version;
              b.resolve(h);
            } catch (e) {
              if (e instanceof VersionConflictError) this.version = e.actual;
              b.reject(e);
            }
          }
          return;
        }
        batch.forEach((b) => b.reject(err));
        return;
      }
    }
  }

  /** `task.done` on the final artifacts: re-hash every output, then run the end-to-end verifiers. */
  private async verifyDone(): Promise<boolean> {
    const { store, run, plan, storage } = this.core;
    const records = await store.getRecords(run, { status: "current" });
    const results: Record<string, unknown> = Object.fromEntries(records.map((r) => [r.unit, r.result]));
    const artifacts = await store.listArtifacts(run, { status: "committed" });
    const currentIds = new Set(records.map((r) => r.id));
    const current = artifacts.filter((a) => a.recordId !== undefined && currentIds.has(a.recordId));
    for (const a of current) {
      try {
        await storage.read(a.path, a.sha256);
      } catch (err) {
        if (!(err instanceof CorruptArtifactError)) throw err;
        await this.handleCorrupt(a.unit, a.path, err.message);
        return false;
      }
    }
    const outputs = current
      .filter((a) => plan.task.outputs.includes(a.name))
      .map((a) => ({ name: a.name, sha256: a.sha256, path: a.path, unit: a.unit }));
    const staleOutputs = plan.task.outputs.filter((name) => !outputs.some((o) => o.name === name));
    // The task's result: the results of the units that produce its outputs (plan order), plus the runtime's view of the outputs.
    const producers = plan.units.filter((u) => u.produces.some((p) => plan.task.outputs.includes(p)));
    const taskResult: Record<string, unknown> = {};
    for (const u of producers) {
      const r = results[u.id];
      if (r && typeof r === "object" && !Array.isArray(r)) Object.assign(taskResult, r);
    }
    Object.assign(taskResult, { outputs, stale_outputs: staleOutputs, units: results });
    const read = async (name: string) => {
      const a = current.find((x) => x.name === name);
      if (!a) throw new RuntimeError(`no current artifact ${name}`);
      return storage.read(a.path, a.sha256);
    };
    const verdicts = await runVerifiers(plan.task.done, {
      plan,
      verifiers: this.core.verifiers?.verifiers,
      env: {
        task: { id: plan.task.id, version: plan.task.version },
        run: { id: run },
        result: taskResult,
        inputs: Object.fromEntries(plan.inputs.map((i) => [i.name, i.value ?? i.version ?? null])),
      },
      context: {
        run: { id: run },
        result: taskResult,
        read,
        tool: async <T>(name: string, args: Record<string, unknown>) => {
          const t = plan.tools.find((x) => x.name === name);
          const adapter = ownEntry(this.core.handlers.tools, name);
          if (!t || t.class !== "read" || !adapter) throw new RuntimeError(`task.done may call only declared read tools; ${name} refused`);
          return (await adapter.call(args, {
            runId: run,
            unitId: "task.done",
            attemptId: "a1",
            fencingToken: 0,
            signal: new AbortController().signal,
          })) as T;
        },
      },
      jsonDocuments: async () => [taskResult],
      ...(this.core.baseDir ? { baseDir: this.core.baseDir } : {}),
    });
    const failed = verdicts.filter((v) => !v.passed);
    if (failed.length) {
      const detail = `task.done failed on the final artifacts: ${failed.map((v) => `${v.name}: ${v.reason ?? "failed"}`).join("; ")}`;
      await store.setRunHold(
        run,
        { reason: "no-safe-action", detail, at: nowIso(this.core) },
        ev(this.core, "done-verification-failed", { data: { failed: failed.map((v) => v.name) } }),
      );
      return false;
    }
    await store.setRunStatus(
      run,
      "done",
      ev(this.core, "run-done", { data: { verifiers: verdicts.map((v) => v.name), outputs: outputs.map((o) => o.name) } }),
    );
    return true;
  }
}
