/**
 * Source text -> tokens, with lexical problems as ExprErrors in the author's
 * terms (`unexpected character '='`: use '=='), not chevrotain's wording.
 */
import type { IToken } from "chevrotain";
import { Lexer } from "./chevrotain.js";
import { MAX_ERRORS } from "./limits.js";
import { allTokens, UnterminatedString } from "./tokens.js";
import type { ExprError } from "./types.js";

const lexer = new Lexer(allTokens, { positionTracking: "onlyOffset", ensureOptimizations: true });

const HINTS: Record<string, string> = {
  "=": "use '==' to compare",
  "&": "use '&&' for 'and'",
  "|": "use '||' for 'or'",
  "${": "write the expression itself; '${...}' marks expressions only inside templates (tool keys, compensation arguments)",
  "{": "braces only delimit template parts: ${...}",
  "}": "braces only delimit template parts: ${...}",
  "%": "there is no '%' operator",
  "\u00a0": "a non-breaking space; use a plain space",
};

export interface LexResult {
  tokens: IToken[];
  errors: ExprError[];
}

/** Raw tokens, unterminated strings included, lexical errors ignored: what completion needs. */
export function tokenize(source: string): IToken[] {
  return lexer.tokenize(source).tokens;
}

function unexpected(source: string, start: number, end: number): ExprError {
  const text = source.slice(start, end);
  const hint = Object.hasOwn(HINTS, text) ? HINTS[text] : undefined;
  const what = end - start === 1 ? `unexpected character ${show(text)}` : `unexpected characters ${show(text)}`;
  return { message: hint ? `${what}: ${hint}` : what, start, end };
}

/** Characters that may appear outside string literals: those of names, numbers, operators, brackets and spaces. */
const ALLOWED = new Uint8Array(128);
for (const c of "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ \t\r\n.,()[]=!<>&|+-*/") ALLOWED[c.charCodeAt(0)] = 1;

/**
 * Runs of characters that no token can contain, outside string literals.
 * Chevrotain's lexer recovers from such characters one position at a time,
 * trying every pattern; binary junk is found here in one pass instead.
 */
function strayCharacters(source: string): ExprError[] {
  const errors: ExprError[] = [];
  let quote = 0;
  let run = -1;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (quote !== 0) {
      if (c === 92) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    const isQuote = c === 34 || c === 39;
    const bad = !isQuote && (c >= 128 || ALLOWED[c] === 0);
    if (bad && run < 0) run = i;
    if (!bad && run >= 0) {
      errors.push(unexpected(source, run, i));
      if (errors.length === MAX_ERRORS) return errors;
      run = -1;
    }
    if (isQuote) quote = c;
  }
  if (run >= 0) errors.push(unexpected(source, run, source.length));
  return errors;
}

export function lex(source: string): LexResult {
  const stray = strayCharacters(source);
  if (stray.length > 0) return { tokens: [], errors: stray };
  const result = lexer.tokenize(source);
  const errors: ExprError[] = result.errors.map((e) => unexpected(source, e.offset, e.offset + e.length));
  const tokens: IToken[] = [];
  for (const token of result.tokens) {
    if (token.tokenType === UnterminatedString) {
      errors.push({
        message: `unterminated string: add the closing ${token.image[0]}`,
        start: token.startOffset,
        end: token.startOffset + token.image.length,
      });
    } else {
      tokens.push(token);
    }
  }
  errors.sort((a, b) => a.start - b.start);
  return { tokens, errors };
}

/** Quote a piece of source for a message; control and non-ASCII bytes are shown escaped, long runs cut. */
export function show(text: string): string {
  const cut = text.length > 20 ? `${text.slice(0, 20)}...` : text;
  const escaped = cut.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return `'${escaped}'`;
}
