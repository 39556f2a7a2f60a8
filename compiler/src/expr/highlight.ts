/**
 * What each piece of an expression or template is, for editors that colour
 * them (LSP semantic tokens): functions, names, fields, operators, strings,
 * numbers, keywords, and a template's `${`/`}` delimiters. Read from the
 * lexer's tokens, so the colours follow the language's own definition of a
 * name or an operator; text the lexer cannot read is left uncoloured.
 */
import { tokenize } from "./lexer.js";
import { splitTemplate } from "./template.js";
import {
  BinaryOp,
  Dot,
  False,
  Identifier,
  LParen,
  Null,
  NumberLiteral,
  StringLiteral,
  True,
  UnaryOp,
  UnterminatedString,
} from "./tokens.js";

export const HIGHLIGHT_KINDS = ["function", "variable", "property", "operator", "string", "number", "keyword", "delimiter"] as const;
export type HighlightKind = (typeof HIGHLIGHT_KINDS)[number];

/** `[start, end)` offsets into the source given to `highlight`. */
export interface Highlight {
  start: number;
  end: number;
  kind: HighlightKind;
}

/** The coloured pieces of an expression (`mode: "expression"`) or of a template's `${...}` parts, in order. */
export function highlight(source: string, mode: "expression" | "template"): Highlight[] {
  if (mode === "expression") return highlightExpression(source, 0);
  const out: Highlight[] = [];
  for (const piece of splitTemplate(source).pieces) {
    if (piece.kind !== "expr") continue;
    out.push({ start: piece.start - 2, end: piece.start, kind: "delimiter" });
    out.push(...highlightExpression(piece.source, piece.start));
    out.push({ start: piece.end, end: piece.end + 1, kind: "delimiter" });
  }
  return out;
}

function highlightExpression(source: string, shift: number): Highlight[] {
  const tokens = tokenize(source);
  const out: Highlight[] = [];
  tokens.forEach((token, i) => {
    const kind = kindOf(token.tokenType, tokens[i - 1]?.tokenType, tokens[i + 1]?.tokenType);
    if (kind) out.push({ start: shift + token.startOffset, end: shift + token.startOffset + token.image.length, kind });
  });
  return out;
}

type TokenType = ReturnType<typeof tokenize>[number]["tokenType"];

function kindOf(type: TokenType, before: TokenType | undefined, after: TokenType | undefined): HighlightKind | undefined {
  if (type === Identifier) return after === LParen ? "function" : before === Dot ? "property" : "variable";
  if (type === NumberLiteral) return "number";
  if (type === StringLiteral || type === UnterminatedString) return "string";
  if (type === True || type === False || type === Null) return "keyword";
  if (type.CATEGORIES?.includes(BinaryOp) || type.CATEGORIES?.includes(UnaryOp)) return "operator";
  return undefined;
}
