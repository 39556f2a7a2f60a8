/**
 * Compiles every expression and template through the expression module
 * (compiler/src/expr) with the scope of where it appears, and reports its
 * errors as C060 at the exact column in the document (expression offsets are
 * mapped through the YAML scalar's source). In compensation `with`
 * templates, names that fail only because `result` is limited to the tool's
 * declared fields are C032. Compiled forms are kept for the plan, keyed by the
 * scalar's JSON path. The scope of each site is chosen by siteScope, the
 * same choice editors make through scopeOfSite.
 */
import type { Span } from "../diagnostics/types.js";
import { compileExpression, compileTemplate, type ExprError, type ExprScope } from "../expr/index.js";
import type { ExprSite } from "../parse/model.js";
import type { CompiledExpr, CompiledTemplate } from "../plan/schema.js";
import { scalarOffsetMapper } from "../source/scalar-offsets.js";
import type { CheckContext } from "./context.js";
import { compensationScope } from "./scopes.js";
import { siteScope } from "./site-scope.js";
import { identityMemo } from "../memo.js";

export type CompiledExpressions = Map<string, CompiledExpr | CompiledTemplate>;

export function pathKey(path: readonly (string | number)[]): string {
  return path.join("\u0000");
}

export function checkExpressions(ctx: CheckContext): CompiledExpressions {
  const compiled: CompiledExpressions = new Map();
  const { contract } = ctx;
  for (const site of ctx.parsed.model.expressions) {
    if (site.kind === "with") {
      const tool = contract.tools?.[site.owner.name];
      if (!tool) continue;
      compileCompensationArgument(ctx, site, compensationScope(contract, tool, false), siteScope(contract, site), compiled);
      continue;
    }
    const result = compileSite(site, siteScope(contract, site));
    reportErrors(ctx, site, result.errors, "C060");
    if (result.value) compiled.set(pathKey(site.path), result.value);
  }
  return compiled;
}

interface Compiled {
  value?: CompiledExpr | CompiledTemplate;
  /** Relative to the site's source: mapped to the document when reported. */
  errors: ExprError[];
}

/**
 * Results by scope, then kind and source. A scope object stands for its names
 * for as long as it lives (scopes.ts keeps a unit's while the unit's definition
 * is unchanged), so an editor's recompile compiles only the edited unit's
 * expressions again. Results are shared: read-only, like the ASTs in them.
 */
const results = identityMemo<ExprScope, Map<string, Compiled>>("check/expressions: compiled expressions by scope and source");

function compileSite(site: ExprSite, scope: ExprScope): Compiled {
  let known = results.get(scope);
  if (!known) results.set(scope, (known = new Map()));
  const key = `${site.mode}\u0000${site.source}`;
  let result = known.get(key);
  if (!result) {
    result =
      site.mode === "template"
        ? (({ template, errors }) => ({ value: template, errors }))(compileTemplate(site.source, scope))
        : (({ expr, errors }) => ({ value: expr, errors }))(compileExpression(site.source, scope, "boolean"));
    known.set(key, result);
  }
  return result;
}

function compileCompensationArgument(
  ctx: CheckContext,
  site: ExprSite,
  open: ExprScope,
  closed: ExprScope,
  compiled: CompiledExpressions,
): void {
  const loose = compileTemplate(site.source, open);
  reportErrors(ctx, site, loose.errors, "C060");
  if (loose.errors.length > 0) return;
  const strict = compileTemplate(site.source, closed);
  const tool = ctx.contract.tools?.[site.owner.name];
  const hint = Object.keys(tool?.result ?? {}).length > 0 ? "" : ` (tool '${site.owner.name}' declares no 'result' fields)`;
  // the problem is the whole reference `result.x`, so the span starts at `result`
  const widened = strict.errors.map((e) => ({ ...e, start: pathStart(site.source, e.start), message: `${e.message}${hint}` }));
  reportErrors(ctx, site, widened, "C032");
  if (strict.template) compiled.set(pathKey(site.path), strict.template);
}

function pathStart(source: string, at: number): number {
  let start = at;
  while (start > 0 && /[A-Za-z0-9_.]/.test(source[start - 1]!)) start--;
  return start;
}

function reportErrors(ctx: CheckContext, site: ExprSite, errors: ExprError[], code: "C060" | "C032"): void {
  if (errors.length === 0) return;
  const map = scalarOffsetMapper(ctx.text, site.scalar);
  for (const error of errors) {
    const start = map(error.start);
    const end = Math.max(map(error.end), start + (error.end > error.start ? 1 : 0));
    const span: Span = { start, end };
    ctx.sink.report(code, span, `${code === "C032" ? "compensation argument" : describeSite(site)}: ${error.message}`);
  }
}

function describeSite(site: ExprSite): string {
  const where = site.owner.kind === "task" ? "task.done" : `${site.owner.kind} '${site.owner.name}'`;
  switch (site.kind) {
    case "until":
      return `loop 'until' of ${where}`;
    case "key":
      return `key of ${where}`;
    default:
      return `check in ${where}`;
  }
}
