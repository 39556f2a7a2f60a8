/** Name -> definition maps over a plan, built once per plan object. */
import type { Plan, PlanEdge, PlanInput, PlanTool, PlanUnit, PlanVerifier } from "@taskspec/compiler";

export interface PlanLookup {
  units: ReadonlyMap<string, PlanUnit>;
  inputs: ReadonlyMap<string, PlanInput>;
  tools: ReadonlyMap<string, PlanTool>;
  verifiers: ReadonlyMap<string, PlanVerifier>;
  /** Edges out of each node: who needs it, in which kinds. */
  dependents: ReadonlyMap<string, PlanEdge[]>;
  /** Units using each tool. */
  usersOfTool: ReadonlyMap<string, string[]>;
}

const cache = new WeakMap<Plan, PlanLookup>();

export function lookup(plan: Plan): PlanLookup {
  let found = cache.get(plan);
  if (!found) {
    found = build(plan);
    cache.set(plan, found);
  }
  return found;
}

function build(plan: Plan): PlanLookup {
  const dependents = new Map<string, PlanEdge[]>();
  for (const edge of plan.edges) push(dependents, edge.from, edge);
  const usersOfTool = new Map<string, string[]>();
  for (const unit of plan.units) for (const tool of unit.uses) push(usersOfTool, tool, unit.id);
  return {
    units: new Map(plan.units.map((u) => [u.id, u])),
    inputs: new Map(plan.inputs.map((i) => [i.name, i])),
    tools: new Map(plan.tools.map((t) => [t.name, t])),
    verifiers: new Map(plan.verifiers.map((v) => [v.name, v])),
    dependents,
    usersOfTool,
  };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
