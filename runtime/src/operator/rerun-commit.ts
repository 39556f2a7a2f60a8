/**
 * A re-run as a decision checkpoint: the unit and what depends on it are
 * superseded (kept), or a unit that did not succeed is reset. `rerun` in
 * actions.ts is the operator's (it checks the authority first); a contract's
 * `on_code_change: rerun` policy (code-drift.ts) commits one as `via: policy`.
 */
import { invalidateFrom } from "../engine/invalidate.js";
import { NotFoundError } from "../errors.js";
import type { Store, UnitChange } from "../store/types.js";
import type { Actor } from "./authority.js";
import { decisionEvent, type Preview } from "./preview.js";
import { planOfRun } from "./status.js";

export async function previewRerun(
  store: Store,
  run: string,
  unit: string,
  reason = "operator re-run",
): Promise<{ preview: Preview; changes: UnitChange[] }> {
  const plan = await planOfRun(store, run);
  if (!plan.units.some((u) => u.id === unit)) throw new NotFoundError(`run ${run} has no unit ${unit}`);
  const facts = await store.loadFacts(run);
  const row = facts.units.find((u) => u.unit === unit);
  const r = facts.run;
  let changes: UnitChange[];
  if (row?.state === "succeeded") changes = invalidateFrom(plan, r.planVersion, unit, reason, facts.units);
  else changes = [{ kind: "reset", unit }];
  const touched = new Set(changes.map((c) => c.unit));
  return {
    preview: {
      action: `rerun ${unit}`,
      reuse: facts.units.filter((u) => u.state === "succeeded" && !touched.has(u.unit)).map((u) => u.unit),
      invalidate: changes.map((c) => ({
        unit: c.unit,
        why:
          c.kind === "supersede"
            ? `${c.info.path}${c.info.direct ? "" : " (kept if its inputs hash the same: early cutoff)"}`
            : "reset: attempts and failures cleared",
      })),
      notes: [],
    },
    changes,
  };
}

export async function commitRerun(store: Store, run: string, unit: string, actor: Actor, now: string, reason?: string): Promise<Preview> {
  const { preview, changes } = await previewRerun(store, run, unit, reason);
  const r = (await store.getRun(run))!;
  const by = actor.by;
  await store.commitCheckpoint(run, r.version, {
    kind: "decision",
    changes,
    approvals: [],
    nextAction: { kind: "run", units: [unit] },
    ...(r.status === "failed" || r.status === "done" ? { status: "active" as const } : {}),
    events: [
      decisionEvent(now, "rerun", actor, {
        unit,
        invalidate: preview.invalidate.map((i) => i.unit),
        ...(reason ? { reason } : {}),
      }),
    ],
    now,
  });
  if (r.hold?.reason === "no-safe-action")
    await store.setRunHold(run, null, { at: now, type: "unblocked", data: { reason: r.hold.reason, by, via: "rerun" } });
  return preview;
}
