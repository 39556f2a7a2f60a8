/**
 * `impact(plan, changes)`: the normative invalidation semantics of contract v1
 * as a breadth-first search over states (node, kind), "this node's output has
 * changed in this kind".
 *
 * - A change (origin, kinds) starts in the states (origin, k) for each k.
 * - From (v, k), every edge v -> w that declares k invalidates w; w then
 *   carries k plus `content` (it will produce new outputs), i.e. it reaches the
 *   states (w, k) and (w, content).
 * - An impact rule `on: k` acts like an edge of kind k from its `at` node (or
 *   from every node when it has no `at`) to each unit it names.
 *
 * Carrying the kinds that actually travelled (not every kind of the original
 * change) is what makes `all` at a node equal the union of its single kinds.
 * Breadth-first order makes the first hop into a unit the end of a shortest
 * explanation path, and each state's cause is its path back to the change.
 */
import { EDGE_KINDS, type Plan } from "../plan/schema.js";
import { describeCause } from "./explain.js";
import { CONTENT, KIND_COUNT } from "./kinds.js";
import { indexPlan } from "./plan-index.js";
import { resolveChanges } from "./resolve-changes.js";
import type { CauseTree, ChangeInput, ImpactReport, InvalidatedUnit } from "./types.js";

export function impact(plan: Plan, changes: readonly ChangeInput[]): ImpactReport {
  const index = indexPlan(plan);
  const { resolved, unmatched } = resolveChanges(index, changes);
  const { ids, outStart, outTarget, outMask, outEdge, ruleTargets, ruleMask } = index;

  const stateCause: (CauseTree | undefined)[] = new Array(ids.length * KIND_COUNT);
  const unitCause: (CauseTree | undefined)[] = new Array(index.unitCount);
  const queue: number[] = [];
  const firedAnywhere = new Set<number>();

  const reach = (node: number, kind: number, cause: CauseTree) => {
    const state = node * KIND_COUNT + kind;
    if (stateCause[state] === undefined) {
      stateCause[state] = cause;
      queue.push(state);
    }
  };
  // One hop into unit `to`, travelling in `kind`, with its explanation built lazily.
  const invalidate = (to: number, kind: number, makeCause: () => CauseTree) => {
    const base = to * KIND_COUNT;
    if (unitCause[to] !== undefined && stateCause[base + CONTENT] !== undefined && stateCause[base + kind] !== undefined) return;
    const cause = makeCause();
    unitCause[to] ??= cause;
    reach(to, CONTENT, cause);
    reach(to, kind, cause);
  };

  for (const { change, node, mask } of resolved) {
    for (let k = 0; k < KIND_COUNT; k++) {
      if (mask & (1 << k)) reach(node, k, { type: "change", change, origin: ids[node]!, kind: EDGE_KINDS[k]! });
    }
  }

  const fireRule = (rule: number, from: number, because: CauseTree) => {
    const { on, at } = plan.impactRules[rule]!;
    const kind = EDGE_KINDS.indexOf(on);
    for (const to of ruleTargets[rule]!) {
      invalidate(to, kind, () => ({
        type: "rule",
        rule,
        on,
        ...(at !== undefined ? { at } : {}),
        from: ids[from]!,
        to: ids[to]!,
        because,
      }));
    }
  };

  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    const node = (state / KIND_COUNT) | 0;
    const kind = state - node * KIND_COUNT;
    const bit = 1 << kind;
    const because = stateCause[state]!;
    for (let e = outStart[node]!; e < outStart[node + 1]!; e++) {
      if (!(outMask[e]! & bit)) continue;
      const to = outTarget[e]!;
      invalidate(to, kind, () => ({
        type: "edge",
        from: ids[node]!,
        to: ids[to]!,
        kind: EDGE_KINDS[kind]!,
        edgeKinds: plan.edges[outEdge[e]!]!.kinds,
        because,
      }));
    }
    for (const rule of index.rulesAt.get(node) ?? []) if (ruleMask[rule]! & bit) fireRule(rule, node, because);
    for (const rule of index.rulesAnywhere) {
      // The first state carrying the rule's kind is at the least depth, so one firing gives shortest paths.
      if (ruleMask[rule]! & bit && !firedAnywhere.has(rule)) {
        firedAnywhere.add(rule);
        fireRule(rule, node, because);
      }
    }
  }

  const originUnits = new Set(resolved.map((r) => r.node).filter((n) => n < index.unitCount));
  const invalidated: InvalidatedUnit[] = [];
  const kept: string[] = [];
  const origins: string[] = [];
  for (let u = 0; u < index.unitCount; u++) {
    const cause = unitCause[u];
    if (cause) invalidated.push({ unit: ids[u]!, phase: index.phaseOf[u]!, ...describeCause(cause), cause });
    else if (originUnits.has(u)) origins.push(ids[u]!);
    else kept.push(ids[u]!);
  }
  return { changes: [...changes], invalidated, kept, origins, unmatched };
}
