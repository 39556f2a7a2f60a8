/**
 * C021: every loop has a positive integer `max` and every retry a finite
 * non-negative integer `max`, at most MAX_REPEAT. Unbounded repetition would
 * defeat budgets and recovery, so `max: unlimited` is refused with that reason.
 */
import type { CheckContext } from "./context.js";
import { insertFirstKey } from "./fixes.js";
import { mapOf, pairOf } from "../parse/yaml-nodes.js";

/** Largest loop or retry bound: beyond this no budget is meaningfully bounded by it. */
export const MAX_REPEAT = 1_000_000;

const REASON = {
  loop: "an unbounded loop can spend the whole budget and never finish",
  retry: "unbounded retries repeat side effects and spend the budget without end",
} as const;

export function checkBounds(ctx: CheckContext): void {
  for (const id of ctx.graph.units) {
    const unit = ctx.contract.units[id]!;
    if (!unit.loop && !unit.retry) continue;
    for (const field of ["loop", "retry"] as const) {
      const block = unit[field];
      if (!block) continue;
      const minimum = field === "loop" ? 1 : 0;
      const wanted = field === "loop" ? "a positive integer" : "a whole number of extra attempts (0 or more)";
      if (!("max" in block) || block.max === null || block.max === undefined) {
        const blockMap = mapOf(pairOf(ctx.parsed.model.units.get(id)?.map, field)?.value, ctx.parsed.aliases);
        const edit = blockMap ? insertFirstKey(ctx.sink.lines, blockMap, ["max", "3"]) : undefined;
        ctx.sink.report(
          "C021",
          ctx.keySpan(["units", id, field]),
          `${field} of unit '${id}' has no 'max': ${REASON[field]}; add 'max' with ${wanted}`,
          edit ? { fixes: [{ title: `Add 'max: 3' to the ${field}`, edits: [edit], safe: false }] } : {},
        );
        continue;
      }
      const max = block.max;
      const span = ctx.valueSpan(["units", id, field, "max"]);
      if (typeof max !== "number" || !Number.isInteger(max) || max < minimum) {
        const fixes = [{ title: `Bound the ${field} at 3`, edits: [{ span, newText: "3" }], safe: false }];
        const message =
          typeof max === "string" && /^(unlimited|infinite|inf|forever|none|never)$/i.test(max)
            ? `${field} max of unit '${id}' is '${max}', which is not allowed: ${REASON[field]}; use ${wanted}`
            : `${field} max of unit '${id}' must be ${wanted}, not ${JSON.stringify(max)}`;
        ctx.sink.report("C021", span, message, { fixes });
      }
      // A non-finite bound was reported just above; a finite one too large to bound anything, whole or not, is reported here.
      if (typeof max === "number" && Number.isFinite(max) && max > MAX_REPEAT)
        ctx.sink.report(
          "C021",
          span,
          `${field} max of unit '${id}' is ${max}, more than ${MAX_REPEAT}: a bound that large bounds nothing; use a real bound`,
        );
    }
  }
}
