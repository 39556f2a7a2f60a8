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
import { DEFAULT_BACKOFF, MAX_TIMER_MS } from "../plan/schema.js";
import type { UnitSpec } from "../schema/contract.js";
import type { CheckContext } from "./context.js";
import type { PlanView } from "./plan-view.js";

export function checkRanges(ctx: CheckContext): void {
  const { contract } = ctx;
  if (typeof contract.task.timeout === "string") checkTimeout(ctx, contract.task.timeout, ["task", "timeout"], "task.timeout");
  for (const [id, unit] of Object.entries(contract.units)) {
    if (typeof unit.timeout === "string") checkTimeout(ctx, unit.timeout, ["units", id, "timeout"], `timeout of unit '${id}'`);
    checkCost(ctx, unit.cost, ["units", id, "cost"]);
    if (unit.retry?.backoff) checkBackoff(ctx, unit.retry.backoff, ["units", id, "retry", "backoff"], id);
  }
  for (const [name, tool] of Object.entries(contract.tools ?? {})) checkCost(ctx, tool.cost, ["tools", name, "cost"]);
  for (const [name, server] of Object.entries(contract.servers ?? {}))
    if (typeof server.timeout === "string") checkTimeout(ctx, server.timeout, ["servers", name, "timeout"], `timeout of server '${name}'`);
  const budgets = contract.budgets ?? {};
  for (const [name, value] of Object.entries(budgets)) {
    const path = ["budgets", name];
    const problem =
      name === "wall_clock" && typeof value === "string"
        ? wallClockProblem(durationMs(value), value)
        : countProblem(value, `budgets.${name}`, "cap");
    if (problem) ctx.sink.report("C002", ctx.valueSpan(path), problem);
  }
}

/**
 * The rules, on values as a plan holds them (milliseconds, numbers); `shown`
 * is the value as its reader wrote it (`25d` in a contract, `2160000000 ms`
 * in a plan), `what` names its place.
 */
export function timeoutProblem(ms: number, shown: string, what: string, fallback: string): string | undefined {
  if (ms <= 0)
    return `${what} is ${shown}, which would mean no timeout; give a positive duration, or remove it for the default (${fallback})`;
  if (ms > MAX_TIMER_MS)
    return `${what} is ${shown}, longer than the runtime can time (at most 24d, ${MAX_TIMER_MS} ms); use a shorter timeout or the budget's wall_clock`;
  return undefined;
}

export function wallClockProblem(ms: number, shown: string): string | undefined {
  if (ms <= 0) return `budgets.wall_clock is ${shown}: a run with no time could do nothing; give a positive duration`;
  if (!Number.isSafeInteger(ms))
    return `budgets.wall_clock is too large to count in milliseconds; use at most ${Math.floor(Number.MAX_SAFE_INTEGER / 86_400_000)}d`;
  return undefined;
}

/** A cost or a cap must be counted exactly. */
export function countProblem(value: unknown, what: string, noun: "cost" | "cap"): string | undefined {
  if (typeof value !== "number" || Number.isSafeInteger(value)) return undefined;
  return noun === "cap"
    ? `${what} is ${value}, more than can be counted exactly (${Number.MAX_SAFE_INTEGER}); use a smaller cap`
    : `${what} is ${value}, more than can be counted exactly (${Number.MAX_SAFE_INTEGER}); use a smaller cost`;
}

export function waitProblem(ms: number, shown: string, what: string, key: string): string | undefined {
  if (ms <= 0) return `${what}: ${key} is ${shown}, no wait at all; give a positive duration such as 1s`;
  if (ms > MAX_TIMER_MS) return `${what}: ${key} is ${shown}, longer than the runtime can time (at most 24d, ${MAX_TIMER_MS} ms)`;
  return undefined;
}

export function backoffOrderProblem(
  maxMs: number,
  initialMs: number,
  shownMax: string,
  shownInitial: string,
  what: string,
): string | undefined {
  return maxMs < initialMs
    ? `${what}: max is ${shownMax}, shorter than the first wait (${shownInitial}); make max at least initial`
    : undefined;
}

export function factorProblem(factor: number, what: string): string | undefined {
  return factor >= 1 && factor <= MAX_BACKOFF_FACTOR
    ? undefined
    : `${what}: factor is ${factor}; give a number from 1 (the same wait every time) to ${MAX_BACKOFF_FACTOR}`;
}

function checkTimeout(ctx: CheckContext, text: string, path: string[], what: string): void {
  const fallback = path[0] === "task" ? "30m" : path[0] === "servers" ? "60s" : "task.timeout, else 30m";
  const problem = timeoutProblem(durationMs(text), text, what, fallback);
  if (problem) ctx.sink.report("C002", ctx.valueSpan(path), problem);
}

function checkCost(ctx: CheckContext, cost: Record<string, unknown> | undefined, path: string[]): void {
  for (const [name, value] of Object.entries(cost ?? {})) {
    const problem = countProblem(value, `${path.join(".")}.${name}`, "cost");
    if (problem) ctx.sink.report("C002", ctx.valueSpan([...path, name]), problem);
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
    const problem = waitProblem(ms, text, what, key);
    if (problem) ctx.sink.report("C002", ctx.valueSpan([...path, key]), problem);
    return problem ? undefined : ms;
  };
  const initial = wait("initial");
  const max = wait("max");
  const order =
    max !== undefined &&
    backoffOrderProblem(max, initial ?? DEFAULT_BACKOFF.initialMs, b.max!, initial === undefined ? "the default 1s" : b.initial!, what);
  if (order) ctx.sink.report("C002", ctx.valueSpan([...path, "max"]), order);
  const factor = typeof b.factor === "number" ? factorProblem(b.factor, what) : undefined;
  if (factor) ctx.sink.report("C002", ctx.valueSpan([...path, "factor"]), factor);
}

/** The same ranges on a plan (C002): its times are milliseconds already. */
export function planRanges(view: PlanView): void {
  const ms = (n: number) => `${n} ms`;
  view.plan.units.forEach((unit, i) => {
    const t = timeoutProblem(unit.timeoutMs, ms(unit.timeoutMs), `timeoutMs of unit '${unit.id}'`, "the runtime's 30m");
    if (t) view.report("C002", `/units/${i}/timeoutMs`, t);
    planCost(view, unit.cost, `/units/${i}/cost`, `cost of unit '${unit.id}'`);
    const b = unit.retry.backoff;
    if (!b) return;
    const what = `retry.backoff of unit '${unit.id}'`;
    const at = `/units/${i}/retry/backoff`;
    const initial = waitProblem(b.initialMs, ms(b.initialMs), what, "initialMs");
    const max = waitProblem(b.maxMs, ms(b.maxMs), what, "maxMs");
    if (initial) view.report("C002", `${at}/initialMs`, initial);
    if (max) view.report("C002", `${at}/maxMs`, max);
    const order = !initial && !max && backoffOrderProblem(b.maxMs, b.initialMs, ms(b.maxMs), ms(b.initialMs), what);
    if (order) view.report("C002", `${at}/maxMs`, order);
    const factor = factorProblem(b.factor, what);
    if (factor) view.report("C002", `${at}/factor`, factor);
  });
  view.plan.tools.forEach((tool, i) => planCost(view, tool.cost, `/tools/${i}/cost`, `cost of tool '${tool.name}'`));
  for (const [name, value] of Object.entries(view.plan.budgets)) {
    const problem =
      name === "wall_clock_ms"
        ? wallClockProblem(value, ms(value))
        : name === "retries"
          ? undefined
          : countProblem(value, `budgets.${name}`, "cap");
    if (problem) view.report("C002", `/budgets/${name}`, problem);
  }
}

function planCost(view: PlanView, cost: Record<string, number>, at: string, what: string): void {
  for (const [name, value] of Object.entries(cost)) {
    const problem = countProblem(value, `${what}: ${name}`, "cost");
    if (problem) view.report("C002", `${at}/${name}`, problem);
  }
}
