/**
 * Semantic tokens for the expressions and templates inside YAML strings
 * (`check:`, `until:`, a tool's `key:`, compensation `with:`): the expression
 * module says what each piece is, on the expression's own text; this maps the
 * pieces to document positions through the YAML scalar (quotes, escapes,
 * folded lines) and encodes them as the protocol wants, in full, for a range,
 * or as the edits from the previous answer.
 */
import { HIGHLIGHT_KINDS, scalarOffsetMapper, highlight, type HighlightKind } from "@taskspec/compiler";
import type { Range, SemanticTokens, SemanticTokensEdit, SemanticTokensLegend } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";

/** The protocol's standard token type for each kind (a template's `${`/`}` is coloured as an operator). */
const LSP_TYPE: Record<HighlightKind, string> = {
  function: "function",
  variable: "variable",
  property: "property",
  operator: "operator",
  string: "string",
  number: "number",
  keyword: "keyword",
  delimiter: "operator",
};

const TOKEN_TYPES = [...new Set(HIGHLIGHT_KINDS.map((k) => LSP_TYPE[k]))];
const TYPE_INDEX = new Map(HIGHLIGHT_KINDS.map((k) => [k, TOKEN_TYPES.indexOf(LSP_TYPE[k])]));

export const SEMANTIC_TOKENS_LEGEND: SemanticTokensLegend = { tokenTypes: TOKEN_TYPES, tokenModifiers: [] };

/** One token on one line, in document coordinates. */
export interface DocumentToken {
  line: number;
  character: number;
  length: number;
  kind: HighlightKind;
}

/** Every expression token of the document, in document order; a token that crosses a line end is cut at it. */
export function documentTokens(analysis: Analysis): DocumentToken[] {
  const { text } = analysis;
  const lines = analysis.parsed.lines;
  const pieces: { start: number; end: number; kind: HighlightKind }[] = [];
  for (const site of analysis.parsed.model.expressions) {
    const toDocument = scalarOffsetMapper(text, site.scalar);
    for (const h of highlight(site.source, site.mode)) {
      const start = toDocument(h.start);
      const end = toDocument(h.end);
      // a string folded over lines: one token per line it covers
      for (let from = start; from < end;) {
        const newline = text.indexOf("\n", from);
        const to = newline < 0 || newline >= end ? end : newline;
        if (to > from) pieces.push({ start: from, end: to, kind: h.kind });
        from = to + 1;
        while (from < end && (text[from] === " " || text[from] === "\t")) from++;
      }
    }
  }
  pieces.sort((a, b) => a.start - b.start);
  return pieces.map((p) => {
    const at = lines.offsetToPosition(p.start);
    return { line: at.line, character: at.character, length: p.end - p.start, kind: p.kind };
  });
}

/** The protocol's relative encoding: five integers per token. */
export function encodeTokens(tokens: readonly DocumentToken[]): number[] {
  const data: number[] = [];
  let line = 0;
  let character = 0;
  for (const t of tokens) {
    const deltaLine = t.line - line;
    data.push(deltaLine, deltaLine === 0 ? t.character - character : t.character, t.length, TYPE_INDEX.get(t.kind)!, 0);
    line = t.line;
    character = t.character;
  }
  return data;
}

export function semanticTokensInRange(analysis: Analysis, range: Range): SemanticTokens {
  const inside = documentTokens(analysis).filter(
    (t) =>
      (t.line > range.start.line || (t.line === range.start.line && t.character + t.length > range.start.character)) &&
      (t.line < range.end.line || (t.line === range.end.line && t.character < range.end.character)),
  );
  return { data: encodeTokens(inside) };
}

/**
 * The edits that turn `previous` into `next`: the integers between their
 * common start and common end, replaced (one edit, or none when equal).
 */
export function tokensDelta(previous: readonly number[], next: readonly number[]): SemanticTokensEdit[] {
  let head = 0;
  while (head < previous.length && head < next.length && previous[head] === next[head]) head++;
  let tail = 0;
  while (
    tail < previous.length - head &&
    tail < next.length - head &&
    previous[previous.length - 1 - tail] === next[next.length - 1 - tail]
  )
    tail++;
  if (head === previous.length && head === next.length) return [];
  return [{ start: head, deleteCount: previous.length - head - tail, data: next.slice(head, next.length - tail) }];
}
