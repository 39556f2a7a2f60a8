/**
 * C020: the unit graph must be acyclic. Only units Kahn's algorithm could not
 * level are examined; each strongly connected component among them is one
 * cycle report with the shortest cycle through its first-declared unit, in
 * data-flow direction (`A -> B` means B needs A), at the `needs` entry that
 * closes it, with the other edges as related locations.
 */
import type { Span } from "../diagnostics/types.js";
import type { CheckContext } from "./context.js";
import { levelGraph, type UnitGraph } from "./graph.js";
import type { PlanView } from "./plan-view.js";

/**
 * Each cycle of the graph, as the shortest path through its first-declared
 * unit, in data-flow direction and closed (`[a, b, a]`: b needs a, a needs b).
 */
export function cyclesOf(graph: Pick<UnitGraph, "units" | "upstream" | "blocked">): string[][] {
  if (graph.blocked.length === 0) return [];
  const order = new Map(graph.units.map((id, i) => [id, i]));
  const cycles: string[][] = [];
  for (const component of stronglyConnected(graph.blocked, graph.upstream)) {
    const start = component.reduce((a, b) => (order.get(a)! <= order.get(b)! ? a : b));
    const inComponent = new Set(component);
    if (component.length === 1 && !graph.upstream.get(start)!.includes(start)) continue;
    cycles.push(shortestCycle(start, inComponent, downstreamWithin(inComponent, graph.upstream, order)));
  }
  return cycles;
}

export function cycleMessage(path: readonly string[]): string {
  return `dependency cycle: ${path.join(" -> ")}; units must form an acyclic graph — declare iteration inside one unit with 'loop'`;
}

export function checkCycles(ctx: CheckContext): void {
  for (const path of cyclesOf(ctx.graph)) {
    const start = path[0]!;
    const needSpan = (unit: string, upstream: string): Span => {
      const entry = ctx.parsed.model.units.get(unit)?.needs.find((n) => n.name === upstream);
      return entry ? entry.span : ctx.keySpan(["units", unit]);
    };
    const closing = path[path.length - 2]!;
    const related = [];
    for (let i = 0; i + 1 < path.length - 1; i++) {
      related.push({ message: `${path[i + 1]} needs ${path[i]}`, span: needSpan(path[i + 1]!, path[i]!) });
    }
    ctx.sink.report("C020", needSpan(start, closing), cycleMessage(path), { related });
  }
}

/** C020 on a plan: its units' needs of units, cycle by cycle, at the need that closes each. */
export function planCycles(view: PlanView): void {
  const units = view.plan.units;
  const ids = units.map((u) => u.id);
  const graph = levelGraph(ids, (i) => units[i]!.needs.filter((n) => n.nodeType === "unit").map((n) => n.node));
  for (const path of cyclesOf(graph)) {
    const start = path[0]!;
    const closing = path[path.length - 2]!;
    const i = view.units.get(start)!.index;
    const j = units[i]!.needs.findIndex((n) => n.nodeType === "unit" && n.node === closing);
    view.report("C020", `/units/${i}/needs/${j}`, cycleMessage(path));
  }
}

/** unit -> the component's units that need it, in declaration order (as a whole-graph list would have them). */
function downstreamWithin(component: Set<string>, upstream: Map<string, string[]>, order: Map<string, number>): Map<string, string[]> {
  const members = [...component].sort((a, b) => order.get(a)! - order.get(b)!);
  const downstream = new Map<string, string[]>(members.map((member) => [member, []]));
  for (const member of members) for (const up of upstream.get(member)!) downstream.get(up)?.push(member);
  return downstream;
}

/** BFS along data-flow edges from `start` back to itself, staying inside the component. */
function shortestCycle(start: string, component: Set<string>, downstream: Map<string, string[]>): string[] {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    for (const next of downstream.get(id)!) {
      if (!component.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let at: string | undefined = id; at !== undefined && at !== start; at = parent.get(at)) path.push(at);
        path.push(start);
        return [start, ...path.slice(1, -1).reverse(), start];
      }
      if (!parent.has(next)) {
        parent.set(next, id);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

/** Tarjan's algorithm, iterative (graphs can be thousands deep). */
function stronglyConnected(nodes: string[], edges: Map<string, string[]>): string[][] {
  const allowed = new Set(nodes);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const result: string[][] = [];
  let counter = 0;
  for (const root of nodes) {
    if (index.has(root)) continue;
    const targetsOf = (node: string) => (edges.get(node) ?? []).filter((t) => allowed.has(t));
    const work: { node: string; targets: string[]; next: number }[] = [{ node: root, targets: targetsOf(root), next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, targets: targetsOf(target), next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        result.push(component);
      }
    }
  }
  return result;
}
