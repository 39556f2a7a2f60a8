/**
 * Completion and hover inside expressions (`check`, `until`) and templates
 * (`${...}` in `key` and `with`). The expression module does the work on the
 * expression's own text; this maps the document offset into that text through
 * the YAML scalar (quotes, escapes, folding) and back.
 */
import { completeAt, completeTemplateAt, scalarOffsetMapper, scopeOfSite, type ExprSite, type Span } from "@taskspec/compiler";
import { CompletionItemKind, type CompletionItem } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { rangeOf } from "./lsp-ranges.js";

interface SiteAt {
  site: ExprSite;
  /** Offset inside the expression's source text. */
  inner: number;
  toDocument: (inner: number) => number;
}

function siteAt(analysis: Analysis, offset: number): SiteAt | undefined {
  for (const site of analysis.parsed.model.expressions) {
    if (offset < site.span.start || offset > site.span.end) continue;
    const toDocument = scalarOffsetMapper(analysis.text, site.scalar);
    // The mapping is monotonic: the last value offset that lands at or before the cursor.
    let lo = 0;
    let hi = site.source.length;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (toDocument(mid) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { site, inner: lo, toDocument };
  }
  return undefined;
}

/** Completions when the cursor is inside an expression or template; undefined when it is not. */
export function expressionCompletions(analysis: Analysis, offset: number): CompletionItem[] | undefined {
  const at = siteAt(analysis, offset);
  if (!at) return undefined;
  const scope = scopeOfSite(analysis.parsed.model, at.site);
  const found = at.site.mode === "template" ? completeTemplateAt(at.site.source, at.inner, scope) : completeAt(at.site.source, at.inner, scope);
  const start = nameStart(at.site.source, at.inner);
  const range = rangeOf(analysis, { start: at.toDocument(start), end: offset });
  return found.map((c) => ({
    label: c.label,
    kind: c.type === "object" ? CompletionItemKind.Module : CompletionItemKind.Field,
    detail: c.type,
    textEdit: { range, newText: c.label },
  }));
}

/**
 * The type of the name under the cursor in an expression: asks completion what
 * is valid just before the name (the roots, or the fields after its `.`) and
 * reads the name's type there, so types are resolved by the expression module only.
 */
export function expressionHover(analysis: Analysis, offset: number): { text: string; span: Span } | undefined {
  const at = siteAt(analysis, offset);
  if (!at) return undefined;
  const { source } = at.site;
  const start = nameStart(source, at.inner);
  const end = nameEnd(source, at.inner);
  if (end === start) return undefined;
  const name = source.slice(start, end);
  const scope = scopeOfSite(analysis.parsed.model, at.site);
  const valid = at.site.mode === "template" ? completeTemplateAt(source, start, scope) : completeAt(source, start, scope);
  const found = valid.find((c) => c.label === name);
  if (!found) return undefined;
  let pathStart = start;
  while (pathStart > 0 && (source[pathStart - 1] === "." || isNameChar(source, pathStart - 1))) pathStart--;
  return {
    text: `\`${source.slice(pathStart, end)}\`: ${found.type}`,
    span: { start: at.toDocument(start), end: at.toDocument(end) },
  };
}

const WORD = /[A-Za-z0-9_]/;

/** As the expression lexer reads names: a `-` between two word characters is part of the name (`group-c`). */
function isNameChar(source: string, i: number): boolean {
  const c = source[i];
  if (c === undefined) return false;
  if (WORD.test(c)) return true;
  return c === "-" && i > 0 && WORD.test(source[i - 1]!) && WORD.test(source[i + 1] ?? "");
}

function nameStart(source: string, offset: number): number {
  let start = offset;
  while (start > 0 && isNameChar(source, start - 1)) start--;
  return start;
}

function nameEnd(source: string, offset: number): number {
  let end = offset;
  while (end < source.length && isNameChar(source, end)) end++;
  return end;
}
