/**
 * Contract diffs: what an edit between two plans of one task invalidates.
 * Units and inputs are compared by definition hash (which ignores comments and
 * key order), so only a real edit becomes a change:
 * - a changed unit is `all` at that unit, and it must re-run itself;
 * - a changed input is `all` at that input;
 * - an added unit is new work, and so is what follows from it;
 * - a removed unit or input is listed; its former dependents changed their
 *   `needs`, so they are changed units themselves.
 */
import type { PlanUnit, UnhashedPlan as Plan } from "../plan/schema.js";
import { impact } from "./propagate.js";
import type { Change, ImpactReport } from "./types.js";
import { policyChanges, unitKeyChanges, type UnitKeyChanges } from "./unit-keys.js";

export interface PlanDiff {
  /** The changes to run `impact(newPlan, changes)` with. */
  changes: Change[];
  units: { added: string[]; removed: string[]; changed: string[] };
  inputs: { added: string[]; removed: string[]; changed: string[] };
  /**
   * Per unit present in both plans whose keys changed: the behavioural keys
   * (non-empty exactly for `units.changed`) and the policy keys (retry,
   * timeout, cost, phase: future attempts only, never a re-run).
   */
  keys: Record<string, UnitKeyChanges>;
}

export function diffPlans(oldPlan: Plan, newPlan: Plan): PlanDiff {
  const units = compare(
    new Map(oldPlan.units.map((u) => [u.id, u.definitionHash])),
    newPlan.units.map((u) => [u.id, u.definitionHash]),
  );
  const inputs = compare(
    new Map(oldPlan.inputs.map((i) => [i.name, i.definitionHash])),
    newPlan.inputs.map((i) => [i.name, i.definitionHash]),
  );
  const changes: Change[] = [
    ...inputs.changed.map((origin) => ({ origin, kinds: "all" as const })),
    ...units.changed.map((origin) => ({ origin, kinds: "all" as const })),
    ...units.added.map((origin) => ({ origin, kinds: "all" as const })),
  ];
  return { changes, units, inputs, keys: keyChanges(oldPlan, newPlan, new Set(units.changed)) };
}

function keyChanges(oldPlan: Plan, newPlan: Plan, changed: ReadonlySet<string>): Record<string, UnitKeyChanges> {
  const before = new Map<string, PlanUnit>(oldPlan.units.map((u) => [u.id, u]));
  const out: Record<string, UnitKeyChanges> = {};
  for (const unit of newPlan.units) {
    const old = before.get(unit.id);
    if (!old) continue;
    if (changed.has(unit.id)) {
      const keys = unitKeyChanges(oldPlan, old, newPlan, unit);
      // a definition that differs in no key the plan shows (say a reworded expression) still changed
      out[unit.id] = keys.behaviour.length > 0 ? keys : { ...keys, behaviour: ["definition"] };
      continue;
    }
    const policy = policyChanges(old, unit);
    if (policy.length > 0) out[unit.id] = { behaviour: [], policy };
  }
  return out;
}

function compare(before: ReadonlyMap<string, string>, after: readonly (readonly [string, string])[]) {
  const added: string[] = [];
  const changed: string[] = [];
  const present = new Set<string>();
  for (const [id, hash] of after) {
    present.add(id);
    const old = before.get(id);
    if (old === undefined) added.push(id);
    else if (old !== hash) changed.push(id);
  }
  const removed = [...before.keys()].filter((id) => !present.has(id));
  return { added, removed, changed };
}

export interface EditImpact {
  diff: PlanDiff;
  report: ImpactReport;
  /** Units of the new plan that must (re-)run: changed, added, or invalidated; plan order. */
  mustRerun: string[];
  /** Units of the new plan whose results stay valid; plan order. */
  staysValid: string[];
}

/** The whole answer to "what does this edit invalidate", for the CLI, the editor and the runtime. */
export function impactOfEdit(oldPlan: Plan, newPlan: Plan): EditImpact {
  const diff = diffPlans(oldPlan, newPlan);
  const report = impact(newPlan, diff.changes);
  const kept = new Set(report.kept);
  return {
    diff,
    report,
    mustRerun: newPlan.units.map((u) => u.id).filter((id) => !kept.has(id)),
    staysValid: report.kept,
  };
}
