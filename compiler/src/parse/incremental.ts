/**
 * Incremental re-parse for editors: when an edit falls inside one entry of
 * `units` (the usual keystroke in a big contract), only that entry is parsed
 * again; every other node of the previous tree is kept, and the nodes after
 * the edit have their ranges shifted in place. A 2,000-unit contract then
 * costs one unit's parse per keystroke instead of the whole file's, and the
 * garbage of a whole new tree.
 *
 * The previous tree is consumed: its later ranges now describe the new text.
 * Anything unusual (the edit crosses an entry boundary, touches the last unit
 * or another section, or the entry needs the general parser) returns
 * `undefined`, and the caller parses the whole text as before.
 * compiler/test/incremental.test.ts checks it against a full parse.
 */
import { Document, isMap, isScalar, Pair, YAMLMap, type Node, type YAMLSeq } from "yaml";
import { parseBlockEntry } from "./block-yaml.js";

/** The tree of an earlier version of the text, from the block-YAML fast path. */
export interface Reusable {
  text: string;
  doc: Document.Parsed;
}

export function reparseEdit(previous: Reusable, text: string): Document.Parsed | undefined {
  const old = previous.text;
  const root = previous.doc.contents;
  if (!isMap(root) || root.flow) return undefined;
  const unitsAt = root.items.findIndex((p) => isScalar(p.key) && p.key.value === "units");
  const unitsPair = root.items[unitsAt];
  const units = unitsPair?.value;
  if (!unitsPair || !isMap(units) || units.flow || units.items.length < 2) return undefined;

  // The edit: old[start, oldEnd) became text[start, oldEnd + delta).
  const limit = Math.min(old.length, text.length);
  let start = 0;
  while (start < limit && old.charCodeAt(start) === text.charCodeAt(start)) start++;
  let tail = 0;
  while (tail < limit - start && old.charCodeAt(old.length - 1 - tail) === text.charCodeAt(text.length - 1 - tail)) tail++;
  const oldEnd = old.length - tail;
  const delta = text.length - old.length;

  // The unit whose lines hold the whole edit; not the last one, whose end
  // depends on what follows the units section.
  const keyAt = (i: number) => (units.items[i]!.key as Node).range![0];
  const col = keyAt(0) - (old.lastIndexOf("\n", keyAt(0) - 1) + 1);
  const lineOf = (i: number) => keyAt(i) - col;
  const i = lastEntryStartingBy(units.items.length - 1, start, lineOf);
  if (i < 0) return undefined;
  const entryLine = lineOf(i);
  const nextLine = lineOf(i + 1);
  if (oldEnd > nextLine - 1) return undefined; // the newline before the next unit must be untouched
  if (text.charCodeAt(entryLine + col) === 32 || indentAt(text, entryLine) !== col) return undefined;

  const entry = parseBlockEntry(text, previous.doc.schema, entryLine + col, col, 2);
  if (!entry || entry.next !== nextLine + delta) return undefined;

  for (let j = i + 1; j < units.items.length; j++) shiftPair(units.items[j]!, delta);
  for (let j = unitsAt + 1; j < root.items.length; j++) shiftPair(root.items[j]!, delta);
  // New containers on the path to the edit: the old ones keep their items,
  // and nothing cached per container (key indexes) outlives the edit.
  const newUnits = new YAMLMap(previous.doc.schema);
  newUnits.items = units.items.slice();
  newUnits.items[i] = entry.pair;
  newUnits.range = shifted(units.range!, delta, 1);
  const newRoot = new YAMLMap(previous.doc.schema);
  newRoot.items = root.items.slice();
  newRoot.items[unitsAt] = new Pair(unitsPair.key, newUnits);
  newRoot.range = shifted(root.range!, delta, 1);
  const doc = new Document() as Document.Parsed;
  doc.contents = newRoot as Document.Parsed["contents"];
  return doc;
}

/** The last entry index (below `count`) whose line starts at or before `offset`; -1 if none. */
function lastEntryStartingBy(count: number, offset: number, lineOf: (i: number) => number): number {
  let lo = 0;
  let hi = count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (lineOf(mid) <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function indentAt(text: string, line: number): number {
  let i = line;
  while (text.charCodeAt(i) === 32) i++;
  return i - line;
}

/** A copy of `range` with the entries from index `from` on moved by `delta`. */
function shifted(range: [number, number, number], delta: number, from: number): [number, number, number] {
  return range.map((v, k) => (k >= from ? v + delta : v)) as [number, number, number];
}

function shiftPair(pair: Pair, delta: number): void {
  shiftNode(pair.key, delta);
  shiftNode(pair.value, delta);
}

function shiftNode(node: unknown, delta: number): void {
  if (delta === 0 || !node) return;
  const n = node as Node;
  // assigned, not changed in place: the fast path's nodes hand out a copy of their range
  const range = n.range;
  if (range) n.range = [range[0] + delta, range[1] + delta, range[2] + delta];
  const items = (n as YAMLMap | YAMLSeq).items as unknown[] | undefined;
  if (!items) return;
  for (const item of items) {
    if (item instanceof Pair) shiftPair(item, delta);
    else shiftNode(item, delta);
  }
}
