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
 * `undefined`, and the caller scans the whole text with reparseReusing,
 * which keeps every definition whose lines did not change.
 * compiler/test/incremental.test.ts and incremental-versions.test.ts check
 * both against a full parse.
 */
import { Document, isMap, isScalar, Pair, YAMLMap, type Node, type YAMLSeq } from "yaml";
import { parseBlockEntry, parseBlockYaml, type EntryReuse } from "./block-yaml.js";

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

/**
 * The whole new text scanned again, every definition (an entry of a section
 * such as `units`, `inputs`, `tools`) whose lines are unchanged taken from
 * the previous tree instead of scanned: for edits the one-entry path above
 * declines (several places at once, another section, a unit added or
 * removed), such as `taskspec impact <old> <new>` comparing two versions.
 * The kept definitions are the same objects, so what the memos hold for
 * them (plain value, node count, schema verdict, definition hash) is reused.
 * Consumed like reparseEdit's. What parseBlockYaml(text) gives, `undefined`
 * when the text needs the general parser: an unchanged entry scanned fine
 * before, so taking it never turns a fast-path text into one that is not.
 */
export function reparseReusing(previous: Reusable, text: string): Document.Parsed | undefined {
  const old = previous.text;
  const root = previous.doc.contents;
  // a CRLF text is scanned as its LF text (parseBlockYaml): its ranges are not the text's offsets
  if (!isMap(root) || root.flow || old.includes("\r") || text.includes("\r")) return parseBlockYaml(text);
  return parseBlockYaml(text, entryReuse(old, oldEntries(old, root), text));
}

/** A definition of the previous tree: its pair, the start of its key's line and of the line after its lines. */
interface OldEntry {
  pair: Pair;
  line: number;
  next: number;
  col: number;
}

/** The previous tree's definitions by their key's source text. */
function oldEntries(old: string, root: YAMLMap): Map<string, OldEntry[]> {
  const byKey = new Map<string, OldEntry[]>();
  const lineStartOf = (offset: number) => old.lastIndexOf("\n", offset - 1) + 1;
  root.items.forEach((section, s) => {
    const map = section.value;
    if (!isMap(map) || map.flow) return;
    // where the line after the section's last definition starts: the next section's key, or the end
    const nextKey = root.items[s + 1]?.key as Node | undefined;
    const after = nextKey?.range ? lineStartOf(nextKey.range[0]) : old.length;
    map.items.forEach((pair, i) => {
      const key = pair.key as Node | undefined;
      if (!key?.range) return;
      const line = lineStartOf(key.range[0]);
      const following = map.items[i + 1]?.key as Node | undefined;
      const next = following?.range ? lineStartOf(following.range[0]) : after;
      const source = old.slice(key.range[0], key.range[1]);
      const entry: OldEntry = { pair, line, next, col: key.range[0] - line };
      const same = byKey.get(source);
      if (same) same.push(entry);
      else byKey.set(source, [entry]);
    });
  });
  return byKey;
}

/**
 * An entry of the new text is the previous one when its lines are the same
 * text at the same column and what follows them starts alike: the scanner
 * reads one line past an entry (the next entry's indentation and first
 * characters), never more, so those decide the same nodes. Each previous
 * entry is taken at most once (a duplicated definition is scanned anew).
 */
function entryReuse(old: string, byKey: Map<string, OldEntry[]>, text: string): EntryReuse {
  return (at, colon, col) => {
    const candidates = byKey.get(text.slice(at, colon));
    if (!candidates) return undefined;
    const line = at - col;
    for (let k = 0; k < candidates.length; k++) {
      const e = candidates[k]!;
      const next = line + (e.next - e.line);
      if (e.col !== col || next > text.length || !text.startsWith(old.slice(e.line, e.next), line)) continue;
      if (!sameFollowing(old, e.next, text, next)) continue;
      candidates.splice(k, 1);
      shiftPair(e.pair, line - e.line);
      return { pair: e.pair, next };
    }
    return undefined;
  };
}

/** The line after an entry, as far as the scanner reads it: its indentation and the three characters after. */
function sameFollowing(old: string, oldAt: number, text: string, at: number): boolean {
  if (oldAt === old.length || at === text.length) return oldAt === old.length && at === text.length;
  const indent = indentAt(old, oldAt);
  return indentAt(text, at) === indent && text.slice(at + indent, at + indent + 3) === old.slice(oldAt + indent, oldAt + indent + 3);
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
