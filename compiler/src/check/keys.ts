/**
 * A tool's `key` names one effect: a retry of the same intent must render
 * the same key, or recovery cannot find what the first attempt did and the
 * remote cannot deduplicate it (the runtime refuses a known key with another
 * request, docs/runtime.md "The ledger").
 * - C035 (warning): the key reads `attempt.*`, which changes on every retry,
 *   so a retried call is a new effect: a second post, a second booking.
 * - C036 (warning): the key reads the call's own `args`: it echoes the
 *   request instead of naming the intent, so a retry whose request differs a
 *   little (a regenerated text) is a new effect too.
 * C035 is given for tools whose repetition is a duplicate in the world
 * (`dedup`, `compensable`, `irreversible`); C036 for `compensable` tools
 * (a `dedup` or `irreversible` tool's key that reads `args` is the error
 * C039 unless the unit declares a bound, key-bounds.ts). An `idempotent` tool ends in the
 * same state however often it runs, so a key per attempt (a working copy in
 * the attempt's directory) or per argument (a file name) duplicates nothing;
 * a `read` makes no effect.
 */
import type { CompiledTemplate } from "../plan/schema.js";
import { pathsIn, type ExprPath } from "../expr/index.js";
import { scalarOffsetMapper } from "../source/scalar-offsets.js";
import type { CheckContext } from "./context.js";
import { pathKey, type CompiledExpressions } from "./expressions.js";
import { BOUNDED_KEY_CLASSES } from "./key-bounds.js";

const DUPLICATING = new Set(["dedup", "compensable", "irreversible"]);

export function checkKeys(ctx: CheckContext, compiled: CompiledExpressions): void {
  for (const site of ctx.parsed.model.expressions) {
    if (site.kind !== "key") continue;
    const tool = ctx.contract.tools?.[site.owner.name];
    if (!tool || !DUPLICATING.has(tool.class)) continue;
    const template = compiled.get(pathKey(site.path)) as CompiledTemplate | undefined;
    if (!template) continue;
    const paths: ExprPath[] = template.parts.flatMap((p) => ("expr" in p ? pathsIn(p.expr) : []));
    const map = scalarOffsetMapper(ctx.text, site.scalar);
    const span = (p: ExprPath) => ({ start: map(p.span.start), end: Math.max(map(p.span.end), map(p.span.start) + 1) });
    const name = site.owner.name;
    const perAttempt = paths.find((p) => p.root === "attempt");
    if (perAttempt)
      ctx.sink.report(
        "C035",
        span(perAttempt),
        `key of ${tool.class} tool '${name}' reads ${text(ctx, span(perAttempt))}, which changes on every attempt: a retry renders a new key, so recovery cannot find the first attempt's effect and the call is made again; build the key from what names the intent (task, run, unit, inputs)`,
      );
    const fromArgs = BOUNDED_KEY_CLASSES.has(tool.class) ? undefined : paths.find((p) => p.root === "args");
    if (fromArgs)
      ctx.sink.report(
        "C036",
        span(fromArgs),
        `key of ${tool.class} tool '${name}' reads the call's own ${text(ctx, span(fromArgs))}: a key must name the intent, not echo the request; a retry whose request differs renders a new key and makes a second effect; build the key from what names the intent (task, run, unit, inputs)`,
      );
  }
}

function text(ctx: CheckContext, span: { start: number; end: number }): string {
  return `'${ctx.text.slice(span.start, span.end)}'`;
}
