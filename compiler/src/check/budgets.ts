/**
 * C041: budgets are required (hard caps that survive crashes). C040
 * (warning): the worst case exceeds a cap; the message names the units that
 * dominate it, with their loop and attempt factors.
 */
import type { WorstCase } from "../plan/schema.js";
import type { UnitCost } from "../plan/worst-case.js";
import type { CheckContext } from "./context.js";

export function checkBudgets(ctx: CheckContext, costs: Map<string, UnitCost>, worst: WorstCase): void {
  if (!ctx.contract.budgets) {
    ctx.sink.report(
      "C041",
      ctx.keySpan(["task"]),
      "the contract has no 'budgets': declare hard caps (model_calls, tool_calls, tokens, wall_clock) so a run cannot spend without limit",
    );
    return;
  }
  for (const over of worst.exceeded) {
    const shares = over.dominant.map((d) => {
      const c = costs.get(d.unit)!;
      const factors = [c.loopMax > 1 ? `loop ${c.loopMax}` : "", c.attempts > 1 ? `${c.attempts} attempts` : ""]
        .filter(Boolean)
        .join(" x ");
      return `${d.unit} ${d.amount}${factors ? ` (${factors})` : ""}`;
    });
    ctx.sink.report(
      "C040",
      ctx.valueSpan(["budgets", over.budget]),
      `worst-case ${over.budget} is ${over.worst}, over the budget of ${over.cap}; dominated by ${shares.join(", ")}: lower loop bounds or retries there, or raise the budget`,
    );
  }
}
