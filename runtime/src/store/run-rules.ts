/**
 * The run rules of the stores, pure: creating a run (its start checkpoint),
 * the operator's caps, holds, status and origin, and a charge on the run's
 * budgets. Each reads the run row (absent: the run is unknown, refused) and
 * answers with writes. Table-tested in runtime/test/store-rules.test.ts.
 */
import { InvalidTransitionError, NotFoundError } from "../errors.js";
import type { BudgetAmounts, Hold, RunRow, RunStatus } from "../model/facts.js";
import { bookedChargeOutcome } from "./budget-charge.js";
import type { ChargeOutcome, CreateRunSpec } from "./types.js";
import { events, type Decided, type EventIn, type RunPatch, type StoreWrite } from "./writes.js";

/** A new run: its plan, its row, its units pending, the start checkpoint (version 0) and `run-created`; refused if it exists. */
export function decideCreateRun(spec: CreateRunSpec): Decided {
  return {
    kind: "writes",
    writes: [
      { op: "insert-plan", planVersion: spec.planVersion, plan: spec.plan },
      {
        op: "insert-run",
        taskId: spec.taskId,
        planVersion: spec.planVersion,
        inputVersion: spec.inputVersion,
        caps: spec.caps,
        origin: spec.origin,
        now: spec.now,
        exists: new InvalidTransitionError(`run ${spec.run} already exists`),
      },
      { op: "insert-units", units: spec.units },
      {
        op: "insert-checkpoint",
        version: 0,
        header: {
          kind: "start",
          planVersion: spec.planVersion,
          inputVersion: spec.inputVersion,
          budgetUsed: {},
          approvals: [],
          nextAction: { kind: "run", units: [] },
          delta: spec.units.map((unit) => ({ unit, state: "pending" as const })),
          createdAt: spec.now,
          committedAt: spec.now,
        },
      },
      events({ at: spec.now, type: "run-created", data: { planVersion: spec.planVersion, inputVersion: spec.inputVersion } }),
    ],
  };
}

/** What every rule of a run says of a run the store does not have. */
export const unknownRun = (run: string): NotFoundError => new NotFoundError(`no run ${run} in this store`);

/** An operator's change of the run row, dated by its event; refused for an unknown run. */
export type RunChange =
  | { kind: "caps"; caps: BudgetAmounts }
  | { kind: "hold"; hold: Hold | null }
  | { kind: "status"; status: RunStatus }
  | { kind: "origin"; origin: Partial<RunRow["origin"]> };

/** Caps and origin merge into the stored ones (a key given replaces that key); a hold or a status replaces. */
export function decideRunChange(
  run: Pick<RunRow, "caps" | "origin"> | undefined,
  name: string,
  change: RunChange,
  event: EventIn,
): Decided {
  if (!run) return { kind: "refused", reason: "no-run", error: unknownRun(name) };
  const set: RunPatch =
    change.kind === "caps"
      ? { caps: { ...run.caps, ...change.caps } }
      : change.kind === "origin"
        ? { origin: { ...run.origin, ...change.origin } }
        : change.kind === "hold"
          ? { hold: change.hold }
          : { status: change.status };
  return { kind: "writes", writes: [{ op: "update-run", set: { ...set, updatedAt: event.at } }, events(event)] };
}

/** What a charge reads: the run's used budgets and caps, and the undrawn booking of the lease it draws on (if that lease is current). */
export interface ChargeState {
  run: Pick<RunRow, "budgetUsed" | "caps">;
  booking: BudgetAmounts | undefined;
}

/**
 * A charge: the booking is drawn on first, the rest checked against the caps
 * (store/budget-charge.ts); a refused charge writes nothing. The event names
 * what was drawn from the booking.
 */
export function decideCharge(
  state: ChargeState,
  delta: BudgetAmounts,
  event: EventIn,
  mode: "check" | "record",
  lease: { unit: string; token: number } | undefined,
): { outcome: ChargeOutcome; writes: StoreWrite[] } {
  const { outcome, draw } = bookedChargeOutcome(state.run.budgetUsed ?? {}, state.run.caps ?? {}, delta, mode, state.booking);
  if (!outcome.ok) return { outcome, writes: [] };
  const writes: StoreWrite[] = [{ op: "update-run", set: { budgetUsed: outcome.used, updatedAt: event.at } }];
  if (lease && Object.keys(draw.drawn).length) {
    const reserved = Object.keys(draw.left).length ? draw.left : null;
    writes.push({ op: "set-lease-reserved", unit: lease.unit, token: lease.token, reserved });
    writes.push(events({ ...event, data: { ...event.data, reserved: draw.drawn } }));
  } else writes.push(events(event));
  return { outcome, writes };
}

/** A unit's hold (an operator's or a gate's), set or lifted, with its event; no read decides it. */
export function unitHoldWrites(unit: string, hold: Hold | null, event: EventIn): StoreWrite[] {
  return [{ op: "set-unit-hold", unit, hold }, events(event)];
}

/** A file found not to match its manifest: marked corrupt for good, with its event. */
export function corruptArtifactWrites(path: string, event: EventIn): StoreWrite[] {
  return [{ op: "mark-artifact-corrupt", path }, events(event)];
}
