/**
 * Where an offset sits in the YAML tree: the chain of nodes from the document
 * down to the innermost one that contains it, with the schema path of mapping
 * keys ("[]" for a sequence item, as schema-walk.ts reads it). Hover on keys
 * and values and selection ranges both read this chain.
 */
import type { Span } from "@taskspec/compiler";
import { isMap, isScalar, isSeq, type Document, type Pair } from "yaml";

export interface PathStep {
  /** The node's span (a pair's span runs from its key to the end of its value). */
  span: Span;
  /** Schema path of this node. */
  path: string[];
  /** What the node is. */
  role: "map" | "seq" | "pair" | "key" | "value";
  /** For "key" and scalar "value" steps: the scalar's text. */
  text?: string;
}

export function spanOf(node: unknown): Span | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? { start: range[0], end: range[1] } : undefined;
}

const within = (s: Span | undefined, offset: number): s is Span => s !== undefined && s.start <= offset && offset <= s.end;

/** The nodes containing `offset`, outermost first (empty when it is outside the document's content). */
export function pathAt(doc: Document.Parsed | undefined, offset: number): PathStep[] {
  const steps: PathStep[] = [];
  let node: unknown = doc?.contents;
  let path: string[] = [];
  for (let depth = 0; node && depth < 64; depth++) {
    const span = spanOf(node);
    if (!within(span, offset)) break;
    if (isMap(node)) {
      steps.push({ span, path, role: "map" });
      const pair = node.items.find((p) => within(pairSpan(p), offset));
      if (!pair) break;
      const key = isScalar(pair.key) ? String(pair.key.value) : "";
      const inner = [...path, key];
      steps.push({ span: pairSpan(pair)!, path: inner, role: "pair" });
      const keySpan = spanOf(pair.key);
      if (within(keySpan, offset) && !within(spanOf(pair.value), offset)) {
        steps.push({ span: keySpan, path: inner, role: "key", text: key });
        break;
      }
      node = pair.value;
      path = inner;
    } else if (isSeq(node)) {
      steps.push({ span, path, role: "seq" });
      node = node.items.find((item) => within(spanOf(item), offset));
      path = [...path, "[]"];
    } else {
      steps.push({ span, path, role: "value", ...(isScalar(node) ? { text: String(node.value) } : {}) });
      break;
    }
  }
  return steps;
}

/** From the key's start to the value's end. */
export function pairSpan(pair: Pair): Span | undefined {
  const key = spanOf(pair.key);
  const value = spanOf(pair.value);
  if (!key) return value;
  return { start: key.start, end: value ? Math.max(value.end, key.end) : key.end };
}
