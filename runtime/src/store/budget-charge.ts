/**
 * The arithmetic of charging a run's budget, independent of the backend: both
 * stores read the used amounts and caps in their transaction, call this, and
 * write `used` back only when the charge is allowed.
 */
import { BUDGET_NAMES, type BudgetAmounts } from "../model/facts.js";
import type { ChargeOutcome } from "./types.js";
import { drawOnBooking, type Draw } from "./booking.js";

/**
 * `check` refuses a charge that would take any budget past its cap (nothing
 * is spent); `record` books what was already spent, cap or not.
 */
export function chargeOutcome(used: BudgetAmounts, caps: BudgetAmounts, delta: BudgetAmounts, mode: "check" | "record"): ChargeOutcome {
  for (const name of mode === "check" ? BUDGET_NAMES : []) {
    const add = delta[name] ?? 0;
    const cap = caps[name];
    if (add > 0 && cap !== undefined && (used[name] ?? 0) + add > cap) {
      return { ok: false, budget: name, used: used[name] ?? 0, cap, requested: add };
    }
  }
  return { ok: true, used: withSpend(used, delta) };
}

/** `used` with `delta` added: what a booking writes back. */
export function withSpend(used: BudgetAmounts, delta: BudgetAmounts): BudgetAmounts {
  const after = { ...used };
  for (const name of BUDGET_NAMES) if (delta[name]) after[name] = (after[name] ?? 0) + delta[name]!;
  return after;
}

/**
 * A charge an attempt makes on its own spend, with `booking` the undrawn rest
 * of what its claim booked (store/booking.ts): the booking is drawn on first
 * and only the rest is checked against the caps and added. A refusal draws
 * nothing.
 */
export function bookedChargeOutcome(
  used: BudgetAmounts,
  caps: BudgetAmounts,
  delta: BudgetAmounts,
  mode: "check" | "record",
  booking: BudgetAmounts | undefined,
): { outcome: ChargeOutcome; draw: Draw } {
  const draw = drawOnBooking(booking, delta);
  return { outcome: chargeOutcome(used, caps, draw.rest, mode), draw };
}
