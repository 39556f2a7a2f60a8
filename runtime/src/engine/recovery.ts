/**
 * What a worker does about attempts that ended without settling: leases of
 * dead or frozen workers are broken (a unit whose attempts keep killing
 * their worker is a crash-loop), effects left STARTED or UNKNOWN are looked
 * up under a recovery lease, and units that used up their attempts are
 * committed failed.
 */
import { InvalidTransitionError, LeaseHeldError, PlanVersionChangedError, VersionConflictError } from "../errors.js";
import { reconcileEffect } from "../ledger/reconcile.js";
import type { EffectRecord, Lease } from "../model/facts.js";
import { attemptsExhausted } from "../scheduler/decide.js";
import { nowIso } from "./core.js";
import { ownerVerdict } from "./owner.js";
import type { OwnerVerdict } from "./owner-verdict.js";
import { commitDirect } from "./direct-commit.js";
import { failureEnd } from "./settlement.js";
import { decideUnknownRetry } from "./unknown-retry.js";
import { ev, nextActionOf, type WorkerContext } from "./worker-state.js";

/** Each open effect is looked up at most once per worker run: a failed lookup blocks, it does not spin. */
export async function reconcile(w: WorkerContext, effects: EffectRecord[]): Promise<void> {
  const { core, state } = w;
  const { store, run, plan } = core;
  for (const e of effects) {
    state.reconciled.add(e.id);
    const fence = await recoveryLease(w, e.unit);
    if (fence === "plan-changed") {
      state.reconciled.delete(e.id); // reconciled under the run's new plan, by the reloaded worker
      break;
    }
    try {
      const resolution = await reconcileEffect(
        {
          store,
          plan,
          handlers: core.handlers,
          crash: core.crash,
          now: () => nowIso(core),
          envFor: (x) => templateEnv(w, x.unit, x.attempt),
          ...(fence ? { tokenFor: () => fence.token } : {}),
        },
        e,
      );
      if (fence && resolution === "absent") await countUnknownRetry(w, e, fence.token);
    } finally {
      if (fence) await store.releaseLease(run, e.unit, fence.token).catch(() => undefined);
    }
  }
}

/** What a lookup's templates see of the attempt that made the effect. */
function templateEnv(w: WorkerContext, unitId: string, attempt: number): Record<string, unknown> {
  return {
    task: { id: w.core.plan.task.id, version: w.core.plan.task.version },
    run: { id: w.core.run },
    unit: { id: unitId },
    attempt: { id: `a${attempt}`, number: attempt },
  };
}

/**
 * Before looking up an effect whose caller may still be alive (frozen, slow
 * on the network), take the unit's lease with a fresh fencing token and send
 * that token with the lookup: a remote that fences by token then refuses the
 * old caller's request if it lands after the lookup (runtime.md, "Fencing
 * through reconciliation"). No lease to take (another worker holds one, the
 * unit finished, the run moved on): reconcile with the effect's own token.
 */
async function recoveryLease(w: WorkerContext, unit: string): Promise<{ token: number } | "plan-changed" | undefined> {
  const { core } = w;
  try {
    const c = await core.store.claimUnit(core.run, unit, core.owner, core.leaseTtlMs, nowIso(core), undefined, {
      recovery: true,
      planVersion: core.planVersion,
    });
    await core.store.sync(); // the token leaves the store with the lookup: never handed out again
    return { token: c.token };
  } catch (err) {
    if (err instanceof PlanVersionChangedError) return "plan-changed";
    if (err instanceof InvalidTransitionError || err instanceof LeaseHeldError || err instanceof VersionConflictError) return undefined;
    throw err;
  }
}

/**
 * An attempt that ended uncounted on an effect of unknown outcome, which recovery found absent, made nothing:
 * its failure is counted now (unknown-retry.ts), under the recovery lease, which ending the attempt releases.
 */
async function countUnknownRetry(w: WorkerContext, effect: EffectRecord, token: number): Promise<void> {
  const { core, state } = w;
  const { store, run, plan } = core;
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
  const { end, events } = failureEnd(
    {
      unit,
      attempt: verdict.error.attempt,
      failures: state.unitCache?.rows.get(unit.id)?.failures ?? 0,
      now: nowIso(core),
      jitter: Math.random(),
      planVersion: core.planVersion,
    },
    verdict.error,
    true,
    { eventData: { effect: effect.id, after: "unknown-effect" } },
  );
  await store.endAttempt(run, unit.id, token, end, events);
}

/** Commits an exhausted unit failed (unless another worker did, or its row moved on). */
export async function failExhausted(w: WorkerContext, unit: string, approvalIds: string[]): Promise<void> {
  const { core, state } = w;
  const planUnit = core.plan.units.find((u) => u.id === unit);
  const retryMax = planUnit?.retry.max ?? 0;
  await commitDirect(w, (f) => {
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
      nextAction: nextActionOf(state),
      events: [
        ev(core, "unit-failed", {
          unit,
          data: { failures: row.failures, retryMax, ...(row.lastError?.class === "worker-lost" ? { reason: "crash-loop" } : {}) },
        }),
      ],
      now: nowIso(core),
    };
  });
}

/** Why a lease not yet expired is broken, by the verdict on its owner (engine/owner-verdict.ts); text kept stable for events. */
const goneWhy: Record<OwnerVerdict["why"], string> = {
  "earlier-worker-of-this-process": "owner process is gone",
  "process-gone": "owner process is gone",
  stopped: "owner worker stopped",
  "heartbeat-stale": "owner heartbeat stopped",
  // not dead: a lease broken by a decision this asker no longer shares (judged again just now)
  self: "owner process is gone",
  alive: "owner process is gone",
  unknown: "owner process is gone",
};

const deathOf: Record<string, string> = {
  expired: "stopped renewing its lease",
  "owner worker stopped": "stopped",
  "owner heartbeat stopped": "stopped its heartbeat",
};

/** A lease past expiry or of a dead owner: broken, and the attempt under it ended (a crash-loop fails the unit). */
export async function breakLease(w: WorkerContext, l: Lease): Promise<void> {
  const { core } = w;
  const { store, run } = core;
  const why =
    l.expiresAt <= nowIso(core) ? "expired" : goneWhy[ownerVerdict(l.owner, core.owner, w.options.liveness?.(), nowIso(core)).why];
  const leased = await store.listEvents(run, { type: "leased" });
  // A recovery lease (no attempt of its own) ends nothing.
  const recovery = leased.some((e) => e.unit === l.unit && e.data?.token === l.token && e.data?.for === "recovery");
  // The attempt under the lease ended without a result. Two such deaths are always survivable (a
  // power loss, the machine's OOM killer, a worker frozen past its lease); a unit whose attempts keep killing their worker is a
  // crash-loop, failed after max(retry.max + 1, 3) consecutive deaths instead of claimed forever
  // (3: a worker killed and then another frozen past its lease on the same unit is two faults, not a loop).
  const unit = core.plan.units.find((u) => u.id === l.unit);
  const limit = Math.max((unit?.retry.max ?? 0) + 1, 3);
  // A loop's attempt that committed iterations before it died made progress that no later attempt
  // repeats (loop.max bounds the total), so its death starts no crash-loop streak: a long loop whose
  // worker keeps dying after each iteration finishes instead of failing as crash-loop.
  const progress = recovery ? 0 : (await store.listIterations(run, { unit: l.unit })).filter((i) => i.attempt === l.attempt).length;
  const deaths = recovery || progress > 0 ? 0 : 1 + (await consecutiveDeaths(w, l.unit));
  await store.breakLease(
    run,
    l.unit,
    l.token,
    ev(core, "lease-broken", {
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
            message: `${deaths} attempts in a row ended without a result, the last (a${l.attempt}) because its worker ${deathOf[why] ?? "process is gone"} (${l.owner})`,
            attempt: l.attempt,
          },
        }
      : undefined,
  );
  await store.appendEvents(run, [ev(core, "attempt-abandoned", { unit: l.unit, attempt: l.attempt, data: { owner: l.owner } })]);
}

/** How many attempts of `unit` in a row, up to now, ended with their worker gone (lease-broken events with attemptEnded). */
async function consecutiveDeaths(w: WorkerContext, unit: string): Promise<number> {
  const { store, run } = w.core;
  const last = (await store.listEvents(run, { type: "lease-broken" })).filter((e) => e.unit === unit && e.data?.attemptEnded).at(-1);
  if (!last) return 0;
  const after = last.attempt ?? 0;
  const failedSince = (await store.listEvents(run, { type: "attempt-failed" })).some((e) => e.unit === unit && (e.attempt ?? 0) > after);
  const committedSince = (await store.getRecords(run, { unit })).some((r) => r.attempt > after);
  return failedSince || committedSince ? 0 : Number(last.data?.deaths ?? 1);
}
