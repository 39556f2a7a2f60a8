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
 * explanation path.
 *
 * The search only fills typed arrays (predecessor and hop per reached state)
 * that are reused across queries on one plan, so a query allocates nothing per
 * edge. `impact` then builds the plain report, cause trees and paths
 * included, from those arrays; `invalidatedBy` reads only the set, for a
 * caller that needs a count.
 */
import { EDGE_KINDS } from "../plan/schema.js";
import { CauseBuilder, invalidation } from "./explain.js";
import { CONTENT, KIND_COUNT } from "../plan/kinds.js";
import { indexPlan, type ImpactGraph, type PlanIndex } from "./plan-index.js";
import { resolveChanges } from "./resolve-changes.js";
import { scratchFor, type Scratch } from "./scratch.js";
import type { ChangeInput, ImpactReport, InvalidatedUnit, Unmatched } from "./types.js";

export function impact(plan: ImpactGraph, changes: readonly ChangeInput[]): ImpactReport {
  return search(plan, changes, ({ index, scratch, originUnits, unmatched }) => {
    const { queue, from, via, kind, unitFrom, unitVia, unitKind } = scratch;
    const causes = new CauseBuilder(plan, index, { queue, from, via, kind });
    const invalidated: InvalidatedUnit[] = [];
    const kept: string[] = [];
    const origins: string[] = [];
    for (let u = 0; u < index.unitCount; u++) {
      const id = index.ids[u]!;
      if (unitFrom[u]) invalidated.push(invalidation(causes, id, index.phaseOf[u]!, unitFrom[u]! - 1, unitVia[u]!, unitKind[u]!, u));
      else if (originUnits.has(u)) origins.push(id);
      else kept.push(id);
    }
    return { changes: [...changes], invalidated, kept, origins, unmatched };
  });
}

/** The ids of the units `impact` would invalidate, in plan order, without their explanations. */
export function invalidatedBy(plan: ImpactGraph, changes: readonly ChangeInput[]): string[] {
  return search(plan, changes, ({ index, scratch }) => index.ids.slice(0, index.unitCount).filter((_, u) => scratch.unitFrom[u]));
}

/** How many units `impact` would invalidate (`invalidatedBy(...).length`, without making the list): what a lens shows. */
export function invalidatedCount(plan: ImpactGraph, changes: readonly ChangeInput[]): number {
  return search(plan, changes, ({ index, scratch }) => {
    let count = 0;
    for (let u = 0; u < index.unitCount; u++) if (scratch.unitFrom[u]) count++;
    return count;
  });
}

/** What a search leaves for its reader, valid only until the reader returns (the scratch is then cleared). */
interface Reached {
  index: PlanIndex;
  scratch: Scratch;
  originUnits: Set<number>;
  unmatched: Unmatched[];
}

function search<T>(plan: ImpactGraph, changes: readonly ChangeInput[], read: (reached: Reached) => T): T {
  const index = indexPlan(plan);
  const { resolved, unmatched } = resolveChanges(index, changes);
  const { outStart, outTarget, outMask, ruleTargets, ruleMask, rulesAt, rulesAnywhere } = index;
  const scratch = scratchFor(index);
  const { position, queue, from, via, kind: hopKind, unitFrom, unitVia, unitKind } = scratch;
  let tail = 0;
  const firedAnywhere = new Set<number>();

  const reach = (state: number, predecessor: number, hop: number, kind: number) => {
    if (position[state]) return;
    position[state] = tail + 1;
    queue[tail] = state;
    from[tail] = predecessor;
    via[tail] = hop;
    hopKind[tail] = kind;
    tail++;
  };
  // One hop from the state at queue position `predecessor` into unit `to`, travelling in `kind`.
  const arrive = (to: number, predecessor: number, hop: number, kind: number) => {
    if (!unitFrom[to]) {
      unitFrom[to] = predecessor + 1;
      unitVia[to] = hop;
      unitKind[to] = kind;
    }
    reach(to * KIND_COUNT + CONTENT, predecessor, hop, kind);
    reach(to * KIND_COUNT + kind, predecessor, hop, kind);
  };
  const fireRule = (rule: number, predecessor: number) => {
    const kind = EDGE_KINDS.indexOf(plan.impactRules[rule]!.on);
    for (const to of ruleTargets[rule]!) arrive(to, predecessor, -1 - rule, kind);
  };

  try {
    for (const { change, node, mask } of resolved) {
      for (let k = 0; k < KIND_COUNT; k++) if (mask & (1 << k)) reach(node * KIND_COUNT + k, -1 - change, 0, k);
    }

    for (let head = 0; head < tail; head++) {
      const state = queue[head]!;
      const node = (state / KIND_COUNT) | 0;
      const kind = state - node * KIND_COUNT;
      const bit = 1 << kind;
      for (let e = outStart[node]!; e < outStart[node + 1]!; e++) {
        if (outMask[e]! & bit) arrive(outTarget[e]!, head, e, kind);
      }
      const watching = rulesAt.get(node);
      if (watching) for (const rule of watching) if (ruleMask[rule]! & bit) fireRule(rule, head);
      for (const rule of rulesAnywhere) {
        // The first state carrying the rule's kind is at the least depth, so one firing gives shortest paths.
        if (ruleMask[rule]! & bit && !firedAnywhere.has(rule)) {
          firedAnywhere.add(rule);
          fireRule(rule, head);
        }
      }
    }

    const originUnits = new Set(resolved.map((r) => r.node).filter((n) => n < index.unitCount));
    return read({ index, scratch, originUnits, unmatched });
  } finally {
    // Every reached unit has a reached state, so clearing by the queue leaves the scratch clean.
    for (let i = 0; i < tail; i++) {
      const state = queue[i]!;
      position[state] = 0;
      const node = (state / KIND_COUNT) | 0;
      if (node < index.unitCount) unitFrom[node] = 0;
    }
  }
}
