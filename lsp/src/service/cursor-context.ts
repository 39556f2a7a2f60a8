/**
 * Where in the contract the cursor is, read from the text rather than the YAML
 * tree: completion runs on half-typed lines that YAML cannot parse. The
 * enclosing keys come from indentation (block style, sequences with `- `), the
 * current line's flow collections (`needs: { S04: [content, |`) from a small
 * bracket scan.
 */
import type { Span } from "@taskspec/compiler";

export interface CursorContext {
  /** Enclosing mapping keys from the top; "[]" steps into a sequence item. */
  path: string[];
  /**
   * "key": a key of the mapping at `path` is being typed. "value": a value of
   * the key that ends `path` (a scalar or a list item). "item": a block
   * sequence item `- ` of the key that ends `path` (a value, or a key when the
   * items are mappings).
   */
  slot: "key" | "value" | "item";
  /** The partial word before the cursor: what a completion replaces. */
  word: Span;
}

const KEY = /^([^\s:#'"{}[\],&*!|>%@`-][^:#{}[\],]*?|-[^\s:#{}[\],][^:#{}[\],]*?|"[^"]*"|'[^']*'):(?=\s|$)/;
const WORD_CHAR = /[A-Za-z0-9_.\-$]/;

interface LineShape {
  /** Column of each `- ` on the line, outermost first. */
  dashes: number[];
  /** Column where the content after indentation and dashes starts. */
  content: number;
  key: string | undefined;
  /** Text after `key:` (or the whole content when there is no key). */
  rest: string;
  restStart: number;
  blank: boolean;
}

function shapeOf(line: string): LineShape {
  let i = 0;
  const dashes: number[] = [];
  for (;;) {
    while (line[i] === " ") i++;
    if (line[i] === "-" && (line[i + 1] === " " || i + 1 === line.length)) {
      dashes.push(i);
      i++;
      continue;
    }
    break;
  }
  const content = line.slice(i);
  const blank = content.trim() === "" || content.trimStart().startsWith("#");
  const m = KEY.exec(content);
  const key = m ? unquote(m[1]!.trim()) : undefined;
  const restStart = m ? i + m[0].length : i;
  return { dashes, content: i, key, rest: line.slice(restStart), restStart, blank };
}

function unquote(s: string): string {
  return (s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'")) ? s.slice(1, -1) : s;
}

/** The context at `offset` of `text`; `lineStarts` are the offsets where lines begin. */
export function cursorContext(text: string, offset: number, lineStarts: readonly number[]): CursorContext {
  let lo = 0;
  let hi = lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  const line = lo;
  const lineStart = lineStarts[line]!;
  const before = text.slice(lineStart, offset);
  let wordStart = offset;
  while (wordStart > lineStart && WORD_CHAR.test(text[wordStart - 1]!)) wordStart--;
  const word = { start: wordStart, end: offset };

  const shape = shapeOf(before);
  const parents = enclosingKeys(text, lineStarts, line, shape);
  if (shape.key !== undefined) {
    const inline = flowContext(shape.rest);
    const path = [...parents, ...(shape.dashes.length > 0 ? ["[]"] : []), shape.key, ...inline.path];
    return { path, slot: inline.slot, word };
  }
  if (shape.dashes.length > 0) return { path: parents, slot: "item", word };
  return { path: parents, slot: "key", word };
}

/** Keys of the block mappings that contain the current line. */
function enclosingKeys(text: string, lineStarts: readonly number[], line: number, current: LineShape): string[] {
  const path: string[] = [];
  // Lines must start left of `limit` to enclose us; `ownsSeqAt` is the dash column of the
  // sequence we are in, whose key may sit at that same column (an indentless sequence).
  let limit: number;
  let ownsSeqAt = -1;
  if (current.dashes.length > 0) {
    // Every dash after the first opens a nested sequence item inside the one before.
    for (let i = 1; i < current.dashes.length; i++) path.unshift("[]");
    limit = current.dashes[0]!;
    ownsSeqAt = limit;
  } else limit = current.content;
  for (let l = line - 1; l >= 0 && (limit > 0 || ownsSeqAt === 0); l--) {
    const raw = text.slice(lineStarts[l]!, l + 1 < lineStarts.length ? lineStarts[l + 1]! - 1 : text.length).replace(/\r$/, "");
    const shape = shapeOf(raw);
    if (shape.blank) continue;
    if (shape.dashes.length > 0) {
      const dash = shape.dashes[shape.dashes.length - 1]!;
      if (dash >= limit) continue; // a sibling item or something nested deeper
      // We are inside this item: under its key's block value, or beside its first key.
      if (shape.key !== undefined && shape.content < limit && shape.rest.trim() === "") path.unshift(shape.key);
      for (let i = 0; i < shape.dashes.length; i++) path.unshift("[]");
      limit = shape.dashes[0]!;
      ownsSeqAt = limit;
      continue;
    }
    if (shape.key === undefined) continue;
    if (shape.content < limit || shape.content === ownsSeqAt) {
      path.unshift(shape.key);
      limit = shape.content;
      ownsSeqAt = -1;
    }
  }
  return path;
}

/** Flow collections opened on the rest of the line after `key:`. */
function flowContext(rest: string): { path: string[]; slot: "key" | "value" } {
  const stack: { type: "map" | "seq"; key: string | undefined; afterColon: boolean; entryStart: number }[] = [];
  let quote = "";
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i]!;
    if (quote) {
      if (c === quote) quote = "";
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === '"' || c === "'") quote = c;
    else if (c === "{") stack.push({ type: "map", key: undefined, afterColon: false, entryStart: i + 1 });
    else if (c === "[") stack.push({ type: "seq", key: undefined, afterColon: false, entryStart: i + 1 });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === "," && top) {
      top.afterColon = false;
      top.key = undefined;
      top.entryStart = i + 1;
    } else if (c === ":" && top?.type === "map" && !top.afterColon && (rest[i + 1] === " " || i + 1 === rest.length)) {
      top.afterColon = true;
      top.key = unquote(rest.slice(top.entryStart, i).trim());
    } else if (c === "#" && (i === 0 || rest[i - 1] === " ")) break;
  }
  const path: string[] = [];
  let slot: "key" | "value" = "value";
  for (const level of stack) {
    if (level.type === "seq") {
      slot = "value";
      continue;
    }
    if (level.afterColon && level.key !== undefined) {
      path.push(level.key);
      slot = "value";
    } else slot = "key";
  }
  // Inside a flow sequence of mappings (`[{ a: 1 }, {`) the mapping's keys are under "[]".
  return { path: stack.some((l, i) => l.type === "seq" && stack[i + 1]?.type === "map") ? insertItems(stack, path) : path, slot };
}

function insertItems(stack: { type: "map" | "seq"; key: string | undefined; afterColon: boolean }[], keys: string[]): string[] {
  const out: string[] = [];
  let k = 0;
  for (const level of stack) {
    if (level.type === "seq") out.push("[]");
    else if (level.afterColon && level.key !== undefined) out.push(keys[k++]!);
  }
  return out;
}
