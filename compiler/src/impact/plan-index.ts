/**
 * What every impact query needs from a plan, computed once per plan object and
 * cached in a WeakMap: node numbering (units in plan order, then inputs),
 * out-edges as flat arrays sorted by target, and impact rules by trigger node.
 * A query then only touches the edges it propagates through.
 */
import type { ImpactRule, PlanEdge, PlanInput, PlanUnit } from "../plan/schema.js";
import { maskOf } from "./kinds.js";
import { identityMemo } from "../memo.js";

/**
 * What impact propagation reads of a plan: node order, phases, edges and
 * rules. A plan is one; `CheckResult.impactGraph` is another, the same arrays
 * the plan will hold, made without building (and hashing) the rest of it, so
 * an editor's lens can count from it.
 */
export interface ImpactGraph {
  readonly units: readonly Pick<PlanUnit, "id" | "phase">[];
  readonly inputs: readonly Pick<PlanInput, "name">[];
  readonly edges: readonly PlanEdge[];
  readonly impactRules: readonly ImpactRule[];
}

export interface PlanIndex {
  /** Node ids: units `0..unitCount-1` in plan order (topological, then id), then inputs. */
  readonly ids: readonly string[];
  readonly indexOf: ReadonlyMap<string, number>;
  readonly unitCount: number;
  readonly phaseOf: readonly string[];
  /** Out-edges of node `n` are `outStart[n] .. outStart[n+1]-1`. */
  readonly outStart: Int32Array;
  readonly outTarget: Int32Array;
  readonly outMask: Uint8Array;
  /** Index into `plan.edges` of each out-edge, for its declared kinds. */
  readonly outEdge: Int32Array;
  /** Rules with `at`, by the node index they watch. */
  readonly rulesAt: ReadonlyMap<number, readonly number[]>;
  /** Rules without `at`: they fire on a change anywhere. */
  readonly rulesAnywhere: readonly number[];
  /** Unit indices each rule invalidates (names the plan does not know are skipped). */
  readonly ruleTargets: readonly (readonly number[])[];
  /** Bit of each rule's `on` kind. */
  readonly ruleMask: Uint8Array;
}

const cache = identityMemo<ImpactGraph, PlanIndex>("impact/plan-index: adjacency and rule tables by plan");

export function indexPlan(plan: ImpactGraph): PlanIndex {
  let index = cache.get(plan);
  if (!index) {
    index = buildIndex(plan);
    cache.set(plan, index);
  }
  return index;
}

function buildIndex(plan: ImpactGraph): PlanIndex {
  const ids = [...plan.units.map((u) => u.id), ...plan.inputs.map((i) => i.name)];
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length;

  const edges: { from: number; to: number; mask: number; edge: number }[] = [];
  plan.edges.forEach((e, edge) => {
    const from = indexOf.get(e.from);
    const to = indexOf.get(e.to);
    if (from !== undefined && to !== undefined) edges.push({ from, to, mask: maskOf(e.kinds), edge });
  });
  // Grouped by source, then by target's plan position, so that breadth-first
  // search visits ties in plan order and explanations are deterministic.
  edges.sort((a, b) => a.from - b.from || a.to - b.to || a.edge - b.edge);
  const outStart = new Int32Array(n + 1);
  for (const e of edges) outStart[e.from + 1]!++;
  for (let i = 0; i < n; i++) outStart[i + 1]! += outStart[i]!;
  const outTarget = new Int32Array(edges.length);
  const outMask = new Uint8Array(edges.length);
  const outEdge = new Int32Array(edges.length);
  edges.forEach((e, i) => {
    outTarget[i] = e.to;
    outMask[i] = e.mask;
    outEdge[i] = e.edge;
  });

  const rulesAt = new Map<number, number[]>();
  const rulesAnywhere: number[] = [];
  const ruleMask = new Uint8Array(plan.impactRules.length);
  const ruleTargets = plan.impactRules.map((rule, r) => {
    ruleMask[r] = maskOf([rule.on]);
    if (rule.at === undefined) rulesAnywhere.push(r);
    else {
      const at = indexOf.get(rule.at);
      if (at !== undefined) rulesAt.set(at, [...(rulesAt.get(at) ?? []), r]);
    }
    return rule.invalidate.map((u) => indexOf.get(u)).filter((u): u is number => u !== undefined && u < plan.units.length);
  });

  return {
    ids,
    indexOf,
    unitCount: plan.units.length,
    phaseOf: plan.units.map((u) => u.phase),
    outStart,
    outTarget,
    outMask,
    outEdge,
    rulesAt,
    rulesAnywhere,
    ruleTargets,
    ruleMask,
  };
}
