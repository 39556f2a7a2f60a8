/**
 * Finds the YAML node at a JSON path (as ajv reports them) so schema errors
 * land on the offending key or value, and names the place for messages
 * (`unit 'draft'`, `'loop' of unit 'S04'`).
 */
import type { Node, Pair } from "yaml";
import type { Span } from "../diagnostics/types.js";
import { keySpan, mapOf, nodeSpan, pairOf, seqOf, type AliasTable } from "./yaml-nodes.js";

export interface PathTarget {
  node: Node | undefined;
  /** The pair holding the last path segment, when that segment is a mapping key. */
  pair: Pair | undefined;
}

export function nodeAtPath(root: unknown, path: readonly (string | number)[], aliases: AliasTable): PathTarget {
  let node = root as Node | undefined;
  let pair: Pair | undefined;
  for (const segment of path) {
    const map = mapOf(node, aliases);
    if (map) {
      pair = pairOf(map, String(segment));
      node = (pair?.value ?? undefined) as Node | undefined;
      if (!pair) return { node: undefined, pair: undefined };
      continue;
    }
    const seq = seqOf(node, aliases);
    if (seq && typeof segment === "number") {
      node = seq.items[segment] as Node | undefined;
      pair = undefined;
      continue;
    }
    return { node: undefined, pair: undefined };
  }
  return { node, pair };
}

/** Span of the key of the path's last segment, else of its value. */
export function keySpanAt(target: PathTarget, fallback: Span): Span {
  if (target.pair) return keySpan(target.pair);
  return nodeSpan(target.node, fallback);
}

/** Span of the value at the path; for an empty value, the end of its key. */
export function valueSpanAt(target: PathTarget, fallback: Span): Span {
  if (target.node?.range) return nodeSpan(target.node, fallback);
  if (target.pair) {
    const k = keySpan(target.pair);
    return { start: k.start, end: k.end };
  }
  return fallback;
}

const SECTION_NOUN: Record<string, string> = { units: "unit", inputs: "input", tools: "tool", verifiers: "verifier" };

/** Human name of a place: `the contract`, `'budgets'`, `unit 'draft'`, `'loop' of unit 'S04'`, `impact rule 2`. */
export function describePlace(path: readonly (string | number)[]): string {
  if (path.length === 0) return "the contract";
  const [section, name, ...rest] = path;
  const noun = SECTION_NOUN[String(section)];
  if (noun && name !== undefined) {
    const base = `${noun} '${name}'`;
    return rest.length === 0 ? base : `'${formatPath(rest)}' of ${base}`;
  }
  if (section === "impact" && typeof name === "number") {
    const base = `impact rule ${name + 1}`;
    return rest.length === 0 ? base : `'${formatPath(rest)}' of ${base}`;
  }
  return `'${formatPath(path)}'`;
}

export function formatPath(path: readonly (string | number)[]): string {
  let out = "";
  for (const segment of path) out += typeof segment === "number" ? `[${segment}]` : out === "" ? segment : `.${segment}`;
  return out;
}
