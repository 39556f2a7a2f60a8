/**
 * Where expressions name a unit or an input: a unit's checks and `until` may
 * read the results of the units and inputs it needs by name (`S04.claims`),
 * and any expression may read `inputs.<name>`. References and rename must see
 * these too, or a rename would leave C060 behind. Found through the
 * expression module's own AST (spans relative to the expression text), mapped
 * to the document through the YAML scalar.
 */
import {
  compileExpression,
  compileTemplate,
  pathsIn,
  scalarOffsetMapper,
  scopeOfSite,
  type ExprNode,
  type ExprSite,
  type Span,
} from "@taskspec/compiler";
import type { Analysis } from "./analysis.js";
import type { Target } from "./symbol-target.js";

export function expressionReferences(analysis: Analysis, target: { kind: string; name: string }): Span[] {
  if (target.kind !== "unit" && target.kind !== "input") return [];
  const { model } = analysis.parsed;
  const spans: Span[] = [];
  for (const site of model.expressions) {
    const owner = site.owner.kind === "unit" ? model.units.get(site.owner.name) : undefined;
    const asRoot = owner?.needs.some((n) => n.name === target.name) ?? false;
    if (!asRoot && (target.kind !== "input" || !site.source.includes("inputs"))) continue;
    const toDocument = scalarOffsetMapper(analysis.text, site.scalar);
    for (const inner of namesInSite(site, analysis, target.name, asRoot, target.kind === "input")) {
      spans.push({ start: toDocument(inner.start), end: toDocument(inner.end - 1) + 1 });
    }
  }
  return spans;
}

/** Spans (in the expression text) of `name` as a path root or as the field after `inputs.`. */
function namesInSite(site: ExprSite, analysis: Analysis, name: string, asRoot: boolean, asInput: boolean): Span[] {
  const scope = scopeOfSite(analysis.parsed.model, site);
  const asts: ExprNode[] = [];
  if (site.mode === "template") {
    for (const part of compileTemplate(site.source, scope).template?.parts ?? []) if ("expr" in part) asts.push(part.expr);
  } else {
    const ast = compileExpression(site.source, scope).expr?.ast;
    if (ast) asts.push(ast);
  }
  const found: Span[] = [];
  for (const path of asts.flatMap(pathsIn)) {
    const { start } = path.span;
    if (asRoot && path.root === name && site.source.startsWith(name, start)) found.push({ start, end: start + name.length });
    const first = path.segments[0];
    if (asInput && path.root === "inputs" && first?.kind === "prop" && first.name === name) {
      const at = site.source.indexOf(name, start + "inputs".length);
      if (at >= 0 && at < path.span.end) found.push({ start: at, end: at + name.length });
    }
  }
  return found;
}

/** A unit or input named inside an expression under the cursor, as a navigation target. */
export function expressionTargetAt(analysis: Analysis, offset: number): Target | undefined {
  const { model } = analysis.parsed;
  if (!model.expressions.some((s) => s.span.start <= offset && offset <= s.span.end)) return undefined;
  const { text } = analysis;
  let start = offset;
  let end = offset;
  while (start > 0 && /[A-Za-z0-9_-]/.test(text[start - 1]!)) start--;
  while (end < text.length && /[A-Za-z0-9_-]/.test(text[end]!)) end++;
  const name = text.slice(start, end);
  for (const decls of [model.units, model.inputs]) {
    const decl = decls.get(name);
    if (!decl) continue;
    const span = expressionReferences(analysis, decl).find((s) => s.start <= offset && offset <= s.end);
    if (span) return { kind: decl.kind, name, decl, span, ref: undefined };
  }
  return undefined;
}
