/**
 * Explanations of an impact query, built from the search's trail: cause trees
 * and the paths people read (`S04 --structure--> A01 --content--> F01`), both
 * sharing common prefixes, so a report costs O(reached) however deep the
 * graph (a path is the previous hop's string plus one hop; V8 keeps such
 * concatenations as ropes), and the plain report items that carry them.
 */
import { EDGE_KINDS } from "../plan/schema.js";
import { KIND_COUNT } from "../plan/kinds.js";
import type { ImpactGraph, PlanIndex } from "./plan-index.js";
import type { CauseTree, InvalidatedUnit } from "./types.js";

/** What the cause trees are built from after the query: the reached states' hops, by queue position. */
export interface Trail {
  queue: Int32Array;
  from: Int32Array;
  via: Int32Array;
  kind: Uint8Array;
}

/** A path's arrow for a hop over an edge in `kind`: ` --content--> `. */
export const edgeArrow = (kind: string): string => ` --${kind}--> `;
/** A path's arrow for a hop by an impact rule on `on`: ` ==audience rule==> `. */
export const ruleArrow = (on: string): string => ` ==${on} rule==> `;

/** Builds cause trees from the search's trail on demand, sharing the common prefixes. */
export class CauseBuilder {
  private readonly memo = new Map<number, CauseTree>();
  private readonly paths = new Map<number, string>();

  constructor(
    private readonly plan: ImpactGraph,
    private readonly index: PlanIndex,
    private readonly trail: Trail,
  ) {}

  /**
   * The cause of the state at queue position `at`. Built forward from the
   * nearest known ancestor, without recursion, so chains thousands of units
   * deep cannot overflow the stack.
   */
  state(at: number): CauseTree {
    return this.forward(at, this.memo, (p, from, node) =>
      from < 0
        ? { type: "change", change: -1 - from, origin: this.index.ids[node]!, kind: EDGE_KINDS[this.trail.queue[p]! - node * KIND_COUNT]! }
        : this.hop(from, this.trail.via[p]!, this.trail.kind[p]!, node),
    );
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

  /** The path of the state at queue position `at`, built forward from the nearest known ancestor like `state`. */
  pathOf(at: number): string {
    return this.forward(at, this.paths, (p, from, node) =>
      from < 0 ? this.index.ids[node]! : this.pathOfHop(from, this.trail.via[p]!, this.trail.kind[p]!, node),
    );
  }

  /**
   * The value of queue position `at` in `known`, filling in the chain up to
   * it from its nearest known ancestor, origin side first, so that `build`
   * (given the position, its `from` and its node) always finds its parent known.
   */
  private forward<V>(at: number, known: Map<number, V>, build: (p: number, from: number, node: number) => V): V {
    const chain: number[] = [];
    for (let p = at; !known.has(p); p = this.trail.from[p]!) {
      chain.push(p);
      if (this.trail.from[p]! < 0) break;
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const p = chain[i]!;
      known.set(p, build(p, this.trail.from[p]!, (this.trail.queue[p]! / KIND_COUNT) | 0));
    }
    return known.get(at)!;
  }

  /** The path of reaching node `to` over hop `via` in `kind` from the state at queue position `from`. */
  pathOfHop(from: number, via: number, kind: number, to: number): string {
    const hop = via >= 0 ? edgeArrow(EDGE_KINDS[kind]!) : ruleArrow(this.plan.impactRules[-1 - via]!.on);
    return this.pathOf(from) + hop + this.index.ids[to]!;
  }
}

/** The plain report item of a unit reached over hop `via` in `kind` from the state at queue position `from`. */
export function invalidation(
  causes: CauseBuilder,
  unit: string,
  phase: string,
  from: number,
  via: number,
  kind: number,
  to: number,
): InvalidatedUnit {
  return { unit, phase, path: causes.pathOfHop(from, via, kind, to), cause: causes.hop(from, via, kind, to) };
}

/** The nodes of a cause chain, origin first, the invalidated unit last; a loop, so any depth works. */
export function pathNodesOf(cause: CauseTree): string[] {
  const nodes: string[] = [];
  let link: CauseTree = cause;
  for (; link.type !== "change"; link = link.because) nodes.push(link.to);
  nodes.push(link.origin);
  return nodes.reverse();
}
