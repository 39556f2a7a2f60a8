/**
 * The store's rule for recording a collection (`taskspec gc`), pure: the
 * payloads it removes and its `collected` event are written together, and
 * only for a run that is not in flight when the transaction reads it (a run
 * made active again, or leased, since gc planned is refused: nothing is
 * written). Table-tested in runtime/test/store-rules.test.ts.
 */
import { InvalidTransitionError } from "../errors.js";
import type { RunRow } from "../model/facts.js";
import { unknownRun } from "./run-rules.js";
import { events, type Decided, type EventIn } from "./writes.js";

/** What recording a collection reads: the run row and how many leases it holds. */
export interface CollectionState {
  run: Pick<RunRow, "status"> | undefined;
  leases: number;
}

export function decideRecordCollection(state: CollectionState, name: string, payloads: readonly number[], event: EventIn): Decided {
  if (!state.run) return { kind: "refused", reason: "no-run", error: unknownRun(name) };
  if (state.run.status === "active" || state.leases > 0)
    return {
      kind: "refused",
      reason: "in-flight",
      error: new InvalidTransitionError(
        `run ${name} is in flight (${state.run.status}, ${state.leases} lease(s)): gc never collects from it`,
      ),
    };
  return { kind: "writes", writes: [...(payloads.length ? [{ op: "clear-event-payloads" as const, seqs: payloads }] : []), events(event)] };
}
