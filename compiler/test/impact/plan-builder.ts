/**
 * Builds a `Plan` from a small sketch (units with phase and needs, inputs,
 * impact rules), so impact tests can state a graph in a few lines before, and
 * independently of, the compiler. Units come out in the compiler's order:
 * topological, ties broken by id.
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

  const order = topologicalOrder(ids, (id) => needsOf(id).filter((n) => n.nodeType === "unit").map((n) => n.node));
  const level = new Map<string, number>();
  for (const id of order) {
    const ups = needsOf(id).filter((n) => n.nodeType === "unit");
    level.set(id, ups.length === 0 ? 0 : 1 + Math.max(...ups.map((n) => level.get(n.node)!)));
  }
  const units: PlanUnit[] = order.map((id) => ({
    id,
    phase: sketch.units[id]!.phase ?? "work",
    level: level.get(id)!,
    needs: needsOf(id),
    uses: [],
    produces: [],
    verify: [],
    retry: { max: 0 },
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

/** Kahn's algorithm taking the smallest ready id first (a binary heap keeps 10k-unit graphs fast). */
function topologicalOrder(ids: string[], upstream: (id: string) => string[]): string[] {
  const pending = new Map(ids.map((id) => [id, upstream(id).length]));
  const downstream = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const id of ids) for (const up of upstream(id)) downstream.get(up)!.push(id);
  const heap = new MinHeap();
  for (const [id, count] of pending) if (count === 0) heap.push(id);
  const order: string[] = [];
  for (let id = heap.pop(); id !== undefined; id = heap.pop()) {
    order.push(id);
    for (const down of downstream.get(id)!) {
      const left = pending.get(down)! - 1;
      pending.set(down, left);
      if (left === 0) heap.push(down);
    }
  }
  if (order.length !== ids.length) throw new Error("sketch has a cycle");
  return order;
}

class MinHeap {
  private items: string[] = [];
  push(item: string): void {
    const a = this.items;
    a.push(item);
    for (let i = a.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (a[parent]! <= a[i]!) break;
      [a[parent], a[i]] = [a[i]!, a[parent]!];
      i = parent;
    }
  }
  pop(): string | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]! < a[m]!) m = l;
        if (r < a.length && a[r]! < a[m]!) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}
