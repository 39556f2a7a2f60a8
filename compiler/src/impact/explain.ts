/**
 * Explanations of an impact query, built after the search and only when read:
 * cause trees from the search's trail (sharing common prefixes), the path
 * people read (`S04 --structure--> A01 --content--> F01`), and the report
 * items that carry them.
 */
import { EDGE_KINDS, type Plan } from "../plan/schema.js";
import { KIND_COUNT } from "./kinds.js";
import type { PlanIndex } from "./plan-index.js";
import type { CauseTree, InvalidatedUnit } from "./types.js";

/** What the cause trees are built from after the query: the reached states' hops, by queue position. */
export interface Trail {
  queue: Int32Array;
  from: Int32Array;
  via: Int32Array;
  kind: Uint8Array;
}

/** Builds cause trees from the search's trail on demand, sharing the common prefixes. */
export class CauseBuilder {
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
export class Invalidation implements InvalidatedUnit {
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

/** The path of a cause chain, origin first; a loop, not recursion, so any depth works. */
function describeCause(cause: CauseTree): { path: string; pathNodes: string[] } {
  const hops: string[] = [];
  const nodes: string[] = [];
  let link: CauseTree = cause;
  while (link.type !== "change") {
    nodes.push(link.to);
    hops.push(link.type === "edge" ? ` --${link.kind}--> ${link.to}` : ` ==${link.on} rule==> ${link.to}`);
    link = link.because;
  }
  nodes.push(link.origin);
  nodes.reverse();
  return { path: link.origin + hops.reverse().join(""), pathNodes: nodes };
}
