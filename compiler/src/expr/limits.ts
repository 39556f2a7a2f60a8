/**
 * Hostile-input guards. The parser and the tree walkers recurse, so nesting
 * and size are bounded before parsing: a 100k-token expression or 10k nested
 * parentheses gets one clear error in linear time instead of a stack overflow.
 * The bounds are far above anything an author writes in a `check` or a `key`.
 */
import type { IToken } from "chevrotain";
import { LBracket, LParen, RBracket, RParen } from "./tokens.js";
import type { ExprError } from "./types.js";

export const MAX_SOURCE_LENGTH = 20_000;
export const MAX_TOKENS = 2_000;
/**
 * Open `(` and `[` at one point. Each level costs the parser about 25 stack
 * frames; a bare Node stack overflows near 390 levels, so 64 leaves room for
 * callers that are themselves deep (tested from 5000 frames down).
 */
export const MAX_NESTING = 64;
/** More errors than this in one expression are noise: the first ones are shown. */
export const MAX_ERRORS = 10;

export function checkSourceLength(source: string, what: "expression" | "template" = "expression"): ExprError | undefined {
  if (source.length <= MAX_SOURCE_LENGTH) return undefined;
  const advice = what === "expression" ? "split it into several checks" : "shorten it";
  return {
    message: `${what} is too long (${source.length} characters; the limit is ${MAX_SOURCE_LENGTH}): ${advice}`,
    start: 0,
    end: source.length,
  };
}

export function checkTokenLimits(tokens: IToken[], sourceLength: number): ExprError | undefined {
  if (tokens.length > MAX_TOKENS) {
    return {
      message: `expression is too long (${tokens.length} tokens; the limit is ${MAX_TOKENS}): split it into several checks`,
      start: 0,
      end: sourceLength,
    };
  }
  let depth = 0;
  for (const token of tokens) {
    const type = token.tokenType;
    if (type === LParen || type === LBracket) {
      depth++;
      if (depth > MAX_NESTING) {
        return {
          message: `expression is nested too deeply (more than ${MAX_NESTING} levels of '(' and '[')`,
          start: token.startOffset,
          end: token.startOffset + token.image.length,
        };
      }
    } else if ((type === RParen || type === RBracket) && depth > 0) {
      depth--;
    }
  }
  return undefined;
}
