/**
 * Run-time invalidation. The compiler's impact engine says which units a
 * change reaches (with explanation paths); here the succeeded ones among them
 * become `superseded` (kept, with the path) in one checkpoint. A unit reached
 * only through another unit's output is marked `direct: false`: if that
 * upstream re-runs and its artifacts hash the same (per facet of the edge, when
 * facets are reported), the unit is restored instead of re-run (early cutoff).
 */
import { impact, impactOfEdit, type Change, type InvalidatedUnit, type Plan, type PlanUnit } from "@taskspec/compiler";
import type { SourceDigests, UnitStateRow } from "../model/facts.js";
import type { UnitChange } from "../store/types.js";

/** Is the unit reached by the change itself (not only through another unit's output)? */
function isDirect(inv: InvalidatedUnit, plan: Plan, changedUnits: ReadonlySet<string>): boolean {
  if (changedUnits.has(inv.unit)) return true;
  const cause = inv.cause;
  if (cause.type === "rule" || cause.type === "change") return true;
  return plan.inputs.some((i) => i.name === cause.from);
}

export function supersedeChanges(
  plan: Plan,
  planVersion: string,
  invalidated: readonly InvalidatedUnit[],
  units: readonly UnitStateRow[],
  changedUnits: ReadonlySet<string> = new Set(),
): UnitChange[] {
  const state = new Map(units.map((u) => [u.unit, u.state]));
  const out: UnitChange[] = [];
  for (const inv of invalidated) {
    const s = state.get(inv.unit);
    if (s !== "succeeded" && s !== "superseded") continue;
    out.push({ kind: "supersede", unit: inv.unit, info: { path: inv.path, direct: isDirect(inv, plan, changedUnits), planVersion } });
  }
  return out;
}

/** Everything a contract/input change does to a run: new, removed, changed and invalidated units. */
export function planChangeChanges(oldPlan: Plan, newPlan: Plan, newPlanVersion: string, units: readonly UnitStateRow[]) {
  const edit = impactOfEdit(oldPlan, newPlan);
  const changed = new Set(edit.diff.units.changed);
  const state = new Map(units.map((u) => [u.unit, u.state]));
  const changes: UnitChange[] = [];
  for (const id of edit.diff.units.removed) {
    if (state.has(id))
      changes.push({
        kind: "remove",
        unit: id,
        info: { path: `${id} removed from the contract`, direct: true, planVersion: newPlanVersion },
      });
  }
  for (const id of edit.diff.units.added) changes.push({ kind: "reset", unit: id });
  for (const id of edit.diff.units.changed) {
    const s = state.get(id);
    if (s === "succeeded" || s === "superseded")
      changes.push({
        kind: "supersede",
        unit: id,
        info: { path: `${id} (definition changed)`, direct: true, planVersion: newPlanVersion },
      });
  }
  const already = new Set(changes.map((c) => c.unit));
  changes.push(
    ...supersedeChanges(
      newPlan,
      newPlanVersion,
      edit.report.invalidated.filter((i) => !already.has(i.unit)),
      units,
      changed,
    ),
  );
  return { changes, edit };
}

/** Downstream of one unit (corrupt output, operator re-run): the unit itself direct, the rest cutoff-eligible. */
export function invalidateFrom(
  plan: Plan,
  planVersion: string,
  origin: string,
  reason: string,
  units: readonly UnitStateRow[],
): UnitChange[] {
  const changes: Change[] = [{ origin, kinds: "all" }];
  const report = impact(plan, changes);
  const state = new Map(units.map((u) => [u.unit, u.state]));
  const out: UnitChange[] = [];
  if (state.get(origin) === "succeeded")
    out.push({ kind: "supersede", unit: origin, info: { path: `${origin} (${reason})`, direct: true, planVersion } });
  out.push(
    ...supersedeChanges(
      plan,
      planVersion,
      report.invalidated.filter((i) => i.unit !== origin),
      units,
    ).map((c) => (c.kind === "supersede" ? { ...c, info: { ...c.info, direct: false } } : c)),
  );
  return out;
}

/**
 * Early cutoff: do the digests a superseded unit consumed equal what its needs
 * hold now? Per edge, facet digests of the edge's kinds are compared when both
 * sides report them; otherwise whole-artifact sha256.
 */
export function sourcesUnchanged(unit: PlanUnit, before: SourceDigests, now: SourceDigests): boolean {
  for (const need of unit.needs) {
    const key = need.nodeType === "input" ? `input:${need.node}` : need.node;
    const a = before[key] ?? [];
    const b = now[key] ?? [];
    if (a.length !== b.length) return false;
    for (const x of a) {
      const y = b.find((z) => z.name === x.name);
      if (!y) return false;
      const facetwise = x.facets && y.facets && need.kinds.every((k) => x.facets![k] !== undefined && y.facets![k] !== undefined);
      if (facetwise ? need.kinds.some((k) => x.facets![k] !== y.facets![k]) : x.sha256 !== y.sha256) return false;
    }
  }
  return true;
}
