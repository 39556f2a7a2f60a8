/**
 * Whether a retry after an effect of unknown outcome counts toward the
 * unit's `retry.max`, as a pure function of what recovery found. An attempt
 * whose tool call ended UNKNOWN (the adapter threw without saying the call
 * failed, or the unit timed out with the call in flight) ends uncounted: the
 * effect may have happened, and then the next attempt only reuses its
 * receipt. When recovery finds it did not happen (a lookup says absent, an
 * idempotent call is to be repeated) that attempt made nothing and the next
 * one is a retry like any other: counted, so a tool that keeps ending
 * UNKNOWN cannot make a unit with `retry.max: 0` run until the budget
 * stops it. Found committed: not counted (the retry reuses the receipt).
 * A worker killed in the middle of a call is not this case: its death is
 * counted when its lease is broken (recovery.ts `breakLease`).
 * Table-tested in runtime/test/unknown-retry.test.ts; recovery.ts acts on it.
 */
import type { Resolution } from "../ledger/reconcile.js";
import type { EffectRecord, ErrorClass } from "../model/facts.js";

export interface UnknownRetryInput {
  effect: Pick<EffectRecord, "id" | "tool" | "attempt" | "error" | "lookupUsed">;
  resolution: Resolution;
  /** The lookup the plan declares for the effect's tool, if any. */
  lookup?: string;
  /** Did the attempt end uncounted because of this effect (its `attempt-interrupted` event names it)? */
  interruptedBy: boolean;
}

export type UnknownRetry = { count: false } | { count: true; error: { class: ErrorClass; message: string; attempt: number } };

export function decideUnknownRetry({ effect, resolution, lookup, interruptedBy }: UnknownRetryInput): UnknownRetry {
  if (resolution !== "absent" || !interruptedBy) return { count: false };
  const found = lookup ? `lookup ${lookup} found it absent` : "it is to be repeated";
  return {
    count: true,
    error: {
      class: "tool-error",
      message: `the outcome of ${effect.tool} was unknown${effect.error ? ` (${effect.error})` : ""} and ${found}: attempt a${effect.attempt} made nothing and counts toward retry.max`,
      attempt: effect.attempt,
    },
  };
}
