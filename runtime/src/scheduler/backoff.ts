/**
 * Retry backoff: how long a unit waits after a counted failure before its
 * next attempt. Exponential (the contract's `retry.backoff`), bounded by its
 * `max`, jittered so that units failing together against one outage do not
 * retry together. Pure: the random draw is an argument.
 */
import { unitBackoff, type Backoff, type PlanUnit } from "@taskspec/compiler";

/**
 * The wait before the next attempt after the `failures`-th counted failure
 * (1 for the first): `initialMs * factor^(failures-1)`, at most `maxMs`, then
 * `equal` jitter keeps half and draws the other half, `full` draws all of it.
 * `random` is in [0, 1).
 */
export function retryDelayMs(backoff: Backoff, failures: number, random: number): number {
  const exponent = Math.max(0, failures - 1);
  // factor^exponent overflows to Infinity long before it matters; the cap bounds it either way
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * backoff.factor ** exponent);
  const r = Math.min(Math.max(random, 0), 1);
  switch (backoff.jitter) {
    case "none":
      return Math.round(ceiling);
    case "full":
      return Math.round(ceiling * r);
    case "equal":
      return Math.round(ceiling / 2 + (ceiling / 2) * r);
  }
}

/**
 * When the unit's next attempt may start after a counted failure that brought
 * its count to `failures`, or undefined when no attempt is left (the unit is
 * failed as exhausted, there is nothing to wait for).
 */
export function retryNotBefore(
  unit: Pick<PlanUnit, "retry">,
  failures: number,
  now: string,
  random: number,
): { notBefore: string; delayMs: number } | undefined {
  if (failures > unit.retry.max) return undefined;
  const delayMs = retryDelayMs(unitBackoff(unit), failures, random);
  return { notBefore: new Date(Date.parse(now) + delayMs).toISOString(), delayMs };
}
