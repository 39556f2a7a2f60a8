/**
 * Runs a claimed unit's attempt in the background and carries out its
 * settlement: the steps settlement.ts decides, in order, and when the store
 * refuses one of them, the steps it decides instead. No decision is made
 * here; what an outcome writes is settlement.ts's.
 */
import type { PlanUnit } from "@taskspec/compiler";
import { PlanVersionChangedError, StaleFencingTokenError } from "../errors.js";
import { forget, restartsCount } from "../scheduler/spin-guard.js";
import type { Claim } from "../store/types.js";
import { isStoreUnavailable } from "../store/unavailable.js";
import { runAttempt, type AttemptOutcome } from "./attempt.js";
import { nowIso } from "./core.js";
import { invalidateCorrupt } from "./direct-commit.js";
import { enqueue } from "./group-commit.js";
import { outcomeOfThrow, settle, settleRefused, type AttemptTime, type Refusal, type SettleInput, type SettleStep } from "./settlement.js";
import { ev, nextActionOf, type WorkerContext } from "./worker-state.js";

/** Starts `unit`'s attempt under `claim`; it is in `state.inflight` until settled. */
export function startAttempt(w: WorkerContext, unit: PlanUnit, claim: Claim): void {
  const { core, state } = w;
  const p = (async () => {
    let outcome: AttemptOutcome;
    const started = core.clock.now().getTime();
    try {
      // the claim is made durable by the attempt before its first act outside the store (attempt.ts)
      outcome = await runAttempt(core, unit, claim);
    } catch (err) {
      // the store went away while the attempt gathered its inputs or ran its verifiers: not the unit's failure
      outcome = outcomeOfThrow(err, isStoreUnavailable(err));
    }
    // Time spent is spent: recorded whatever the outcome; a passed wall_clock cap blocks further claims.
    const elapsed = core.clock.now().getTime() - started;
    const time: AttemptTime = {
      amounts: { wall_clock_ms: elapsed },
      event: ev(core, "budget-charged", { unit: unit.id, attempt: claim.attempt, data: { wall_clock_ms: elapsed, for: "attempt time" } }),
    };
    if (restartsCount(outcome.kind)) state.spin = forget(state.spin, unit.id);
    await carryOut(w, {
      run: core.run,
      unit,
      attempt: claim.attempt,
      token: claim.token,
      planVersion: core.planVersion,
      outcome,
      time,
      failures: state.unitCache?.rows.get(unit.id)?.failures ?? 0,
      now: nowIso(core),
      jitter: Math.random(),
      approvals: state.approvalIds,
      nextAction: nextActionOf(state),
    });
  })().finally(() => state.inflight.delete(unit.id));
  state.inflight.set(unit.id, p);
}

async function carryOut(w: WorkerContext, input: SettleInput): Promise<void> {
  try {
    for (const step of settle(input)) await execute(w, input, step);
  } catch (err) {
    const refusal = refusalOf(err);
    const steps = refusal && settleRefused(input, refusal);
    if (!steps) throw err;
    for (const step of steps) await execute(w, input, step);
  }
}

function refusalOf(err: unknown): Refusal | undefined {
  if (err instanceof PlanVersionChangedError) return { kind: "plan-changed", held: err.held, current: err.current };
  if (err instanceof StaleFencingTokenError) return { kind: "stale-token", message: err.message };
  return undefined;
}

async function execute(w: WorkerContext, input: SettleInput, step: SettleStep): Promise<void> {
  const { store, run } = w.core;
  switch (step.kind) {
    case "book-time":
      await store.chargeBudget(run, input.time.amounts, input.time.event, "record");
      return;
    case "crash-point":
      w.core.crash(step.point, { unit: input.unit.id });
      return;
    case "commit":
      await enqueue(w, step.commit);
      return;
    case "end-attempt":
      await store.endAttempt(run, input.unit.id, input.token, step.end, step.events);
      return;
    case "hold-run":
      await store.setRunHold(run, step.hold, step.event);
      return;
    case "append-events":
      await store.appendEvents(run, step.events);
      return;
    case "invalidate-corrupt":
      await invalidateCorrupt(w, step.producer, step.path, step.message);
      return;
    case "log":
      w.core.log(step.line);
      return;
  }
}
