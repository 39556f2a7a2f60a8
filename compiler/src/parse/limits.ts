/**
 * Guards that run before and around the YAML parser so hostile input costs
 * bounded time and memory: a size cap, binary bytes, flow nesting depth (yaml
 * recurses per level), block nesting depth and alias expansion (walkers count
 * nodes). Real contracts are far inside every limit.
 */
export interface Limits {
  /** Largest accepted text, in UTF-16 code units. */
  maxChars: number;
  /** Deepest accepted nesting of collections. */
  maxDepth: number;
  /** Most nodes a walker may visit, counting alias expansions. */
  maxNodes: number;
}

/**
 * 8 MiB is about 30,000 units and keeps the YAML parser's peak heap well
 * inside Node's default limit (bench/RESULTS.md, "figures behind code
 * comments"): larger input is refused with a diagnostic instead of risking an
 * out-of-memory crash.
 */
export const DEFAULT_LIMITS: Limits = { maxChars: 8 * 1024 * 1024, maxDepth: 64, maxNodes: 4_000_000 };

const BINARY = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/;

/** Offset of the first character YAML forbids (binary data), or -1. */
export function firstBinaryOffset(text: string): number {
  const m = BINARY.exec(text);
  return m ? m.index : -1;
}

/**
 * Offset where `[`/`{` nesting first exceeds `maxDepth`, or -1. Quoted strings
 * and comments are skipped roughly; the bound is generous, so a rough scan is
 * enough to keep the parser away from stack exhaustion.
 */
export function flowDepthExceededAt(text: string, maxDepth: number): number {
  let depth = 0;
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === 10) quote = "";
      else if (quote === '"' && c === 92) i++;
      else if (text[i] === quote) quote = "";
      continue;
    }
    if (c === 91 || c === 123) {
      if (++depth > maxDepth) return i;
    } else if (c === 93 || c === 125) {
      if (depth > 0) depth--;
    } else if (c === 34 || c === 39) {
      const prev = text.charCodeAt(i - 1);
      if (i === 0 || prev === 32 || prev === 91 || prev === 123 || prev === 44 || prev === 58 || prev === 10) quote = text[i]!;
    } else if (c === 35 && (i === 0 || text.charCodeAt(i - 1) === 32 || text.charCodeAt(i - 1) === 10)) {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl - 1;
    }
  }
  return -1;
}
