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
 * The search itself only fills typed arrays (predecessor state and hop per
 * state), so a query allocates nothing per edge; cause trees and path strings
 * are built from them when a caller reads them.
 */
import { EDGE_KINDS, type Plan } from "../plan/schema.js";
import { describeCause } from "./explain.js";
import { CONTENT, KIND_COUNT } from "./kinds.js";
import { indexPlan, type PlanIndex } from "./plan-index.js";
import { resolveChanges } from "./resolve-changes.js";
import type { CauseTree, ChangeInput, ImpactReport, InvalidatedUnit } from "./types.js";

/** How a state or a unit was first reached: from which state, over which hop, in which kind. */
interface Trail {
  /** Predecessor state; for a change's own states, `-1 - changeIndex`. */
  from: Int32Array;
  /** Out-edge slot in the index (>= 0), or `-1 - ruleIndex` for a rule hop. */
  via: Int32Array;
  kind: Uint8Array;
}

const trail = (size: number): Trail => ({ from: new Int32Array(size), via: new Int32Array(size), kind: new Uint8Array(size) });

export function impact(plan: Plan, changes: readonly ChangeInput[]): ImpactReport {
  const index = indexPlan(plan);
  const { resolved, unmatched } = resolveChanges(index, changes);
  const { outStart, outTarget, outMask, ruleTargets, ruleMask, rulesAt, rulesAnywhere } = index;

  const stateCount = index.ids.length * KIND_COUNT;
  const seen = new Uint8Array(stateCount);
  const states = trail(stateCount);
  const reached = new Uint8Array(index.unitCount);
  const units = trail(index.unitCount);
  const queue = new Int32Array(stateCount);
  let tail = 0;
  const firedAnywhere = new Set<number>();

  const reach = (state: number, from: number, via: number, kind: number) => {
    if (seen[state]) return;
    seen[state] = 1;
    states.from[state] = from;
    states.via[state] = via;
    states.kind[state] = kind;
    queue[tail++] = state;
  };
  // One hop from state `from` into unit `to`, travelling in `kind`.
  const arrive = (to: number, from: number, via: number, kind: number) => {
    if (!reached[to]) {
      reached[to] = 1;
      units.from[to] = from;
      units.via[to] = via;
      units.kind[to] = kind;
    }
    reach(to * KIND_COUNT + CONTENT, from, via, kind);
    reach(to * KIND_COUNT + kind, from, via, kind);
  };
  const fireRule = (rule: number, from: number) => {
    const kind = EDGE_KINDS.indexOf(plan.impactRules[rule]!.on);
    for (const to of ruleTargets[rule]!) arrive(to, from, -1 - rule, kind);
  };

  for (const { change, node, mask } of resolved) {
    for (let k = 0; k < KIND_COUNT; k++) if (mask & (1 << k)) reach(node * KIND_COUNT + k, -1 - change, 0, k);
  }

  for (let head = 0; head < tail; head++) {
    const state = queue[head]!;
    const node = (state / KIND_COUNT) | 0;
    const kind = state - node * KIND_COUNT;
    const bit = 1 << kind;
    for (let e = outStart[node]!; e < outStart[node + 1]!; e++) {
      if (outMask[e]! & bit) arrive(outTarget[e]!, state, e, kind);
    }
    const watching = rulesAt.get(node);
    if (watching) for (const rule of watching) if (ruleMask[rule]! & bit) fireRule(rule, state);
    for (const rule of rulesAnywhere) {
      // The first state carrying the rule's kind is at the least depth, so one firing gives shortest paths.
      if (ruleMask[rule]! & bit && !firedAnywhere.has(rule)) {
        firedAnywhere.add(rule);
        fireRule(rule, state);
      }
    }
  }

  const causes = new CauseBuilder(plan, index, states);
  const originUnits = new Set(resolved.map((r) => r.node).filter((n) => n < index.unitCount));
  const invalidated: InvalidatedUnit[] = [];
  const kept: string[] = [];
  const origins: string[] = [];
  for (let u = 0; u < index.unitCount; u++) {
    const id = index.ids[u]!;
    if (reached[u]) invalidated.push(invalidation(id, index.phaseOf[u]!, () => causes.hop(units.from[u]!, units.via[u]!, units.kind[u]!, u)));
    else if (originUnits.has(u)) origins.push(id);
    else kept.push(id);
  }
  return { changes: [...changes], invalidated, kept, origins, unmatched };
}

/** Builds cause trees from the search's trail on demand, sharing the common prefixes. */
class CauseBuilder {
  private readonly memo = new Map<number, CauseTree>();

  constructor(
    private readonly plan: Plan,
    private readonly index: PlanIndex,
    private readonly states: Trail,
  ) {}

  state(state: number): CauseTree {
    let cause = this.memo.get(state);
    if (!cause) {
      const from = this.states.from[state]!;
      const node = (state / KIND_COUNT) | 0;
      cause =
        from < 0
          ? { type: "change", change: -1 - from, origin: this.index.ids[node]!, kind: EDGE_KINDS[state - node * KIND_COUNT]! }
          : this.hop(from, this.states.via[state]!, this.states.kind[state]!, node);
      this.memo.set(state, cause);
    }
    return cause;
  }

  hop(from: number, via: number, kind: number, to: number): CauseTree {
    const ids = this.index.ids;
    const fromNode = ids[(from / KIND_COUNT) | 0]!;
    if (via >= 0) {
      return {
        type: "edge",
        from: fromNode,
        to: ids[to]!,
        kind: EDGE_KINDS[kind]!,
        edgeKinds: this.plan.edges[this.index.outEdge[via]!]!.kinds,
        because: this.state(from),
      };
    }
    const rule = -1 - via;
    const { on, at } = this.plan.impactRules[rule]!;
    return { type: "rule", rule, on, ...(at !== undefined ? { at } : {}), from: fromNode, to: ids[to]!, because: this.state(from) };
  }
}

/**
 * An invalidated unit whose cause tree and path are built on first read (then
 * kept). The accessors are own enumerable properties, so JSON, spreading and
 * structured cloning see them; a query that only needs the set (a code lens
 * count) does not pay for thousands of long paths.
 */
function invalidation(unit: string, phase: string, explain: () => CauseTree): InvalidatedUnit {
  let cause: CauseTree | undefined;
  let described: { path: string; pathNodes: string[] } | undefined;
  const describe = () => (described ??= describeCause((cause ??= explain())));
  return {
    unit,
    phase,
    get path() {
      return describe().path;
    },
    get pathNodes() {
      return describe().pathNodes;
    },
    get cause() {
      return (cause ??= explain());
    },
  };
}
