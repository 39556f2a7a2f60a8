/**
 * A unit's declared cost against what is left of a run's budgets, the one
 * rule both the scheduler (is the unit ready?) and the store's claim (book it
 * now, or refuse) apply, so the two never disagree about a unit.
 */
import { BUDGET_NAMES, type BudgetAmounts } from "./facts.js";

/** What a claim books for an attempt: the declared per-attempt cost's positive amounts (wall-clock time is booked as it passes). */
export function reservationOf(cost: Partial<Record<"model_calls" | "tool_calls" | "tokens", number>> | undefined): BudgetAmounts {
  const out: BudgetAmounts = {};
  for (const name of ["model_calls", "tool_calls", "tokens"] as const) {
    const n = cost?.[name] ?? 0;
    if (n > 0) out[name] = n;
  }
  return out;
}

/**
 * The first capped budget a reservation does not fit in, or undefined. A run
 * whose wall-clock time has reached its cap claims nothing more (`need` 1).
 */
export function budgetShortfall(
  cost: BudgetAmounts,
  used: BudgetAmounts,
  caps: BudgetAmounts,
): { budget: string; need: number; left: number } | undefined {
  for (const name of BUDGET_NAMES) {
    if (name === "wall_clock_ms") continue;
    const need = cost[name] ?? 0;
    const cap = caps[name];
    if (need > 0 && cap !== undefined && (used[name] ?? 0) + need > cap) return { budget: name, need, left: cap - (used[name] ?? 0) };
  }
  const wallCap = caps.wall_clock_ms;
  if (wallCap !== undefined && (used.wall_clock_ms ?? 0) >= wallCap) return { budget: "wall_clock_ms", need: 1, left: 0 };
  return undefined;
}
