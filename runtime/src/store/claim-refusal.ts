/**
 * The errors by which a store refuses a claim: another worker or a decision
 * got there first (the run moved on, its plan changed, the unit is leased or
 * no longer claimable, its declared cost does not fit). A worker meeting one
 * decides again; any other error is a failure of the store.
 */
import { BudgetBlockedError, InvalidTransitionError, LeaseHeldError, PlanVersionChangedError, VersionConflictError } from "../errors.js";

export function isClaimRefusal(err: unknown): err is Error {
  return (
    err instanceof VersionConflictError ||
    err instanceof PlanVersionChangedError ||
    err instanceof LeaseHeldError ||
    err instanceof InvalidTransitionError ||
    err instanceof BudgetBlockedError
  );
}
