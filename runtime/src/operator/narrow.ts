/**
 * Narrowing a run's goal: reads the plan and facts, asks narrow-plan.ts what
 * is kept and dropped, and on a decision holds each dropped unit as
 * `out-of-scope` (the scheduler never readies it and the run is done
 * without it; engine/verify-done.ts gives up what it names). The decision
 * event goes with the first hold; the holds are one write each, so a narrow
 * cut short is finished by narrowing again. Checked against the preview's
 * basis like every previewed decision.
 */
import { NotFoundError } from "../errors.js";
import { verifierName } from "../engine/verify-done.js";
import type { Store } from "../store/types.js";
import { actorOf, type Acting } from "./authority.js";
import { basisOf, checkBasis, type PreviewBasis } from "./basis.js";
import type { Expectation } from "./flag.js";
import { planNarrow, type NarrowPlan } from "./narrow-plan.js";
import { decisionEvent, type Preview } from "./preview.js";
import { planOfRun } from "./status.js";

async function narrowOf(store: Store, run: string, to: readonly string[], now: string): Promise<NarrowPlan & { version: number }> {
  const plan = await planOfRun(store, run);
  const facts = await store.loadFacts(run);
  const made = planNarrow({
    run,
    to,
    plan: {
      units: plan.units.map((u) => ({
        id: u.id,
        needs: u.needs.filter((n) => n.nodeType === "unit").map((n) => n.node),
        produces: u.produces,
        verify: u.verify.map(verifierName),
      })),
      outputs: plan.task.outputs,
      done: plan.task.done.map(verifierName),
    },
    units: facts.units,
    effects: await store.listEffects(run),
    leases: facts.leases.filter((l) => l.expiresAt > now),
  });
  return { ...made, version: facts.run.version };
}

export async function previewNarrow(
  store: Store,
  run: string,
  to: readonly string[],
  now: string,
): Promise<{ preview: Preview; basis: PreviewBasis }> {
  if (!(await store.getRun(run))) throw new NotFoundError(`no run ${run} in this store`);
  const made = await narrowOf(store, run, to, now);
  return { preview: made.preview, basis: basisOf(made.preview, made.version) };
}

/** Drops the units; needs an operator key when the store has operator identities. */
export async function narrow(
  store: Store,
  run: string,
  to: readonly string[],
  acting: Acting,
  now: string,
  reason?: string,
  expected?: Expectation,
): Promise<{ preview: Preview; basis: PreviewBasis }> {
  const actor = await actorOf(store, acting, `narrow ${run}`);
  if (!(await store.getRun(run))) throw new NotFoundError(`no run ${run} in this store`);
  const made = await narrowOf(store, run, to, now);
  checkBasis(`narrow ${run}`, expected, made.preview, made.version);
  const detail = `dropped from the goal by ${actor.by}: narrowed to ${to.join(", ")}${reason ? ` (${reason})` : ""}`;
  for (const [i, unit] of made.drop.entries()) {
    const event =
      i === 0
        ? decisionEvent(now, "narrow", actor, { to: [...to], drop: made.drop, ...(reason ? { reason } : {}) })
        : { at: now, type: "unit-dropped", unit, data: { by: actor.by } };
    await store.setUnitHold(run, unit, { reason: "out-of-scope", detail, at: now, data: { by: actor.by, to: [...to] } }, event);
  }
  return { preview: made.preview, basis: basisOf(made.preview, made.version) };
}
