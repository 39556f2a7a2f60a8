/**
 * C021: every loop has a positive integer `max` and every retry a finite
 * non-negative integer `max`, at most MAX_REPEAT. Unbounded repetition would
 * defeat budgets and recovery, so `max: unlimited` is refused with that reason.
 * `budgets.retries`, the retry bound of every unit without its own, is held
 * to MAX_REPEAT too.
 */
import type { CheckContext } from "./context.js";
import { insertFirstKey } from "./fixes.js";
import { mapOf, pairOf } from "../parse/yaml-nodes.js";
import type { PlanView } from "./plan-view.js";

/** Largest loop or retry bound: beyond this no budget is meaningfully bounded by it. */
export const MAX_REPEAT = 1_000_000;

const REASON = {
  loop: "an unbounded loop can spend the whole budget and never finish",
  retry: "unbounded retries repeat side effects and spend the budget without end",
} as const;

export type BoundField = "loop" | "retry";

/** What is wrong with a loop or retry bound (C021): missing, not a whole number in range, or too large to bound anything. */
export interface BoundProblem {
  kind: "missing" | "invalid" | "too-large";
  message: string;
}

/** The rule for one bound, on its plain value (a contract's `max` as written, or a plan's). */
export function boundProblems(field: BoundField, id: string, max: unknown): BoundProblem[] {
  const minimum = field === "loop" ? 1 : 0;
  const wanted = field === "loop" ? "a positive integer" : "a whole number of extra attempts (0 or more)";
  if (max === null || max === undefined)
    return [{ kind: "missing", message: `${field} of unit '${id}' has no 'max': ${REASON[field]}; add 'max' with ${wanted}` }];
  const out: BoundProblem[] = [];
  if (typeof max !== "number" || !Number.isInteger(max) || max < minimum)
    out.push({
      kind: "invalid",
      message:
        typeof max === "string" && /^(unlimited|infinite|inf|forever|none|never)$/i.test(max)
          ? `${field} max of unit '${id}' is '${max}', which is not allowed: ${REASON[field]}; use ${wanted}`
          : `${field} max of unit '${id}' must be ${wanted}, not ${JSON.stringify(max)}`,
    });
  // A non-finite bound was reported just above; a finite one too large to bound anything, whole or not, is reported here.
  if (typeof max === "number" && Number.isFinite(max) && max > MAX_REPEAT)
    out.push({
      kind: "too-large",
      message: `${field} max of unit '${id}' is ${max}, more than ${MAX_REPEAT}: a bound that large bounds nothing; use a real bound`,
    });
  return out;
}

/** `budgets.retries`, every unit's retry bound unless it has its own: too large bounds nothing either. */
export function defaultRetriesProblem(retries: unknown): string | undefined {
  return typeof retries === "number" && retries > MAX_REPEAT
    ? `budgets.retries is ${retries}, more than ${MAX_REPEAT}: a bound that large bounds nothing; use a real bound`
    : undefined;
}

export function checkBounds(ctx: CheckContext): void {
  for (const id of ctx.graph.units) {
    const unit = ctx.contract.units[id]!;
    if (!unit.loop && !unit.retry) continue;
    for (const field of ["loop", "retry"] as const) {
      const block = unit[field];
      if (!block) continue;
      for (const problem of boundProblems(field, id, "max" in block ? block.max : undefined)) {
        if (problem.kind === "missing") {
          const blockMap = mapOf(pairOf(ctx.parsed.model.units.get(id)?.map, field)?.value, ctx.parsed.aliases);
          const edit = blockMap ? insertFirstKey(ctx.sink.lines, blockMap, ["max", "3"]) : undefined;
          ctx.sink.report(
            "C021",
            ctx.keySpan(["units", id, field]),
            problem.message,
            edit ? { fixes: [{ title: `Add 'max: 3' to the ${field}`, edits: [edit], safe: false }] } : {},
          );
          continue;
        }
        const span = ctx.valueSpan(["units", id, field, "max"]);
        const fixes = [{ title: `Bound the ${field} at 3`, edits: [{ span, newText: "3" }], safe: false }];
        ctx.sink.report("C021", span, problem.message, problem.kind === "invalid" ? { fixes } : {});
      }
    }
  }
  const retries = defaultRetriesProblem(ctx.contract.budgets?.retries);
  if (retries) ctx.sink.report("C021", ctx.valueSpan(["budgets", "retries"]), retries);
}

/** C021 on a plan: every loop and retry bound (the plan schema holds them to whole numbers already). */
export function planBounds(view: PlanView): void {
  view.plan.units.forEach((unit, i) => {
    if (unit.loop) for (const p of boundProblems("loop", unit.id, unit.loop.max)) view.report("C021", `/units/${i}/loop/max`, p.message);
    for (const p of boundProblems("retry", unit.id, unit.retry.max)) view.report("C021", `/units/${i}/retry/max`, p.message);
  });
  const retries = defaultRetriesProblem(view.plan.budgets.retries);
  if (retries) view.report("C021", "/budgets/retries", retries);
}
