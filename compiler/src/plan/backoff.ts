/**
 * A unit's `retry.backoff` as the plan records it: durations in milliseconds,
 * every default filled in, so the runtime never guesses. Retry backoff is
 * policy (behaviour.ts): it changes no definition hash.
 */
import type { ContractSpec } from "../schema/contract.js";
import { durationMs } from "./duration.js";
import { DEFAULT_BACKOFF, type Backoff } from "./schema.js";

/**
 * The unit's `retry.backoff` with the defaults filled in. The range checks
 * (ranges.ts) report a value out of range; the plan of a contract with such
 * a value is never run, so the default stands in for it here.
 */
export function backoffOf(contract: ContractSpec, unitId: string): Backoff {
  const b = contract.units[unitId]!.retry?.backoff ?? {};
  const ms = (text: string | undefined, fallback: number) => {
    const v = typeof text === "string" ? durationMs(text) : NaN;
    return Number.isSafeInteger(v) && v > 0 ? v : fallback;
  };
  const initialMs = ms(b.initial, DEFAULT_BACKOFF.initialMs);
  const factor = typeof b.factor === "number" && Number.isFinite(b.factor) && b.factor >= 1 ? b.factor : DEFAULT_BACKOFF.factor;
  return {
    initialMs,
    maxMs: Math.max(initialMs, ms(b.max, DEFAULT_BACKOFF.maxMs)),
    factor,
    jitter: b.jitter ?? DEFAULT_BACKOFF.jitter,
  };
}
