/**
 * The worker loop: resume (resume.ts), then repeatedly decide from
 * persisted facts, ask nextStep (scheduler/next-step.ts) what comes next and
 * carry out that one step: claim (claim.ts; attempts run and settle in
 * attempt-runner.ts, completions group-committed in group-commit.ts),
 * recovery (recovery.ts), the final verification (verify-done.ts). Every
 * decision is recomputed from the store, so killing this process anywhere
 * loses nothing committed; what the worker holds in memory is declared once,
 * in worker-state.ts.
 */
import { PlanVersionChangedError } from "../errors.js";
import type { RunStatus } from "../model/facts.js";
import type { BlockedReason, Decision } from "../scheduler/decide.js";
import { nextStep, type Step, type StepInput } from "../scheduler/next-step.js";
import { detectStalls } from "../scheduler/stall.js";
import type { RunFacts } from "../store/types.js";
import type { RunEvent } from "../model/facts.js";
import { canonicalJson } from "../model/identity.js";
import { issueResumeToken } from "./approvals.js";
import { claimUnits } from "./claim.js";
import { nowIso, type EngineCore } from "./core.js";
import { decideRun } from "./decide-run.js";
import { breakLease, failExhausted, reconcile } from "./recovery.js";
import { prepare } from "./resume.js";
import { verifyDone } from "./verify-done.js";
import { ev, newWorkerState, type WorkerContext, type WorkerOptions } from "./worker-state.js";

export { ensureRun } from "./resume.js";
export type { Progress, WorkerOptions } from "./worker-state.js";

export interface RunOutcome {
  status: RunStatus | "blocked";
  blocked: BlockedReason[];
  /** Tokens issued in this call for gates that wait (print them for the approver). */
  resumeTokens: Array<{ unit: string; token: string; expiresAt: string }>;
  counts: Decision["counts"];
}

export class Worker {
  private readonly w: WorkerContext;

  constructor(core: EngineCore, options: WorkerOptions = {}) {
    this.w = { core, options, state: newWorkerState() };
  }

  /**
   * The resume algorithm of runtime.md, then the run loop until done, blocked,
   * failed or cancelled. Throws PlanVersionChangedError (once its attempts in
   * flight have settled) when the run moves to another plan meanwhile: the
   * caller reloads the run's contract.
   */
  async run(): Promise<RunOutcome> {
    await prepare(this.w);
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
    for (const [unit, p] of this.w.state.inflight)
      p.catch((err: unknown) =>
        this.w.core.log(
          `taskspec: attempt of ${unit} ended after its worker stopped (${err instanceof Error ? err.message : String(err)}); its lease runs out and the next claim settles the unit`,
        ),
      );
  }

  /** Reads only the unit rows changed since the last step (a plan change reloads all). */
  private async loadFactsIncrementally(): Promise<RunFacts> {
    const { core, state } = this.w;
    const cache = state.unitCache;
    if (cache) {
      const delta = await core.store.loadFacts(core.run, cache.seq);
      if (delta.run.planVersion === cache.planVersion) {
        for (const u of delta.units) cache.rows.set(u.unit, u);
        cache.seq = delta.changeSeq;
        return { ...delta, units: [...cache.rows.values()] };
      }
    }
    const full = await core.store.loadFacts(core.run);
    state.unitCache = { rows: new Map(full.units.map((u) => [u.unit, u])), seq: full.changeSeq, planVersion: full.run.planVersion };
    return full;
  }

  private async decideNow(): Promise<{ decision: Decision; facts: RunFacts }> {
    const { core, state } = this.w;
    const facts = await this.loadFactsIncrementally();
    state.version = Math.max(state.version, facts.run.version);
    const liveness = this.w.options.liveness?.();
    const { decision, approvalIds } = await decideRun(core.store, core.plan, core.run, facts, nowIso(core), {
      planVersion: core.planVersion,
      owner: core.owner,
      inflight: state.inflight,
      stopped: state.stopped,
      ...(liveness ? { liveness } : {}),
    });
    state.approvalIds = approvalIds;
    state.lastDecision = decision;
    state.facts = facts;
    return { decision, facts };
  }

  /** Decides from the store, asks nextStep (scheduler/next-step.ts) what comes next, executes that one step; again. */
  private async loop(): Promise<RunOutcome> {
    const { core, options, state } = this.w;
    const concurrency = Math.max(1, options.concurrency ?? 1);
    const resumeTokens: RunOutcome["resumeTokens"] = [];
    for (;;) {
      const { decision: d, facts } = await this.decideNow();
      const input = (): StepInput => ({
        decision: d,
        run: facts.run,
        planVersion: core.planVersion,
        units: facts.units,
        inflight: new Set(state.inflight.keys()),
        concurrency,
        stopping: options.stop?.aborted === true,
        reconciled: state.reconciled,
        nowMs: core.clock.now().getTime(),
      });
      let step = nextStep(input());
      if (step.kind !== "plan-changed" && step.kind !== "finish") this.progress(d, facts.run.budgetUsed, facts.run.caps);
      // Claiming changes what this worker holds, not the decision: what follows a claim is asked of the same decision.
      if (step.kind === "claim") step = nextStep({ ...input(), claimed: await claimUnits(this.w, step.units, concurrency) });
      const outcome = await this.execute(step, d, state.approvalIds, resumeTokens);
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
    const { core, state } = this.w;
    const { store, run } = core;
    switch (step.kind) {
      case "plan-changed":
        // Another contract is the run's now: what is in flight settles (its commits are refused and discarded), then reload.
        if (step.settle) await Promise.race(state.inflight.values());
        else throw new PlanVersionChangedError(run, core.planVersion, step.planVersion);
        return undefined;
      case "finish":
        return this.finish(step.status, d, resumeTokens);
      case "break-leases":
        for (const l of step.leases) await breakLease(this.w, l);
        return undefined;
      case "reconcile":
        await reconcile(this.w, step.effects);
        return undefined;
      case "lift-budget-hold":
        await store.setRunHold(
          run,
          null,
          ev(core, "unblocked", { data: { reason: "budget", detail: "caps now cover the refused charge" } }),
        );
        return undefined;
      case "stop-at-hold":
        await store.appendEvents(run, [ev(core, "blocked", { data: { reason: state.facts!.run.hold?.reason } })]);
        return { status: "blocked", blocked: d.blocked, resumeTokens, counts: d.counts };
      case "fail-exhausted":
        for (const unit of step.units) await failExhausted(this.w, unit, approvalIds);
        return undefined;
      case "verify-done":
        return (await verifyDone(this.w)) ? this.finish("done", d, resumeTokens) : undefined;
      case "claim": // answered in loop(): nextStep never asks to claim twice for one decision
      case "decide-again":
        return undefined;
      case "wait":
        await this.sleep(step.ms, step.on === "attempts" ? state.inflight.values() : []);
        return undefined;
      case "fail-run":
        await store.setRunStatus(run, "failed", ev(core, "run-failed", { data: { units: step.units } }));
        return this.finish("failed", d, resumeTokens);
      case "block":
        return this.block(step.blocked, d, resumeTokens);
    }
  }

  /** Nothing can run and nothing runs: resume tokens for the gates that wait, the stall signals, a `blocked` event. */
  private async block(blocked: BlockedReason[], d: Decision, resumeTokens: RunOutcome["resumeTokens"]): Promise<RunOutcome> {
    const { core, options, state } = this.w;
    const { store, run } = core;
    const facts = state.facts!;
    const pending = await store.pendingResumeTokens(run, nowIso(core));
    for (const gate of d.awaitingApproval) {
      if (pending.some((p) => p.unit === gate)) continue;
      const t = await issueResumeToken(store, run, gate, nowIso(core), options.resumeTokenTtlMs ?? 24 * 3600_000);
      resumeTokens.push({ unit: gate, ...t });
      await store.appendEvents(run, [ev(core, "approval-requested", { unit: gate, data: { expiresAt: t.expiresAt } })]);
    }
    const stalls = detectStalls(facts.run, d, await store.listEvents(run, { type: "attempt-failed" }), facts.leases, nowIso(core));
    const events = [
      ev(core, "blocked", { data: { reasons: d.blocked.map((b) => ({ unit: b.unit, reason: b.reason })) } }),
      ...stalls.map((x) => ev(core, "stall", { data: { kind: x.kind, detail: x.detail } })),
    ];
    // a run still blocked as its latest events say is not told so again at every visit (scheduler/visit-rest.ts)
    if (!saysAlready((await store.eventsWindow(run, { limit: events.length })).events, events)) await store.appendEvents(run, events);
    if (d.awaitingApproval.length) core.crash("during-approval-wait", { unit: d.awaitingApproval[0]! });
    return { status: "blocked", blocked, resumeTokens, counts: d.counts };
  }

  /** Waits `ms` (undefined: no timer), or until one of `also` settles, or until the worker is told to stop. */
  private async sleep(ms: number | undefined, also: Iterable<Promise<unknown>> = []): Promise<void> {
    const waits = [...also];
    let timer: NodeJS.Timeout | undefined;
    let onStop: (() => void) | undefined;
    if (ms !== undefined && Number.isFinite(ms)) waits.push(new Promise<void>((r) => (timer = setTimeout(r, ms))));
    const stop = this.w.options.stop;
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
    const { onProgress } = this.w.options;
    if (!onProgress) return;
    const clean = (o: Record<string, number | undefined>) =>
      Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Record<string, number>;
    onProgress({ counts: d.counts, total: this.w.core.plan.units.length, budgetUsed: clean(used), caps: clean(caps), lastEvent: "" });
  }
}

/** The latest events are these: the same blocked reasons, the same kinds of stall (their detail ages). */
function saysAlready(latest: readonly RunEvent[], events: ReadonlyArray<{ type: string; data?: Record<string, unknown> }>): boolean {
  const key = (e: { type: string; data?: Record<string, unknown> | null }) =>
    canonicalJson([e.type, e.type === "stall" ? e.data?.kind : (e.data ?? null)]);
  return latest.length === events.length && latest.every((e, i) => key(e) === key(events[i]!));
}
