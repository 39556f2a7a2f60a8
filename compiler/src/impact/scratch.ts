/**
 * Per-plan working memory of the impact search, reused across queries so a
 * query costs O(what it reaches), not O(plan).
 */
import { KIND_COUNT } from "../plan/kinds.js";
import type { PlanIndex } from "./plan-index.js";
import { identityMemo } from "../memo.js";

/**
 * The search's working memory, sized for the plan and reused by every query on
 * it (queries are synchronous, so they never overlap). A query writes only the
 * slots it reaches and clears them again, so it costs O(affected), not O(plan).
 */
export interface Scratch {
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

/** By the index's node numbering (`ids`), which the indexes of a document's versions share while its units and needs stay the same. */
const scratches = identityMemo<readonly string[], Scratch>("impact/scratch: search buffers by the index's node numbering");

export function scratchFor(index: PlanIndex): Scratch {
  let scratch = scratches.get(index.ids);
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
    scratches.set(index.ids, scratch);
  }
  return scratch;
}
