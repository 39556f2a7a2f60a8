/**
 * Changes of code rather than of the contract: a tool adapter or a unit's
 * handler. A handler change is a change at its unit (the unit re-runs, and
 * what reads its output). A tool adapter change reaches every unit whose work
 * goes through the adapter: the units that use the tool, and those whose
 * recovery calls it as a lookup or compensator (the same set a tool's
 * definition hashes into). So `--change <tool>` becomes changes at those
 * units, before the impact engine runs; names that are units or inputs are
 * left as they are.
 */
import type { Plan } from "../plan/schema.js";
import type { ChangeInput } from "./types.js";

/** Units whose work or recovery calls the tool's adapter, sorted. */
export function unitsBehindTool(plan: Plan, tool: string): string[] {
  const reaches = (used: string) => {
    if (used === tool) return true;
    const t = plan.tools.find((x) => x.name === used);
    return t?.lookup === tool || t?.compensate?.tool === tool;
  };
  return plan.units
    .filter((u) => u.uses.some(reaches))
    .map((u) => u.id)
    .sort();
}

export interface ToolChange {
  tool: string;
  units: string[];
}

/**
 * Replaces each change naming a tool (and no unit or input) with changes at
 * the units behind it, in the kinds given; reports which tools were expanded.
 */
export function expandToolChanges(plan: Plan, changes: readonly ChangeInput[]): { changes: ChangeInput[]; tools: ToolChange[] } {
  const nodes = new Set([...plan.units.map((u) => u.id), ...plan.inputs.map((i) => i.name)]);
  const out: ChangeInput[] = [];
  const tools: ToolChange[] = [];
  for (const change of changes) {
    if (nodes.has(change.origin) || !plan.tools.some((t) => t.name === change.origin)) {
      out.push(change);
      continue;
    }
    const units = unitsBehindTool(plan, change.origin);
    tools.push({ tool: change.origin, units });
    // the kinds given say how the units' output changes (all, by default)
    for (const unit of units) out.push({ origin: unit, kinds: change.kinds });
  }
  return { changes: out, tools };
}
