/**
 * Builds a `Plan` from a small sketch (units with phase and needs, inputs,
 * impact rules), so impact tests can state a graph in a few lines before, and
 * independently of, the compiler. Units come out in the compiler's order: by
 * parallel level, then id.
 */
import type { EdgeKind, ImpactRule, Plan, PlanUnit } from "../../src/plan/schema.js";

export interface UnitSketch {
  phase?: string;
  needs?: Record<string, EdgeKind | EdgeKind[]>;
  /** Stands in for the definition hash; change it to model an edit. */
  hash?: string;
}

export interface PlanSketch {
  inputs?: Record<string, { hash?: string }>;
  units: Record<string, UnitSketch>;
  rules?: ImpactRule[];
}

const zeroCost = { model_calls: 0, tool_calls: 0, tokens: 0 };

export function buildPlan(sketch: PlanSketch): Plan {
  const inputs = sketch.inputs ?? {};
  const ids = Object.keys(sketch.units);
  const needsOf = (id: string) =>
    Object.entries(sketch.units[id]!.needs ?? {}).map(([node, k]) => ({
      node,
      nodeType: node in inputs ? ("input" as const) : ("unit" as const),
      kinds: Array.isArray(k) ? k : [k],
    }));

  const level = levelsOf(ids, (id) =>
    needsOf(id)
      .filter((n) => n.nodeType === "unit")
      .map((n) => n.node),
  );
  const order = [...ids].sort((a, b) => level.get(a)! - level.get(b)! || (a < b ? -1 : a > b ? 1 : 0));
  const units: PlanUnit[] = order.map((id) => ({
    id,
    phase: sketch.units[id]!.phase ?? "work",
    level: level.get(id)!,
    needs: needsOf(id),
    uses: [],
    produces: [],
    verify: [],
    retry: { max: 0 },
    timeoutMs: 1_800_000,
    timeoutSource: "default",
    cost: zeroCost,
    worstCase: zeroCost,
    definitionHash: sketch.units[id]!.hash ?? `hash-${id}`,
  }));
  const levels: string[][] = [];
  for (const u of units) (levels[u.level] ??= []).push(u.id);

  return {
    format: 1,
    planHash: "test",
    task: { id: "test", version: 1, goal: "test", forbid: [], outputs: [], done: [] },
    inputs: Object.entries(inputs).map(([name, i]) => ({
      name,
      kind: "decision",
      volatile: false,
      definitionHash: i.hash ?? `hash-${name}`,
    })),
    units,
    levels,
    edges: units.flatMap((u) => u.needs.map((n) => ({ from: n.node, to: u.id, kinds: n.kinds }))),
    tools: [],
    compensation: {},
    verifiers: [],
    budgets: { retries: 0 },
    worstCase: { total: zeroCost, exceeded: [] },
    impactRules: sketch.rules ?? [],
  };
}

/** Parallel level of each unit (Kahn's algorithm, so deep chains need no recursion). */
function levelsOf(ids: string[], upstream: (id: string) => string[]): Map<string, number> {
  const pending = new Map(ids.map((id) => [id, upstream(id).length]));
  const downstream = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const id of ids) for (const up of upstream(id)) downstream.get(up)!.push(id);
  const level = new Map<string, number>();
  const ready = ids.filter((id) => pending.get(id) === 0);
  for (const id of ready) level.set(id, 0);
  for (let head = 0; head < ready.length; head++) {
    const id = ready[head]!;
    for (const down of downstream.get(id)!) {
      level.set(down, Math.max(level.get(down) ?? 0, level.get(id)! + 1));
      const left = pending.get(down)! - 1;
      pending.set(down, left);
      if (left === 0) ready.push(down);
    }
  }
  if (ready.length !== ids.length) throw new Error("sketch has a cycle");
  return level;
}
