/**
 * Numbers the runtime must be able to honour. A duration or count that is
 * well-formed but out of range used to compile: `timeout: 25d` overflowed
 * Node's timer (past 2^31-1 ms every attempt timed out at once),
 * `timeout: 0s` meant "no timeout" (`task.timeout` is held to the same range), `loop.max: 1e308` made the worst case
 * `NaN` and a 300-digit `wall_clock` became `null` in the plan.
 * C002 (a bad value) for durations, costs, caps and retry backoff (a wait
 * of 0 or past Node's timer, a cap below the first wait, a factor that
 * shrinks the wait or reaches the cap at once); a loop or retry bound
 * so large it bounds nothing is C021, with the other bound checks (bounds.ts).
 */
import { durationMs } from "../plan/duration.js";
import { DEFAULT_BACKOFF } from "../plan/schema.js";
import type { UnitSpec } from "../schema/contract.js";
import type { CheckContext } from "./context.js";

/** Longest delay Node's timers honour (setTimeout clamps anything larger to 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;
export function checkRanges(ctx: CheckContext): void {
  const { contract } = ctx;
  if (typeof contract.task.timeout === "string") checkTimeout(ctx, contract.task.timeout, ["task", "timeout"], "task.timeout");
  for (const [id, unit] of Object.entries(contract.units)) {
    if (typeof unit.timeout === "string") checkTimeout(ctx, unit.timeout, ["units", id, "timeout"], `timeout of unit '${id}'`);
    checkCost(ctx, unit.cost, ["units", id, "cost"]);
    if (unit.retry?.backoff) checkBackoff(ctx, unit.retry.backoff, ["units", id, "retry", "backoff"], id);
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

/** Largest backoff factor: beyond it the second wait is already the cap, and the "exponential" is a cliff. */
export const MAX_BACKOFF_FACTOR = 100;

function checkBackoff(ctx: CheckContext, b: NonNullable<NonNullable<UnitSpec["retry"]>["backoff"]>, path: string[], id: string): void {
  const what = `retry.backoff of unit '${id}'`;
  const wait = (key: "initial" | "max"): number | undefined => {
    const text = b[key];
    if (typeof text !== "string") return undefined;
    const ms = durationMs(text);
    const span = ctx.valueSpan([...path, key]);
    if (ms <= 0) ctx.sink.report("C002", span, `${what}: ${key} is ${text}, no wait at all; give a positive duration such as 1s`);
    else if (ms > MAX_TIMER_MS)
      ctx.sink.report("C002", span, `${what}: ${key} is ${text}, longer than the runtime can time (at most 24d, ${MAX_TIMER_MS} ms)`);
    else return ms;
    return undefined;
  };
  const initial = wait("initial");
  const max = wait("max");
  if (max !== undefined && max < (initial ?? DEFAULT_BACKOFF.initialMs))
    ctx.sink.report(
      "C002",
      ctx.valueSpan([...path, "max"]),
      `${what}: max is ${b.max}, shorter than the first wait (${initial === undefined ? "the default 1s" : b.initial}); make max at least initial`,
    );
  if (typeof b.factor === "number" && !(b.factor >= 1 && b.factor <= MAX_BACKOFF_FACTOR))
    ctx.sink.report(
      "C002",
      ctx.valueSpan([...path, "factor"]),
      `${what}: factor is ${b.factor}; give a number from 1 (the same wait every time) to ${MAX_BACKOFF_FACTOR}`,
    );
}
