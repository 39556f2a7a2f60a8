/**
 * A unit's `needs` as two arrays, read once per needs object. The plain
 * contract keys `needs` by unit id, so nearly every unit's needs object has a
 * hidden class of its own, and reading a value by key (`needs[name]`) misses
 * every inline cache: on a newly opened 10,000-unit contract that was most of
 * building a lens's count index. The check's graph, the count index and the
 * plan's needs read these arrays instead. Plain values are kept across an
 * editor's versions (parse/to-plain.ts), so a unit's list is made once while
 * its needs stay the same object.
 */
import { identityMemo } from "../memo.js";
import { maskOfNames } from "./kinds.js";
import type { UnitSpec } from "../schema/contract.js";

/** One unit's needs, in declaration order (the order of `Object.keys(needs)`). */
export interface NeedList {
  /** The unit or input each need names. */
  readonly names: readonly string[];
  /** Its edge kinds as bits (kinds.ts, `maskOfNames`): a kind that does not exist adds none. */
  readonly masks: readonly number[];
}

const EMPTY: NeedList = Object.freeze({ names: Object.freeze([]), masks: Object.freeze([]) });

const lists = identityMemo<object, NeedList>("plan/need-list: each unit's needs as arrays, by needs object");

export function needListOf(unit: Pick<UnitSpec, "needs">): NeedList {
  const needs = unit.needs;
  if (!needs) return EMPTY;
  const known = lists.get(needs);
  if (known) return known;
  // Object.values reads the values in Object.keys' order with no keyed lookup (a keyed read of an object
  // with a hidden class of its own misses every inline cache); both arrays are made to size, where arrays
  // grown by push would keep room for 17 needs each (memory: bench/RESULTS.md, "figures behind code comments")
  const names = Object.keys(needs);
  const values = Object.values(needs);
  const masks = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) masks[i] = maskOfNames(values[i]!);
  return lists.set(needs, { names, masks });
}
