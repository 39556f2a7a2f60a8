/**
 * Maps offsets inside a YAML scalar's value back to offsets in the document,
 * so an error at column 7 of an expression lands at the right column whether
 * the scalar is plain, single-quoted (`''`), double-quoted (escapes), folded
 * across lines or a block scalar. One linear alignment pass per scalar.
 */
import type { Scalar } from "yaml";

/** Returns a function from a value offset (0..value.length) to a document offset. */
export function scalarOffsetMapper(text: string, scalar: Scalar): (valueOffset: number) => number {
  const value = typeof scalar.value === "string" ? scalar.value : String(scalar.value);
  const [start, end] = scalar.range ?? [0, 0];
  const raw = text.slice(start, end);
  if (raw === value) return (i) => start + clamp(i, value.length);
  const map = align(raw, value, scalar.type);
  return (i) => {
    const at = clamp(i, value.length);
    return start + (at < map.length ? map[at]! : map.length > 0 ? map[map.length - 1]! + 1 : contentStart(raw, scalar.type));
  };
}

function clamp(i: number, max: number): number {
  return Math.max(0, Math.min(i, max));
}

function contentStart(raw: string, type: Scalar["type"]): number {
  if (type === "QUOTE_DOUBLE" || type === "QUOTE_SINGLE") return 1;
  if (type === "BLOCK_FOLDED" || type === "BLOCK_LITERAL") {
    const nl = raw.indexOf("\n");
    return nl === -1 ? raw.length : nl + 1;
  }
  return 0;
}

const ESCAPE_LENGTH: Record<string, number> = { x: 4, u: 6, U: 10 };

function isSpace(c: string | undefined): boolean {
  return c === " " || c === "\t" || c === "\r" || c === "\n";
}

/** map[i] = offset in raw of value character i. */
function align(raw: string, value: string, type: Scalar["type"]): number[] {
  const map = new Array<number>(value.length);
  const doubleQuoted = type === "QUOTE_DOUBLE";
  const singleQuoted = type === "QUOTE_SINGLE";
  let j = contentStart(raw, type);
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (doubleQuoted && raw[j] === "\\") {
      const next = raw[j + 1];
      if (next === "\n" || next === "\r") {
        // escaped line break: contributes nothing; skip it and the next line's indent
        j += 2;
        while (isSpace(raw[j])) j++;
        i--;
        continue;
      }
      map[i] = j;
      j += next !== undefined && ESCAPE_LENGTH[next] !== undefined ? ESCAPE_LENGTH[next]! : 2;
      continue;
    }
    if (singleQuoted && raw[j] === "'" && raw[j + 1] === "'") {
      map[i] = j;
      j += 2;
      continue;
    }
    if (raw[j] === c) {
      map[i] = j++;
      continue;
    }
    if (c === " " || c === "\n") {
      // line folding: a run of raw whitespace became one space or newline
      map[i] = j;
      while (isSpace(raw[j]) && raw[j + 1] !== undefined && isSpace(raw[j + 1])) j++;
      j++;
      continue;
    }
    // indentation or a comment-free gap: skip whitespace, then match
    while (j < raw.length && isSpace(raw[j])) j++;
    map[i] = Math.min(j, raw.length);
    if (raw[j] === c) j++;
  }
  return map;
}
