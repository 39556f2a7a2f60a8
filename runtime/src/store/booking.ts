/**
 * An attempt's booking (the declared cost its claim added to the run's used
 * budgets), from the claim to the end of its lease, as pure rules both stores
 * apply in their transactions. The lease row holds what the booking has not
 * yet drawn: a charge the attempt makes draws on it first (the model call a
 * `ctx.model` books before its request leaves, the tokens booked when it
 * answers, a handler's `ctx.charge`), and whatever ends the lease (a commit,
 * an attempt's own end, a broken lease, a claim taking over an expired one, a
 * release) settles it: what was not drawn is taken off the used budgets again,
 * so they count what the attempt was seen to start, not what it declared.
 */
import { BUDGET_NAMES, type BudgetAmounts, type RunEvent } from "../model/facts.js";

type EventIn = Omit<RunEvent, "run" | "seq">;

/** Only the positive amounts. */
function positive(a: BudgetAmounts): BudgetAmounts {
  const out: BudgetAmounts = {};
  for (const name of BUDGET_NAMES) if ((a[name] ?? 0) > 0) out[name] = a[name]!;
  return out;
}

export interface Draw {
  /** What the charge takes from the booking. */
  drawn: BudgetAmounts;
  /** What it charges beyond the booking (checked against the caps, added to the used budgets). */
  rest: BudgetAmounts;
  /** The booking left undrawn afterwards. */
  left: BudgetAmounts;
}

/** A charge against an attempt's undrawn booking: the booking first, the rest beyond it. */
export function drawOnBooking(booking: BudgetAmounts | undefined, delta: BudgetAmounts): Draw {
  const drawn: BudgetAmounts = {};
  const rest: BudgetAmounts = {};
  const left: BudgetAmounts = { ...positive(booking ?? {}) };
  for (const name of BUDGET_NAMES) {
    const n = delta[name] ?? 0;
    if (!(n > 0)) continue;
    const d = Math.min(n, left[name] ?? 0);
    if (d > 0) {
      drawn[name] = d;
      left[name] = left[name]! - d;
      if (left[name] === 0) delete left[name];
    }
    if (n - d > 0) rest[name] = n - d;
  }
  return { drawn, rest, left };
}

/** Why a lease ended, as the `budget-settled` event says it. */
export type LeaseEnd = "committed" | "attempt-ended" | "lease-broken" | "taken-over" | "released";

/** What a lease's end reads: the run's used budgets and version, the lease (its token, attempt and undrawn booking). */
export interface SettleState {
  run: { budgetUsed: BudgetAmounts; version: number };
  lease: { unit: string; attempt: number; token: number; reserved?: BudgetAmounts };
}

/** The writes of a settlement: the run's used budgets afterwards, and the event that says what was released. */
export interface Settlement {
  used: BudgetAmounts;
  released: BudgetAmounts;
  event: EventIn;
}

/**
 * The booking of a lease that ends, settled: its undrawn rest is taken off
 * the used budgets (never below zero: a used amount is lowered at most to 0).
 * Nothing to release (no booking, all of it drawn): undefined, no write and
 * no event. The backend deletes the lease in the same transaction, so a
 * second settlement of the same lease finds no lease and changes nothing.
 * `data.version` is the run's version the release came after: the checkpoint
 * audit (operator/fact-audit.ts) allows the used budgets below the last
 * checkpoint's figure by what was released since it.
 */
export function settleBooking(state: SettleState, end: { at: string; why: LeaseEnd }): Settlement | undefined {
  const undrawn = positive(state.lease.reserved ?? {});
  const used: BudgetAmounts = { ...state.run.budgetUsed };
  const released: BudgetAmounts = {};
  for (const name of BUDGET_NAMES) {
    const r = Math.min(undrawn[name] ?? 0, Math.max(0, used[name] ?? 0));
    if (r > 0) {
      released[name] = r;
      used[name] = used[name]! - r;
    }
  }
  if (Object.keys(released).length === 0) return undefined;
  return {
    used,
    released,
    event: {
      at: end.at,
      type: "budget-settled",
      unit: state.lease.unit,
      attempt: state.lease.attempt,
      data: { released, token: state.lease.token, why: end.why, version: state.run.version },
    },
  };
}

/** What the `budget-settled` events of a run released after checkpoint `version` (the audit's allowance). */
export function releasedSince(events: readonly Pick<RunEvent, "data">[], version: number): BudgetAmounts {
  const out: BudgetAmounts = {};
  for (const e of events) {
    const v = e.data?.version;
    if (typeof v !== "number" || v < version) continue;
    const released = (e.data?.released ?? {}) as BudgetAmounts;
    for (const name of BUDGET_NAMES) {
      const n = released[name];
      if (typeof n === "number" && n > 0) out[name] = (out[name] ?? 0) + n;
    }
  }
  return out;
}
