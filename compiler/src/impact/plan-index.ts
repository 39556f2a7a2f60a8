/**
 * What every impact query needs from a plan, computed once per plan object and
 * cached in a WeakMap: node numbering (units in plan order, then inputs),
 * out-edges as flat arrays sorted by target, and impact rules by trigger node.
 * A query then only touches the edges it propagates through.
 */
import type { ImpactRule, PlanEdge, PlanInput, PlanUnit } from "../plan/schema.js";
import { maskOf } from "../plan/kinds.js";
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
/**
 * The node numbering and out-edges, by the edges array they were made from:
 * an editor's next version (lsp), whose units and needs did not change, holds
 * the same edges array (planTopology takes it over), and so does the plan built
 * from the same topology as an impact graph. Only the phases and rules are
 * then read again.
 */
const cores = identityMemo<readonly PlanEdge[], IndexCore>("impact/plan-index: node numbering and out-edges by edges array");

type IndexCore = Pick<PlanIndex, "ids" | "indexOf" | "unitCount" | "outStart" | "outTarget" | "outMask" | "outEdge">;

export function indexPlan(plan: ImpactGraph): PlanIndex {
  let index = cache.get(plan);
  if (!index) {
    index = buildIndex(plan, coreOf(plan));
    cache.set(plan, index);
  }
  return index;
}

function coreOf(plan: ImpactGraph): IndexCore {
  const known = cores.get(plan.edges);
  if (known && sameNodes(known, plan)) return known;
  return cores.set(plan.edges, buildCore(plan));
}

/** Whether `plan` numbers its nodes as `core` does: the same units in the same order, then the same inputs. */
function sameNodes(core: IndexCore, plan: ImpactGraph): boolean {
  const { ids, unitCount } = core;
  if (unitCount !== plan.units.length || ids.length !== unitCount + plan.inputs.length) return false;
  for (let i = 0; i < unitCount; i++) if (plan.units[i]!.id !== ids[i]) return false;
  for (let i = 0; i < plan.inputs.length; i++) if (plan.inputs[i]!.name !== ids[unitCount + i]) return false;
  return true;
}

function buildCore(plan: ImpactGraph): IndexCore {
  const ids = [...plan.units.map((u) => u.id), ...plan.inputs.map((i) => i.name)];
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length;

  // Out-edges grouped by source, then by target's plan position, then by
  // declaration, so that breadth-first search visits ties in plan order and
  // explanations are deterministic: two stable counting sorts (by target,
  // then by source), linear in the edges.
  const count = plan.edges.length;
  const from = new Int32Array(count);
  const to = new Int32Array(count);
  let kept = 0;
  const edgeOf = new Int32Array(count);
  plan.edges.forEach((e, edge) => {
    const f = indexOf.get(e.from);
    const t = indexOf.get(e.to);
    if (f === undefined || t === undefined) return;
    from[kept] = f;
    to[kept] = t;
    edgeOf[kept++] = edge;
  });
  const outTarget = new Int32Array(kept);
  const outMask = new Uint8Array(kept);
  const outEdge = new Int32Array(kept);
  const outStart = groupBySource(from, kept, n, countingSort(to, kept, n), (slot, i) => {
    outTarget[slot] = to[i]!;
    outEdge[slot] = edgeOf[i]!;
    outMask[slot] = maskOf(plan.edges[edgeOf[i]!]!.kinds);
  });
  return { ids, indexOf, unitCount: plan.units.length, outStart, outTarget, outMask, outEdge };
}

/**
 * Edges `0..count-1` grouped by source (`from`, below `nodeCount`), a counting
 * sort: `place(slot, edge)` puts each edge in its slot, edges taken in `order`
 * (default: as numbered), and the answer is where each source's run starts
 * (`outStart`, with the end at `nodeCount`). The plan's index and a lens's
 * count index (build-plan.ts) lay out their out-edges with it.
 */
export function groupBySource(
  from: ArrayLike<number>,
  count: number,
  nodeCount: number,
  order: ArrayLike<number> | undefined,
  place: (slot: number, edge: number) => void,
): Int32Array {
  const outStart = new Int32Array(nodeCount + 1);
  for (let e = 0; e < count; e++) outStart[from[e]! + 1]!++;
  for (let v = 0; v < nodeCount; v++) outStart[v + 1]! += outStart[v]!;
  const next = outStart.slice(0, nodeCount);
  for (let k = 0; k < count; k++) {
    const e = order ? order[k]! : k;
    place(next[from[e]!]!++, e);
  }
  return outStart;
}

/** Positions `0..length-1` ordered by `key` (values below `range`), ties in position order. */
function countingSort(key: Int32Array, length: number, range: number): Int32Array {
  const start = new Int32Array(range + 1);
  for (let i = 0; i < length; i++) start[key[i]! + 1]!++;
  for (let v = 0; v < range; v++) start[v + 1]! += start[v]!;
  const out = new Int32Array(length);
  for (let i = 0; i < length; i++) out[start[key[i]!]!++] = i;
  return out;
}

function buildIndex(plan: ImpactGraph, core: IndexCore): PlanIndex {
  return { ...core, phaseOf: plan.units.map((u) => u.phase), ...ruleTables(plan.impactRules, core.indexOf, core.unitCount) };
}

export type RuleTables = Pick<PlanIndex, "rulesAt" | "rulesAnywhere" | "ruleTargets" | "ruleMask">;

/** Impact rules by the node numbering `indexOf` (units below `unitCount`): the plan's index and a lens's count index read them alike. */
export function ruleTables(rules: readonly ImpactRule[], indexOf: ReadonlyMap<string, number>, unitCount: number): RuleTables {
  const rulesAt = new Map<number, number[]>();
  const rulesAnywhere: number[] = [];
  const ruleMask = new Uint8Array(rules.length);
  const ruleTargets = rules.map((rule, r) => {
    ruleMask[r] = maskOf([rule.on]);
    if (rule.at === undefined) rulesAnywhere.push(r);
    else {
      const at = indexOf.get(rule.at);
      if (at !== undefined) rulesAt.set(at, [...(rulesAt.get(at) ?? []), r]);
    }
    return rule.invalidate.map((u) => indexOf.get(u)).filter((u): u is number => u !== undefined && u < unitCount);
  });
  return { rulesAt, rulesAnywhere, ruleTargets, ruleMask };
}
