/**
 * What both exports draw, in one place: the inputs (left free, so Graphviz
 * puts each next to the units that need it) and one group per phase, in the
 * order phases first appear in the plan.
 */
import type { ImpactGraph } from "../impact/plan-index.js";
import type { Plan } from "../plan/schema.js";

/**
 * What the exports draw: a plan's units, inputs and edges and its task's name.
 * A plan is one; a checked contract's `graphView` is another, made without
 * hashing every unit and the plan, which a picture never shows.
 */
export interface GraphView extends ImpactGraph {
  readonly task: Pick<Plan["task"], "id" | "version">;
}

export interface Group {
  label: string;
  units: string[];
}

export function phaseGroups(plan: Pick<GraphView, "units">): Group[] {
  const phases = new Map<string, Group>();
  for (const unit of plan.units) {
    let group = phases.get(unit.phase);
    if (!group) phases.set(unit.phase, (group = { label: unit.phase, units: [] }));
    group.units.push(unit.id);
  }
  return [...phases.values()];
}

/** A one-line caption: the task, and the change shown with its count. */
export function captionOf(plan: GraphView, summary?: { changes: string[]; invalidated: number }): string {
  if (!summary) return `${plan.task.id} v${plan.task.version}`;
  return `${plan.task.id} v${plan.task.version}: change ${summary.changes.join(" + ")} invalidates ${summary.invalidated} of ${plan.units.length} units`;
}
