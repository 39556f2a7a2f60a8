/**
 * Source text -> tokens, with lexical problems as ExprErrors in the author's
 * terms (`unexpected character '='`: use '=='), not chevrotain's wording.
 */
import { Lexer, type IToken } from "chevrotain";
import { allTokens, UnterminatedString } from "./tokens.js";
import type { ExprError } from "./types.js";

const lexer = new Lexer(allTokens, { positionTracking: "onlyOffset", ensureOptimizations: false });

const HINTS: Record<string, string> = {
  "=": "use '==' to compare",
  "&": "use '&&' for 'and'",
  "|": "use '||' for 'or'",
  "${": "write the expression itself; '${...}' marks expressions only inside templates (tool keys, compensation arguments)",
  "{": "braces only delimit template parts: ${...}",
  "}": "braces only delimit template parts: ${...}",
  "%": "there is no '%' operator",
};

export interface LexResult {
  tokens: IToken[];
  errors: ExprError[];
}

/** Raw tokens, unterminated strings included, lexical errors ignored: what completion needs. */
export function tokenize(source: string): IToken[] {
  return lexer.tokenize(source).tokens;
}

export function lex(source: string): LexResult {
  const result = lexer.tokenize(source);
  const errors: ExprError[] = result.errors.map((e) => {
    const text = source.slice(e.offset, e.offset + e.length);
    const hint = Object.hasOwn(HINTS, text) ? HINTS[text] : undefined;
    const what = e.length === 1 ? `unexpected character ${show(text)}` : `unexpected characters ${show(text)}`;
    return { message: hint ? `${what}: ${hint}` : what, start: e.offset, end: e.offset + e.length };
  });
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
