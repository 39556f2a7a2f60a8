/**
 * What a lens shows: how many units a change at one node invalidates in all
 * kinds and in each single kind, from one search instead of five.
 *
 * Each state (node, kind) of the propagation in propagate.ts carries a mask of
 * the origin's kinds it is reached from: bit j set means "reached by a change
 * at the origin in kind j alone". A state is queued again only when it gains a
 * bit, so the search costs at most one single-kind search per kind and, where
 * the kinds travel together, one. Since the states reached by a change in all
 * kinds are the union of those reached by each single kind (propagate.ts), the
 * total is the number of units with any bit. No predecessors are kept: counts
 * need no explanation paths.
 */
import { EDGE_KINDS, type EdgeKind } from "../plan/schema.js";
import { identityMemo } from "../memo.js";
import { CONTENT, KIND_COUNT } from "../plan/kinds.js";
import { indexPlan, type ImpactGraph, type PlanIndex } from "./plan-index.js";

/**
 * What counting reads: node numbering, out-edges and impact rules. A plan's
 * index is one; an editor's lens gets one made from the contract without the
 * plan's topology (build-plan.ts, countIndexOf).
 */
export type CountIndex = Pick<
  PlanIndex,
  "indexOf" | "unitCount" | "outStart" | "outTarget" | "outMask" | "rulesAt" | "rulesAnywhere" | "ruleTargets" | "ruleMask"
>;

/** `invalidatedCount` of a change at one node in all kinds (`total`) and in each single kind. */
export interface ImpactCounts {
  total: number;
  byKind: Record<EdgeKind, number>;
}

/** The counts of a change at `origin`, a unit or input of `plan`; undefined for a name it does not have. */
export function invalidatedCounts(plan: ImpactGraph, origin: string): ImpactCounts | undefined {
  return countInvalidated(indexPlan(plan), origin);
}

/** A plan's (or impact graph's) count index: its impact index, cached by identity. */
export function planCountIndex(plan: ImpactGraph): CountIndex {
  return indexPlan(plan);
}

/** As invalidatedCounts, from a count index. */
export function countInvalidated(index: CountIndex, origin: string): ImpactCounts | undefined {
  const node = index.indexOf.get(origin);
  if (node === undefined) return undefined;
  const { outStart, outTarget, outMask, rulesAt, rulesAnywhere, ruleTargets, ruleMask, unitCount } = index;
  const { reached, pending, queue, touched, unitKinds } = scratchFor(index);
  const states = queue.length;
  // a ring: a state is in the queue at most once at a time (queued when its pending bits go from none to some)
  let head = 0;
  let size = 0;
  let touchedCount = 0;
  const firedAnywhere = new Uint8Array(rulesAnywhere.length);

  const add = (state: number, bits: number) => {
    const gained = bits & ~reached[state]!;
    if (!gained) return;
    if (!reached[state]) touched[touchedCount++] = state;
    reached[state]! |= gained;
    if (!pending[state]) {
      queue[(head + size) % states] = state;
      size++;
    }
    pending[state]! |= gained;
  };
  // a hop into unit `to` travelling in `kind`: it produces new outputs, so it carries `content` too
  const arrive = (to: number, kind: number, bits: number) => {
    unitKinds[to]! |= bits;
    add(to * KIND_COUNT + CONTENT, bits);
    add(to * KIND_COUNT + kind, bits);
  };
  const fire = (rule: number, bits: number) => {
    const kind = 31 - Math.clz32(ruleMask[rule]!);
    for (const to of ruleTargets[rule]!) arrive(to, kind, bits);
  };

  try {
    for (let k = 0; k < KIND_COUNT; k++) add(node * KIND_COUNT + k, 1 << k);
    while (size > 0) {
      const state = queue[head]!;
      head = (head + 1) % states;
      size--;
      const bits = pending[state]!;
      pending[state] = 0;
      const from = (state / KIND_COUNT) | 0;
      const kind = state - from * KIND_COUNT;
      const bit = 1 << kind;
      for (let e = outStart[from]!; e < outStart[from + 1]!; e++) if (outMask[e]! & bit) arrive(outTarget[e]!, kind, bits);
      const watching = rulesAt.get(from);
      if (watching) for (const rule of watching) if (ruleMask[rule]! & bit) fire(rule, bits);
      for (let i = 0; i < rulesAnywhere.length; i++) {
        const rule = rulesAnywhere[i]!;
        // a rule without `at` fires once per origin kind, on the first state of its kind that kind reaches
        const fresh = bits & ~firedAnywhere[i]!;
        if (ruleMask[rule]! & bit && fresh) {
          firedAnywhere[i]! |= fresh;
          fire(rule, fresh);
        }
      }
    }

    let total = 0;
    const byKind = new Array<number>(KIND_COUNT).fill(0);
    for (let t = 0; t < touchedCount; t++) {
      const state = touched[t]!;
      const unit = (state / KIND_COUNT) | 0;
      // counted once, at the unit's first touched state
      if (unit >= unitCount || !unitKinds[unit]) continue;
      const kinds = unitKinds[unit]!;
      unitKinds[unit] = 0;
      total++;
      for (let k = 0; k < KIND_COUNT; k++) if (kinds & (1 << k)) byKind[k]!++;
    }
    return { total, byKind: Object.fromEntries(EDGE_KINDS.map((k, i) => [k, byKind[i]!])) as Record<EdgeKind, number> };
  } finally {
    // every state and unit written is reached through a touched state, so clearing by those leaves the scratch clean
    for (let t = 0; t < touchedCount; t++) {
      const state = touched[t]!;
      reached[state] = 0;
      pending[state] = 0;
      const unit = (state / KIND_COUNT) | 0;
      if (unit < unitCount) unitKinds[unit] = 0;
    }
  }
}

/** Working memory of one count, sized for the index and reused by every count on it (counts are synchronous). */
interface CountScratch {
  /** Per state: the origin kinds it is reached from. */
  reached: Uint8Array;
  /** Per state: kinds reached but not yet propagated from it. */
  pending: Uint8Array;
  queue: Int32Array;
  /** States in the order first reached. */
  touched: Int32Array;
  /** Per unit: the origin kinds that invalidate it. */
  unitKinds: Uint8Array;
}

const scratches = identityMemo<CountIndex, CountScratch>("impact/count: count buffers by index");

function scratchFor(index: CountIndex): CountScratch {
  let scratch = scratches.get(index);
  if (!scratch) {
    const states = (index.outStart.length - 1) * KIND_COUNT;
    scratch = {
      reached: new Uint8Array(states),
      pending: new Uint8Array(states),
      queue: new Int32Array(states),
      touched: new Int32Array(states),
      unitKinds: new Uint8Array(index.unitCount),
    };
    scratches.set(index, scratch);
  }
  return scratch;
}
