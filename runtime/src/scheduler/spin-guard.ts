/**
 * No unit is claimed again and again without progress. Before each claim the
 * worker takes the unit's progress mark: its committed row (state, failures,
 * the checkpoint that last changed it), its open effects (id, state, what a
 * held request waits for) and the approvals granted for it (id, revoked). A
 * claim whose mark is the same as at the unit's previous claims made no
 * progress since; after `limit` such claims in a row the unit is not claimed
 * again by this worker and the run blocks on it with the reason, instead of
 * spinning. An attempt that ended through no doing of its own (the store or
 * its lease lost, the plan changed under it) starts the count afresh. Pure:
 * the worker keeps the state and asks.
 */
import type { Approval, EffectRecord, UnitStateRow } from "../model/facts.js";
import { canonicalJson, sha256 } from "../model/identity.js";

/** Claims in a row with no progress after which a unit is stopped. */
export const SPIN_LIMIT = 5;

export interface SpinEntry {
  mark: string;
  /** Consecutive claims with this mark. */
  claims: number;
}

export type SpinState = Readonly<Record<string, SpinEntry>>;

/** What a claim of the unit could change, as a digest: equal marks, no progress. */
export function progressMark(
  unit: string,
  facts: { units: readonly UnitStateRow[]; openEffects: readonly EffectRecord[]; approvals: readonly Approval[] },
): string {
  const row = facts.units.find((u) => u.unit === unit);
  return sha256(
    canonicalJson({
      row: row ? { state: row.state, failures: row.failures, version: row.version } : null,
      effects: facts.openEffects
        .filter((e) => e.unit === unit)
        .map((e) => ({ id: e.id, state: e.state, changed: e.held?.changed ?? null, compensation: e.compensationState ?? null })),
      approvals: facts.approvals.filter((a) => a.unit === unit).map((a) => ({ id: a.id, revoked: a.revokedAt ?? null })),
    }),
  );
}

export type SpinVerdict = { kind: "claim"; state: SpinState } | { kind: "stop"; state: SpinState; detail: string };

/** May the unit be claimed with this mark? Counts the claim when it may. */
export function noteClaim(state: SpinState, unit: string, mark: string, limit = SPIN_LIMIT): SpinVerdict {
  const prev = state[unit];
  const claims = prev && prev.mark === mark ? prev.claims + 1 : 1;
  if (claims > limit)
    return {
      kind: "stop",
      state,
      detail:
        `unit ${unit} was claimed ${limit} times in a row without progress (no commit, no new or changed effect, no new approval); ` +
        "not claimed again by this worker: see its last attempt's events (`taskspec status`), fix what stops it, then `taskspec resume`",
    };
  return { kind: "claim", state: { ...state, [unit]: { mark, claims } } };
}

/** Does this end of an attempt start the unit's count afresh (it was not the unit's doing)? */
export function restartsCount(outcome: string): boolean {
  return outcome === "store-lost" || outcome === "lease-lost" || outcome === "plan-changed";
}

/** The state with the unit's count started afresh. */
export function forget(state: SpinState, unit: string): SpinState {
  if (!(unit in state)) return state;
  return Object.fromEntries(Object.entries(state).filter(([u]) => u !== unit));
}
