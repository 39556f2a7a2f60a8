/**
 * Completion and hover inside expressions (`check`, `until`) and templates
 * (`${...}` in `key` and `with`). The expression module does the work on the
 * expression's own text; this maps the document offset into that text through
 * the YAML scalar (quotes, escapes, folding) and back.
 */
import {
  EXPR_FUNCTIONS,
  completeAt,
  completeTemplateAt,
  scalarOffsetMapper,
  scopeOfSite,
  type ExprFunctionSpec,
  type ExprSite,
  type Span,
} from "@taskspec/compiler";
import { CompletionItemKind, MarkupKind, type CompletionItem, type Range } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { rangeOf } from "./lsp-ranges.js";
import { knownResultFields } from "./result-fields.js";

interface SiteAt {
  site: ExprSite;
  /** Offset inside the expression's source text. */
  inner: number;
  toDocument: (inner: number) => number;
}

export function siteAt(analysis: Analysis, offset: number): SiteAt | undefined {
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
  const found =
    at.site.mode === "template" ? completeTemplateAt(at.site.source, at.inner, scope) : completeAt(at.site.source, at.inner, scope);
  const start = nameStart(at.site.source, at.inner);
  const range = rangeOf(analysis, { start: at.toDocument(start), end: offset });
  const items: CompletionItem[] = found.map((c) => {
    const fn = functionSpec(c.label);
    return {
      label: c.label,
      kind: fn ? CompletionItemKind.Function : c.type === "object" ? CompletionItemKind.Module : CompletionItemKind.Field,
      detail: fn ? fn.signature : c.type,
      documentation: { kind: MarkupKind.Markdown, value: fn ? functionDoc(fn) : `\`${c.label}\`: ${c.type}` },
      textEdit: { range, newText: c.label },
    };
  });
  if (items.length === 0) items.push(...knownFieldItems(analysis, at, start, range));
  return items;
}

/**
 * After `result.` or a need's name and a dot, where the checker knows no
 * fields (a result is open JSON): the fields the contract's expressions read
 * from that unit's result.
 */
function knownFieldItems(analysis: Analysis, at: SiteAt, start: number, range: Range): CompletionItem[] {
  const { source } = at.site;
  if (source[start - 1] !== ".") return [];
  const rootEnd = start - 1;
  const rootStart = nameStart(source, rootEnd);
  if (rootStart > 0 && source[rootStart - 1] === ".") return [];
  const root = source.slice(rootStart, rootEnd);
  const { model } = analysis.parsed;
  const owner = at.site.owner.kind === "unit" ? at.site.owner.name : undefined;
  const unit = root === "result" ? owner : model.units.get(owner ?? "")?.needs.some((n) => n.name === root) ? root : undefined;
  if (!unit) return [];
  return [...knownResultFields(model, unit)].map(([field, where]) => ({
    label: field,
    kind: CompletionItemKind.Field,
    detail: `field of ${unit}'s result`,
    documentation: {
      kind: MarkupKind.Markdown,
      value: `\`${root}.${field}\`: a field of ${unit}'s result (open JSON), read by ${where.join(", ")}`,
    },
    textEdit: { range, newText: field },
  }));
}

export function functionSpec(name: string): ExprFunctionSpec | undefined {
  return Object.hasOwn(EXPR_FUNCTIONS, name) ? EXPR_FUNCTIONS[name as keyof typeof EXPR_FUNCTIONS] : undefined;
}

/** A function's signature, what it does and an example, as hover and completion show it. */
export function functionDoc(fn: ExprFunctionSpec): string {
  return ["```", fn.signature, "```", fn.summary, "", `example: \`${fn.example}\``].join("\n");
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
  const fn = functionSpec(name);
  const span = { start: at.toDocument(start), end: at.toDocument(end) };
  if (fn && source.slice(end).trimStart().startsWith("(")) return { text: functionDoc(fn), span };
  let pathStart = start;
  while (pathStart > 0 && (source[pathStart - 1] === "." || isNameChar(source, pathStart - 1))) pathStart--;
  return {
    text: `\`${source.slice(pathStart, end)}\`: ${found.type}`,
    span,
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
