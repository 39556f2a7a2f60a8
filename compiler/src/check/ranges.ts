/**
 * Numbers the runtime must be able to honour. A duration or count that is
 * well-formed but out of range used to compile: `timeout: 25d` overflowed
 * Node's timer (past 2^31-1 ms every attempt timed out at once),
 * `timeout: 0s` meant "no timeout" (`task.timeout` is held to the same range), `loop.max: 1e308` made the worst case
 * `NaN` and a 300-digit `wall_clock` became `null` in the plan.
 * C002 (a bad value) for durations, costs and caps; a loop or retry bound
 * so large it bounds nothing is C021, with the other bound checks (bounds.ts).
 */
import { durationMs } from "../plan/duration.js";
import type { CheckContext } from "./context.js";

/** Longest delay Node's timers honour (setTimeout clamps anything larger to 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
export function checkRanges(ctx: CheckContext): void {
  const { contract } = ctx;
  if (typeof contract.task.timeout === "string") checkTimeout(ctx, contract.task.timeout, ["task", "timeout"], "task.timeout");
  for (const [id, unit] of Object.entries(contract.units)) {
    if (typeof unit.timeout === "string") checkTimeout(ctx, unit.timeout, ["units", id, "timeout"], `timeout of unit '${id}'`);
    checkCost(ctx, unit.cost, ["units", id, "cost"]);
  }
  for (const [name, tool] of Object.entries(contract.tools ?? {})) checkCost(ctx, tool.cost, ["tools", name, "cost"]);
  const budgets = contract.budgets ?? {};
  for (const [name, value] of Object.entries(budgets)) {
    const path = ["budgets", name];
    if (name === "wall_clock" && typeof value === "string") {
      const ms = durationMs(value);
      if (ms <= 0)
        ctx.sink.report(
          "C002",
          ctx.valueSpan(path),
          `budgets.wall_clock is ${value}: a run with no time could do nothing; give a positive duration`,
        );
      else if (!Number.isSafeInteger(ms))
        ctx.sink.report(
          "C002",
          ctx.valueSpan(path),
          `budgets.wall_clock is too large to count in milliseconds; use at most ${Math.floor(Number.MAX_SAFE_INTEGER / 86_400_000)}d`,
        );
    } else if (typeof value === "number" && !Number.isSafeInteger(value)) {
      ctx.sink.report(
        "C002",
        ctx.valueSpan(path),
        `budgets.${name} is ${value}, more than can be counted exactly (${Number.MAX_SAFE_INTEGER}); use a smaller cap`,
      );
    }
  }
}

function checkTimeout(ctx: CheckContext, text: string, path: string[], what: string): void {
  const ms = durationMs(text);
  const span = ctx.valueSpan(path);
  if (ms <= 0)
    ctx.sink.report(
      "C002",
      span,
      `${what} is ${text}, which would mean no timeout; give a positive duration, or remove it for the default (${path[0] === "task" ? "30m" : "task.timeout, else 30m"})`,
    );
  else if (ms > MAX_TIMER_MS)
    ctx.sink.report(
      "C002",
      span,
      `${what} is ${text}, longer than the runtime can time (at most 24d, ${MAX_TIMER_MS} ms); use a shorter timeout or the budget's wall_clock`,
    );
}

function checkCost(ctx: CheckContext, cost: Record<string, unknown> | undefined, path: string[]): void {
  for (const [name, value] of Object.entries(cost ?? {})) {
    if (typeof value === "number" && !Number.isSafeInteger(value)) {
      ctx.sink.report(
        "C002",
        ctx.valueSpan([...path, name]),
        `${path.join(".")}.${name} is ${value}, more than can be counted exactly (${Number.MAX_SAFE_INTEGER}); use a smaller cost`,
      );
    }
  }
}
