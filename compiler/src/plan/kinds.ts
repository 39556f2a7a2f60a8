/**
 * Edge kinds as bits, so the propagation can test "do these kinds meet" with
 * one AND. Bit i is EDGE_KINDS[i]; `content` is bit 0.
 */
import { EDGE_KINDS, type EdgeKind } from "./schema.js";

export const KIND_COUNT = EDGE_KINDS.length;
export const CONTENT = EDGE_KINDS.indexOf("content");

const kindIndex = new Map<string, number>(EDGE_KINDS.map((k, i) => [k, i]));

export function isEdgeKind(name: string): name is EdgeKind {
  return kindIndex.has(name);
}

export function kindIndexOf(kind: EdgeKind): number {
  return kindIndex.get(kind)!;
}

export function maskOf(kinds: readonly EdgeKind[] | "all"): number {
  if (kinds === "all") return (1 << KIND_COUNT) - 1;
  let mask = 0;
  for (const k of kinds) mask |= 1 << kindIndexOf(k);
  return mask;
}

const kindBit = new Map<string, number>(EDGE_KINDS.map((k, i) => [k, 1 << i]));

/**
 * The bits of the edge kinds a contract's `needs` value names (one kind or a
 * list); a name that is no kind adds none, as the plan leaves it out. It runs
 * once per need when a document is opened, mostly as cold code: one map
 * lookup per name and an indexed loop (no iterator).
 */
export function maskOfNames(kinds: string | readonly string[]): number {
  if (typeof kinds === "string") return kindBit.get(kinds) ?? 0;
  let mask = 0;
  for (let i = 0; i < kinds.length; i++) mask |= kindBit.get(kinds[i]!) ?? 0;
  return mask;
}

/**
 * The kinds a mask holds, in EDGE_KINDS order: one frozen array per mask,
 * shared by every plan need with those kinds instead of a new array each
 * (typed as the plan's arrays, which nothing mutates: memo.ts).
 */
const KIND_LISTS: readonly EdgeKind[][] = Array.from(
  { length: 1 << KIND_COUNT },
  (_, mask) => Object.freeze(EDGE_KINDS.filter((_, i) => mask & (1 << i))) as EdgeKind[],
);

export function kindsOfMask(mask: number): EdgeKind[] {
  return KIND_LISTS[mask]!;
}
