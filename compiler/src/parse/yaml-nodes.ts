/**
 * Small helpers over yaml's node API: spans of nodes and pairs, key names,
 * alias resolution through a precomputed table (yaml's own Alias.resolve
 * searches the document each time, which is quadratic with many aliases).
 */
import { isAlias, isMap, isScalar, isSeq, type Node, type Pair, type Scalar, type YAMLMap, type YAMLSeq } from "yaml";
import type { Span } from "../diagnostics/types.js";
import { identityMemo } from "../memo.js";

export type AliasTable = Map<Node, Node | undefined>;

/**
 * Depth of a definition node (a unit, tool, input, ...): root 0, section 1,
 * `units.<name>` 2. Work per definition is remembered at this depth, since an
 * incremental re-parse keeps the nodes of every definition it did not touch.
 */
export const DEFINITION_DEPTH = 2;

/** The node an alias points to (one level; alias-to-alias chains are followed). */
export function resolve(node: unknown, aliases: AliasTable): Node | undefined {
  let current = node as Node | undefined;
  for (let hops = 0; current && isAlias(current) && hops < 8; hops++) current = aliases.get(current);
  return current && isAlias(current) ? undefined : current;
}

export function nodeSpan(node: unknown, fallback: Span): Span {
  const range = (node as Node | null | undefined)?.range;
  return range ? { start: range[0], end: range[1] } : fallback;
}

/** Span of a pair's key (a zero-width span at 0 if the key has no range). */
export function keySpan(pair: Pair): Span {
  return nodeSpan(pair.key, { start: 0, end: 0 });
}

/** Span of a pair's value, or the end of its key when the value is empty (`needs:`). */
export function valueSpan(pair: Pair): Span {
  const key = keySpan(pair);
  const value = pair.value as Node | null;
  if (value && value.range && value.range[1] > value.range[0]) return { start: value.range[0], end: value.range[1] };
  if (value && value.range) return { start: value.range[0], end: value.range[0] };
  return { start: key.end, end: key.end };
}

/** The key of a pair as a string (scalar keys; a collection or alias key gets a clipped flow rendering). */
export function keyName(pair: Pair): string {
  const key = pair.key as Node | null;
  if (isScalar(key)) return String(key.value);
  return key ? clippedKeyText(key) : "";
}

/** Longest rendering of a collection key; longer ones end in `…`. */
export const KEY_TEXT_MAX = 60;

/**
 * A collection (or alias) used as a key, written flow-style (`{"a":1}`) up
 * to KEY_TEXT_MAX characters. Never yaml's `String(node)`: it renders each
 * nested collection key once per level above it, so `{{{{…{task:` took time
 * and memory doubling per level (56 bytes: "Invalid string length"). Every
 * level written adds at least one character, so the walk stops within
 * KEY_TEXT_MAX levels whatever the nesting.
 */
function clippedKeyText(key: Node): string {
  let out = "";
  const emit = (text: string): boolean => {
    out += text;
    return out.length <= KEY_TEXT_MAX;
  };
  const scalarText = (value: unknown): string => {
    if (typeof value !== "string") return String(value);
    return JSON.stringify(value.length > KEY_TEXT_MAX ? value.slice(0, KEY_TEXT_MAX) : value);
  };
  const walk = (node: unknown): boolean => {
    if (isScalar(node)) return emit(scalarText(node.value));
    if (isAlias(node)) return emit(`*${node.source}`);
    if (isMap(node) || isSeq(node)) {
      const map = isMap(node);
      if (!emit(map ? "{" : "[")) return false;
      for (const [index, item] of (node.items as unknown[]).entries()) {
        if (index > 0 && !emit(",")) return false;
        if (map) {
          const pair = item as Pair;
          if (!walk(pair.key) || !emit(":") || !walk(pair.value)) return false;
        } else if (!walk(item)) return false;
      }
      return emit(map ? "}" : "]");
    }
    return emit(node === null || node === undefined ? "null" : "?");
  };
  walk(key);
  return out.length > KEY_TEXT_MAX ? `${out.slice(0, KEY_TEXT_MAX)}…` : out;
}

export function mapOf(node: unknown, aliases: AliasTable): YAMLMap | undefined {
  const n = resolve(node, aliases);
  return isMap(n) ? n : undefined;
}

export function seqOf(node: unknown, aliases: AliasTable): YAMLSeq | undefined {
  const n = resolve(node, aliases);
  return isSeq(n) ? n : undefined;
}

export function scalarOf(node: unknown, aliases: AliasTable): Scalar | undefined {
  const n = resolve(node, aliases);
  return isScalar(n) ? n : undefined;
}

/** Key -> first pair, for big maps (`units` with thousands of entries), built on first lookup. */
const indexes = identityMemo<YAMLMap, Map<string, Pair>>("parse/yaml-nodes: key index by big map");
const INDEX_FROM = 16;

/** First pair with this key (first wins, like the rest of the compiler). */
export function pairOf(map: YAMLMap | undefined, key: string): Pair | undefined {
  if (!map) return undefined;
  if (map.items.length < INDEX_FROM) {
    for (const item of map.items) if (keyName(item) === key) return item;
    return undefined;
  }
  let index = indexes.get(map);
  if (!index) {
    index = new Map();
    for (const item of map.items) {
      const name = keyName(item);
      if (!index.has(name)) index.set(name, item);
    }
    indexes.set(map, index);
  }
  return index.get(key);
}

/** Pairs of a map, first occurrence of each key only (duplicates are C011 elsewhere). */
export function uniquePairs(map: YAMLMap | undefined): Pair[] {
  if (!map) return [];
  const seen = new Set<string>();
  const out: Pair[] = [];
  for (const item of map.items) {
    const name = keyName(item);
    if (seen.has(name)) continue;
    seen.add(name);
    out.push(item);
  }
  return out;
}
