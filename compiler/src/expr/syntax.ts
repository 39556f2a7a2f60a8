/**
 * The syntax stage: size guard, lexer, nesting guard, parser, AST builder.
 * Each stage runs only when the previous one found nothing, so an author sees
 * the first real problem rather than its echoes.
 */
import type { ExprNode } from "../plan/schema.js";
import type { Span } from "../diagnostics/types.js";
import { buildAst, type PathSegment } from "./build-ast.js";
import { lex } from "./lexer.js";
import { checkSourceLength, checkTokenLimits, MAX_ERRORS } from "./limits.js";
import { parseTokens } from "./parser.js";
import type { ExprError } from "./types.js";
import { sourceMemo } from "../memo.js";

export interface SyntaxResult {
  ast?: ExprNode;
  errors: ExprError[];
  segmentSpans: WeakMap<PathSegment, Span>;
}

/**
 * Parsing is pure and sources recur: a check repeated across units, and an
 * editor recompiles the whole contract on every keystroke. Results are kept by
 * source, so they are shared and must never be mutated. Bounded in entries and
 * source length, oldest first out, so hostile input cannot grow it.
 */
const CACHE_ENTRIES = 4096;
const CACHED_SOURCE_LENGTH = 1000;
const cache = sourceMemo<SyntaxResult>("expr/syntax: parsed expressions by source", CACHE_ENTRIES);

export function parseExpression(source: string): SyntaxResult {
  const cached = cache.get(source);
  if (cached) return cached;
  const result = parse(source);
  if (source.length <= CACHED_SOURCE_LENGTH) {
    cache.set(source, result);
  }
  return result;
}

function parse(source: string): SyntaxResult {
  const fail = (errors: ExprError[]): SyntaxResult => ({ errors: unique(errors).slice(0, MAX_ERRORS), segmentSpans: new WeakMap() });
  const tooLong = checkSourceLength(source);
  if (tooLong) return fail([tooLong]);
  if (source.trim() === "") return fail([{ message: "empty expression", start: 0, end: source.length }]);
  const lexed = lex(source);
  if (lexed.errors.length > 0) return fail(lexed.errors);
  const limit = checkTokenLimits(lexed.tokens, source.length);
  if (limit) return fail([limit]);
  const parsed = parseTokens(lexed.tokens, source.length);
  if (!parsed.cst) return fail(parsed.errors);
  const built = buildAst(parsed.cst);
  if (built.errors.length > 0) return fail(built.errors);
  return { ast: built.ast, errors: [], segmentSpans: built.segmentSpans };
}

/** Recovery can report one problem twice (e.g. a word operator seen from two rules). */
function unique(errors: ExprError[]): ExprError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const key = `${e.start}:${e.end}:${e.message}`;
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}
