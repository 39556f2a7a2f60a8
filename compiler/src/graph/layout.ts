/** The grouping both exports draw: inputs first, then one group per phase in plan order. */
import type { Plan } from "../plan/schema.js";

export interface Group {
  label: string;
  nodes: { id: string; type: "unit" | "input" }[];
}

export function groupsOf(plan: Plan): Group[] {
  const phases = new Map<string, Group>();
  for (const unit of plan.units) {
    let group = phases.get(unit.phase);
    if (!group) phases.set(unit.phase, (group = { label: unit.phase, nodes: [] }));
    group.nodes.push({ id: unit.id, type: "unit" });
  }
  const inputs: Group = { label: "inputs", nodes: plan.inputs.map((i) => ({ id: i.name, type: "input" })) };
  return [...(inputs.nodes.length > 0 ? [inputs] : []), ...phases.values()];
}

/** A one-line caption: the task, and the change shown with its count. */
export function captionOf(plan: Plan, summary?: { changes: string[]; invalidated: number }): string {
  if (!summary) return `${plan.task.id} v${plan.task.version}`;
  return `${plan.task.id} v${plan.task.version}: change ${summary.changes.join(" + ")} invalidates ${summary.invalidated} of ${plan.units.length} units`;
}
