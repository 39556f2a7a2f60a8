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
import type { CompiledExpr, CompiledTemplate, VerifierUse } from "../plan/schema.js";
import { scalarOffsetMapper } from "../source/scalar-offsets.js";
import type { CheckContext } from "./context.js";
import { compensationScope } from "./scopes.js";
import { namesOfPlan, siteScope } from "./site-scope.js";
import { pointerToken, type PlanView } from "./plan-view.js";
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

function compileSite(site: Pick<ExprSite, "mode" | "source">, scope: ExprScope): Compiled {
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

/**
 * A compensation argument: first against `result` open (C060 for what is
 * wrong in any scope), then against the tool's declared result fields only
 * (C032), spans widened to the whole `result.x` reference.
 */
function compileCompensation(
  source: string,
  open: ExprScope,
  closed: ExprScope,
  declaresResult: boolean,
  owner: string,
): {
  template?: CompiledTemplate;
  errors: ExprError[];
  code: "C060" | "C032";
} {
  const loose = compileTemplate(source, open);
  if (loose.errors.length > 0) return { errors: loose.errors, code: "C060" };
  const strict = compileTemplate(source, closed);
  const hint = declaresResult ? "" : ` (tool '${owner}' declares no 'result' fields)`;
  // the problem is the whole reference `result.x`, so the span starts at `result`
  const widened = strict.errors.map((e) => ({ ...e, start: pathStart(source, e.start), message: `${e.message}${hint}` }));
  return { ...(strict.template ? { template: strict.template } : {}), errors: widened, code: "C032" };
}

function compileCompensationArgument(
  ctx: CheckContext,
  site: ExprSite,
  open: ExprScope,
  closed: ExprScope,
  compiled: CompiledExpressions,
): void {
  const tool = ctx.contract.tools?.[site.owner.name];
  const result = compileCompensation(site.source, open, closed, Object.keys(tool?.result ?? {}).length > 0, site.owner.name);
  reportErrors(ctx, site, result.errors, result.code);
  if (result.template) compiled.set(pathKey(site.path), result.template);
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

function describeSite(site: Pick<ExprSite, "kind" | "owner">): string {
  const where = site.owner.kind === "task" ? "task.done" : `${site.owner.kind} '${site.owner.name}'`;
  switch (site.kind) {
    case "until":
      return `loop 'until' of ${where}`;
    case "key":
      return `key of ${where}`;
    case "queue-key":
      return "queue key";
    default:
      return `check in ${where}`;
  }
}

/**
 * C060 and C032 on a plan. Each expression's `source` is compiled again in
 * the scope the compiler gives its place (siteScope, over the plan's names):
 * what does not compile is refused with the compiler's message, and a
 * compiled form that is not what its source compiles to (an AST edited by
 * hand: a check made `true`) is refused as C060 too, since the runtime
 * evaluates the compiled form, not the source.
 */
export function planExpressions(view: PlanView): void {
  const contract = namesOfPlan(view.plan);
  const judge = (
    site: Pick<ExprSite, "kind" | "owner" | "mode">,
    stored: CompiledExpr | CompiledTemplate,
    path: string,
    compiledBy?: () => Compiled & { code?: "C060" | "C032" },
  ) => {
    const fresh = compiledBy ? compiledBy() : compileSite({ mode: site.mode, source: stored.source }, siteScope(contract, site));
    const code = (fresh as { code?: "C060" | "C032" }).code ?? "C060";
    const what = code === "C032" ? "compensation argument" : describeSite(site);
    for (const e of fresh.errors)
      view.report(code, path, `${what}: ${e.message} (at column ${e.start + 1} of ${JSON.stringify(stored.source)})`);
    if (fresh.errors.length === 0 && !sameJson(fresh.value, stored))
      view.report(
        "C060",
        path,
        `${what}: the compiled form in the plan is not what its source ${JSON.stringify(stored.source)} compiles to; the runtime would evaluate something else than the plan shows`,
      );
  };
  const unitOwner = (name: string) => ({ kind: "unit" as const, name });
  const checks = (uses: readonly VerifierUse[], owner: ExprSite["owner"], at: string) =>
    uses.forEach((use, j) => {
      if ("check" in use) judge({ kind: "check", owner, mode: "expression" }, use.check, `${at}/${j}/check`);
    });
  view.plan.units.forEach((unit, i) => {
    checks(unit.verify, unitOwner(unit.id), `/units/${i}/verify`);
    if (unit.loop?.until)
      judge({ kind: "until", owner: unitOwner(unit.id), mode: "expression" }, unit.loop.until, `/units/${i}/loop/until`);
  });
  checks(view.plan.task.done, { kind: "task", name: "task" }, "/task/done");
  view.plan.verifiers.forEach((v, i) => {
    if (v.check) judge({ kind: "check", owner: { kind: "verifier", name: v.name }, mode: "expression" }, v.check, `/verifiers/${i}/check`);
  });
  view.plan.tools.forEach((tool, i) => {
    const owner = { kind: "tool" as const, name: tool.name };
    if (tool.key) judge({ kind: "key", owner, mode: "template" }, tool.key, `/tools/${i}/key`);
    const compensate = tool.compensate;
    if (!compensate) return;
    const spec = contract.tools![tool.name]!;
    for (const [arg, template] of Object.entries(compensate.with)) {
      const site = { kind: "with" as const, owner, mode: "template" as const };
      judge(site, template, `/tools/${i}/compensate/with/${pointerToken(arg)}`, () => {
        const r = compileCompensation(
          template.source,
          compensationScope(contract, spec, false),
          siteScope(contract, site),
          Object.keys(spec.result ?? {}).length > 0,
          tool.name,
        );
        return { ...(r.template ? { value: r.template } : {}), errors: r.errors, code: r.code };
      });
    }
    if (compensate.compensated)
      judge({ kind: "compensated", owner, mode: "expression" }, compensate.compensated, `/tools/${i}/compensate/compensated`);
  });
}

/** Structural equality of JSON values (key order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
