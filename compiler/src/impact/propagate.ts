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
 * edge; cause trees and path strings are built from a copy of the reached part
 * when a caller reads them.
 */
import { EDGE_KINDS, type Plan } from "../plan/schema.js";
import { describeCause } from "./explain.js";
import { CONTENT, KIND_COUNT } from "./kinds.js";
import { indexPlan, type PlanIndex } from "./plan-index.js";
import { resolveChanges } from "./resolve-changes.js";
import type { CauseTree, ChangeInput, ImpactReport, InvalidatedUnit } from "./types.js";

/**
 * The search's working memory, sized for the plan and reused by every query on
 * it (queries are synchronous, so they never overlap). A query writes only the
 * slots it reaches and clears them again, so it costs O(affected), not O(plan).
 */
interface Scratch {
  /** 1 + the queue position at which a state was reached; 0 = not reached. */
  position: Int32Array;
  /** States in the order reached (breadth-first). */
  queue: Int32Array;
  /** Per queue position: the predecessor's queue position, or `-1 - changeIndex` for a change's own states. */
  from: Int32Array;
  /** Per queue position: out-edge slot in the index (>= 0), or `-1 - ruleIndex` for a rule hop. */
  via: Int32Array;
  /** Per queue position: the kind travelled on the hop. */
  kind: Uint8Array;
  /** Per unit: 1 + the queue position of the state it was first reached from; 0 = not invalidated. */
  unitFrom: Int32Array;
  unitVia: Int32Array;
  unitKind: Uint8Array;
}

const scratches = new WeakMap<PlanIndex, Scratch>();

function scratchFor(index: PlanIndex): Scratch {
  let scratch = scratches.get(index);
  if (!scratch) {
    const states = index.ids.length * KIND_COUNT;
    scratch = {
      position: new Int32Array(states),
      queue: new Int32Array(states),
      from: new Int32Array(states),
      via: new Int32Array(states),
      kind: new Uint8Array(states),
      unitFrom: new Int32Array(index.unitCount),
      unitVia: new Int32Array(index.unitCount),
      unitKind: new Uint8Array(index.unitCount),
    };
    scratches.set(index, scratch);
  }
  return scratch;
}

/** What the cause trees are built from after the query: the reached states' hops, by queue position. */
interface Trail {
  queue: Int32Array;
  from: Int32Array;
  via: Int32Array;
  kind: Uint8Array;
}

export function impact(plan: Plan, changes: readonly ChangeInput[]): ImpactReport {
  const index = indexPlan(plan);
  const { resolved, unmatched } = resolveChanges(index, changes);
  const { outStart, outTarget, outMask, ruleTargets, ruleMask, rulesAt, rulesAnywhere } = index;
  const { position, queue, from, via, kind: hopKind, unitFrom, unitVia, unitKind } = scratchFor(index);
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

    // Keep what the explanations need: the reached part of the trail, O(reached).
    const causes = new CauseBuilder(plan, index, {
      queue: queue.slice(0, tail),
      from: from.slice(0, tail),
      via: via.slice(0, tail),
      kind: hopKind.slice(0, tail),
    });
    const originUnits = new Set(resolved.map((r) => r.node).filter((n) => n < index.unitCount));
    const invalidated: InvalidatedUnit[] = [];
    const kept: string[] = [];
    const origins: string[] = [];
    for (let u = 0; u < index.unitCount; u++) {
      const id = index.ids[u]!;
      if (unitFrom[u]) {
        invalidated.push(new Invalidation(id, index.phaseOf[u]!, causes, unitFrom[u]! - 1, unitVia[u]!, unitKind[u]!, u));
      } else if (originUnits.has(u)) origins.push(id);
      else kept.push(id);
    }
    return { changes: [...changes], invalidated, kept, origins, unmatched };
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

/** Builds cause trees from the search's trail on demand, sharing the common prefixes. */
class CauseBuilder {
  private readonly memo = new Map<number, CauseTree>();

  constructor(
    private readonly plan: Plan,
    private readonly index: PlanIndex,
    private readonly trail: Trail,
  ) {}

  /**
   * The cause of the state at queue position `at`. Built forward from the
   * nearest known ancestor, without recursion, so chains thousands of units
   * deep cannot overflow the stack.
   */
  state(at: number): CauseTree {
    const chain: number[] = [];
    for (let p = at; !this.memo.has(p); p = this.trail.from[p]!) {
      chain.push(p);
      if (this.trail.from[p]! < 0) break;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const p = chain[i]!;
      const from = this.trail.from[p]!;
      const state = this.trail.queue[p]!;
      const node = (state / KIND_COUNT) | 0;
      this.memo.set(
        p,
        from < 0
          ? { type: "change", change: -1 - from, origin: this.index.ids[node]!, kind: EDGE_KINDS[state - node * KIND_COUNT]! }
          : this.hop(from, this.trail.via[p]!, this.trail.kind[p]!, node),
      );
    }
    return this.memo.get(at)!;
  }

  /** The cause of reaching node `to` over hop `via` in `kind` from the state at queue position `from`. */
  hop(from: number, via: number, kind: number, to: number): CauseTree {
    const ids = this.index.ids;
    const fromNode = ids[(this.trail.queue[from]! / KIND_COUNT) | 0]!;
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
 * kept). `path`, `pathNodes` and `cause` are own enumerable accessors, so JSON,
 * spreading, structured cloning and deep equality see them; their getters are
 * shared by all instances (one hidden class, nothing allocated per unit until
 * read), so a query that needs only the set (a code lens count) stays cheap.
 */
class Invalidation {
  declare readonly path: string;
  declare readonly pathNodes: string[];
  declare readonly cause: CauseTree;
  readonly #causes: CauseBuilder;
  /** The hop into this unit: from the state at this queue position, over `#via`, in `#kind`. */
  readonly #from: number;
  readonly #via: number;
  readonly #kind: number;
  readonly #to: number;
  #cause: CauseTree | undefined;
  #described: { path: string; pathNodes: string[] } | undefined;

  constructor(
    readonly unit: string,
    readonly phase: string,
    causes: CauseBuilder,
    from: number,
    via: number,
    kind: number,
    to: number,
  ) {
    this.#causes = causes;
    this.#from = from;
    this.#via = via;
    this.#kind = kind;
    this.#to = to;
    // One call per property with shared descriptors is markedly faster than defineProperties.
    for (const [name, descriptor] of Invalidation.#accessors) Object.defineProperty(this, name, descriptor);
  }

  static readonly #accessors: readonly [string, PropertyDescriptor][] = [
    ["path", { get: (function (this: Invalidation) { return this.#describe().path; }), enumerable: true }],
    ["pathNodes", { get: (function (this: Invalidation) { return this.#describe().pathNodes; }), enumerable: true }],
    ["cause", { get: (function (this: Invalidation) { return this.#explain(); }), enumerable: true }],
  ];

  #explain(): CauseTree {
    return (this.#cause ??= this.#causes.hop(this.#from, this.#via, this.#kind, this.#to));
  }

  #describe(): { path: string; pathNodes: string[] } {
    return (this.#described ??= describeCause(this.#explain()));
  }
}
