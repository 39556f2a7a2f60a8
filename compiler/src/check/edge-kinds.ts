/**
 * C070: edge kinds in `needs` and the `on` kind of impact rules must be one of
 * content, structure, policy, audience (did-you-mean fix otherwise).
 */
import { EDGE_KINDS } from "../plan/schema.js";
import type { Span } from "../diagnostics/types.js";
import { closest, didYouMean } from "../source/suggest.js";
import type { CheckContext } from "./context.js";
import type { PlanView } from "./plan-view.js";

const KNOWN = new Set<string>(EDGE_KINDS);

export function noKindMessage(need: string, unit: string): string {
  return `need '${need}' of unit '${unit}' has no edge kind: use one or more of ${EDGE_KINDS.join(", ")}`;
}

/** C070 on a plan: a need without a kind (an unknown kind breaks the plan schema, which reports it as C070 too). */
export function planEdgeKinds(view: PlanView): void {
  view.plan.units.forEach((unit, i) =>
    unit.needs.forEach((need, j) => {
      if (need.kinds.length === 0) view.report("C070", `/units/${i}/needs/${j}/kinds`, noKindMessage(need.node, unit.id));
    }),
  );
}

export function checkEdgeKinds(ctx: CheckContext): void {
  for (const unit of ctx.parsed.model.units.values()) {
    for (const need of unit.needs) {
      if (need.kinds.length === 0) {
        ctx.sink.report("C070", need.valueSpan, noKindMessage(need.name, unit.name));
      }
      for (const { kind, span } of need.kinds) {
        if (!KNOWN.has(kind)) report(ctx, span, kind, `in need '${need.name}' of unit '${unit.name}'`);
      }
    }
  }
  (ctx.contract.impact ?? []).forEach((rule, index) => {
    if (!KNOWN.has(rule.on)) report(ctx, ctx.valueSpan(["impact", index, "on"]), rule.on, `in impact rule ${index + 1}`);
  });
}

function report(ctx: CheckContext, span: Span, kind: string, where: string): void {
  const suggestion = closest(kind, EDGE_KINDS);
  ctx.sink.report(
    "C070",
    span,
    `unknown edge kind '${kind}' ${where}: use ${EDGE_KINDS.join(", ")}${didYouMean(suggestion)}`,
    suggestion ? { fixes: [{ title: `Change to '${suggestion}'`, edits: [{ span, newText: suggestion }], safe: false }] } : {},
  );
}
