/**
 * `cancel`: complete, or it says why not. In order:
 * 1. the decision is recorded and the run is held (`cancelling`), so no
 *    worker claims anything more;
 * 2. every unit with a live lease or an open effect is fenced: the cancel
 *    breaks the lease and claims the unit itself, so the old worker's next
 *    effect, renewal or commit is refused and every lookup and compensator
 *    of the cancel carries a newer fencing token than the old call (a remote
 *    that fences by token refuses the old call when it lands late);
 * 3. a call in flight (STARTED under the old lease) is waited for until its
 *    outcome is recorded or the old lease would have expired;
 * 4. every effect whose outcome is not known is reconciled (lookup); one
 *    that stays UNKNOWN is listed and keeps the run held;
 * 5. committed effects a person confirmed get their compensation data from
 *    the lookup (or the remote id recorded), then every compensation runs
 *    in reverse commit order, verified.
 * The run is `cancelled` only when nothing is left that may stand unlisted.
 */
import { InvalidTransitionError, LeaseHeldError, VersionConflictError } from "../errors.js";
import { completeCompensation, compensateRun, type CompensateDeps, type CompensationReport } from "../ledger/compensate.js";
import { reconcileEffect } from "../ledger/reconcile.js";
import type { EffectRecord, Lease } from "../model/facts.js";
import { newOwner, ownerIsDead } from "../engine/owner.js";
import { inFlightLease, planCancel, type CancelEntry } from "./cancel-plan.js";
import { actorOf, type Acting } from "./authority.js";
import { decisionEvent, type Preview } from "./preview.js";
import { planOfRun } from "./status.js";
import type { Store } from "../store/types.js";

export interface CancelDeps extends Omit<CompensateDeps, "plan" | "tokenFor"> {
  /** Lease the cancel holds on the units it fences (default 60 s; renewed while it waits). */
  leaseTtlMs?: number;
  /** Poll interval while waiting for a call in flight (default 100 ms). */
  pollMs?: number;
  /** Told once per call the cancel waits for (the CLI prints it). */
  onWait?: (effect: EffectRecord, until: string) => void;
}

export interface CancelReport extends CompensationReport {
  /** Why the run is not cancelled yet, per effect: its outcome is unknown or it cannot be compensated. */
  blocked: Array<{ effect: string; intent: string; why: string }>;
}

const OPEN = ["PREPARED", "STARTED", "UNKNOWN"] as const;

function previewOf(entries: CancelEntry[]): Preview {
  const undo: NonNullable<Preview["undo"]> = [];
  const cannotUndo: NonNullable<Preview["cannotUndo"]> = [];
  for (const { effect, treatment: t } of entries) {
    if (t.kind === "compensate")
      undo.push({ effect: effect.id, intent: effect.intent, compensator: t.compensator, ...(t.first ? { first: t.first } : {}) });
    else if (t.kind === "cannot") cannotUndo.push({ effect: effect.id, intent: effect.intent, why: t.why });
  }
  return {
    action: "cancel",
    reuse: [],
    invalidate: [],
    undo,
    cannotUndo,
    notes: ["committed artifacts and records are kept; no unit runs after this"],
  };
}

/** Leases a worker still holds: not expired, and not of a process on this host that is gone. */
const liveLeases = (leases: readonly Lease[], self: string, now: string) =>
  leases.filter((l) => l.expiresAt > now && !ownerIsDead(l.owner, self));

export async function previewCancel(store: Store, run: string): Promise<Preview> {
  const plan = await planOfRun(store, run);
  const facts = await store.loadFacts(run);
  const now = new Date().toISOString();
  return previewOf(planCancel(plan, await store.listEffects(run), liveLeases(facts.leases, newOwner(), now), now));
}

const envFor = (plan: { task: { id: string; version: number } }, e: EffectRecord) => ({
  task: { id: plan.task.id, version: plan.task.version },
  run: { id: e.run },
  unit: { id: e.unit },
  attempt: { id: `a${e.attempt}`, number: e.attempt },
});

export async function cancel(
  deps: CancelDeps,
  run: string,
  acting: Acting,
  reason: string,
): Promise<{ preview: Preview; report: CancelReport }> {
  const { store, now } = deps;
  const actor = await actorOf(store, acting, `cancel ${run}`);
  const by = actor.by;
  const plan = await planOfRun(store, run);
  const facts = await store.loadFacts(run);
  const owner = newOwner();
  const live = liveLeases(facts.leases, owner, now());
  const entries = planCancel(plan, await store.listEffects(run), live, now());
  const preview = previewOf(entries);
  await store.appendEvents(run, [
    decisionEvent(now(), "cancel", actor, {
      reason,
      undo: preview.undo!.map((u) => u.effect),
      cannotUndo: preview.cannotUndo!.map((c) => c.effect),
    }),
  ]);
  const holdDetail = (what: string) => `cancel by ${by}: ${what}; then \`taskspec cancel ${run}\` again`;
  await store.setRunHold(
    run,
    { reason: "cancelling", detail: holdDetail("started and has not finished"), at: now(), data: { by } },
    { at: now(), type: "blocked", data: { reason: "cancelling", by } },
  );

  // Fence: take over every unit a worker holds or an open effect belongs to.
  const ttl = deps.leaseTtlMs ?? 60_000;
  const mine = new Map<string, number>();
  const waits: Array<{ effect: EffectRecord; until: string }> = [];
  const openEffects = (await store.listEffects(run)).filter((e) => (OPEN as readonly string[]).includes(e.state));
  const units = new Set([...facts.leases.map((l) => l.unit), ...openEffects.map((e) => e.unit)]);
  for (const unit of units) {
    const lease: Lease | undefined = facts.leases.find((l) => l.unit === unit);
    if (lease) {
      await store.breakLease(run, unit, lease.token, {
        at: now(),
        type: "lease-broken",
        unit,
        attempt: lease.attempt,
        data: { owner: lease.owner, token: lease.token, why: "cancel" },
      });
      await store.appendEvents(run, [
        { at: now(), type: "attempt-abandoned", unit, attempt: lease.attempt, data: { owner: lease.owner, why: "cancel" } },
      ]);
      for (const e of openEffects) if (inFlightLease(e, live, now())) waits.push({ effect: e, until: lease.expiresAt });
    }
    try {
      mine.set(unit, (await store.claimUnit(run, unit, owner, ttl, now(), undefined, { recovery: true })).token);
    } catch (err) {
      // A unit that finished (or a run that is not active) needs no fence: nothing runs there.
      if (!(err instanceof InvalidTransitionError || err instanceof LeaseHeldError || err instanceof VersionConflictError)) throw err;
    }
  }
  const tokenFor = (e: EffectRecord) => mine.get(e.unit);
  const renew = async () => {
    for (const [unit, token] of mine) await store.renewLease(run, unit, token, ttl, now()).catch(() => undefined);
  };

  try {
    // Wait for each call in flight: its worker records the outcome, or its lease would have run out.
    for (const w of waits) {
      deps.onWait?.(w.effect, w.until);
      for (;;) {
        const e = (await store.listEffects(run, { unit: w.effect.unit })).find((x) => x.id === w.effect.id);
        if (!e || e.state !== "STARTED" || now() > w.until) break;
        await new Promise((r) => setTimeout(r, deps.pollMs ?? 100));
        await renew();
      }
    }

    const blocked: CancelReport["blocked"] = [];
    const reconcileDeps = { ...deps, plan, envFor: (e: EffectRecord) => envFor(plan, e), tokenFor };
    for (const e of (await store.listEffects(run)).filter((x) => (OPEN as readonly string[]).includes(x.state))) {
      if ((await reconcileEffect(reconcileDeps, e)) !== "blocked") continue;
      const after = (await store.listEffects(run, { unit: e.unit })).find((x) => x.id === e.id);
      const held = (await store.loadFacts(run)).units.find((u) => u.unit === e.unit)?.hold;
      blocked.push({ effect: e.id, intent: e.intent, why: held?.detail ?? after?.error ?? `outcome ${after?.state ?? e.state}` });
    }
    for (const e of await store.listEffects(run, { states: ["COMMITTED"] })) {
      if (e.compensation || e.compensationState === "done") continue;
      const why = await completeCompensation(reconcileDeps, e);
      if (why) blocked.push({ effect: e.id, intent: e.intent, why });
    }

    // Effects whose compensation failed before are tried once more on an explicit cancel.
    for (const e of await store.listEffects(run, { states: ["COMMITTED"] })) {
      if (e.compensationState === "failed" || e.compensationState === "pending")
        await store.updateEffect(e.id, ["COMMITTED"], { compensationState: "pending" });
    }
    const report = await compensateRun({ ...deps, plan, tokenFor }, run);
    const result: CancelReport = { ...report, blocked };
    if (report.failed.length) return { preview, report: result }; // compensateRun holds the run (compensation-failed)
    if (blocked.length) {
      await store.setRunHold(
        run,
        {
          reason: "cancelling",
          detail: holdDetail(`not complete: ${blocked.map((b) => `${b.effect} (${b.intent}): ${b.why}`).join("; ")}`),
          at: now(),
          data: { by, effects: blocked.map((b) => b.effect) },
        },
        { at: now(), type: "blocked", data: { reason: "cancelling", effects: blocked.map((b) => b.effect) } },
      );
      return { preview, report: result };
    }
    for (const [unit, token] of mine) await store.releaseLease(run, unit, token);
    mine.clear();
    await store.setRunHold(run, null, { at: now(), type: "unblocked", data: { reason: "cancelling", by } });
    await store.setRunStatus(run, "cancelled", {
      at: now(),
      type: "run-cancelled",
      data: { compensated: report.compensated, cannotUndo: preview.cannotUndo!.map((c) => c.effect), by },
    });
    return { preview, report: result };
  } finally {
    for (const [unit, token] of mine) await store.releaseLease(run, unit, token).catch(() => undefined);
  }
}
