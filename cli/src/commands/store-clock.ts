/**
 * The clock a command that drives runs hands the engine: the store's
 * (runtime engine/store-clock.ts), measured when the command starts and
 * again every few seconds, so a host whose clock drifts or jumps judges
 * leases by the store's time all along.
 *
 * `TASKSPEC_TEST_CLOCK_SKEW_MS` puts this host's clock that far ahead (or
 * behind, negative) for the engine: how the tests run a worker on a skewed
 * host without faketime.
 */
import { StoreClock, type Store } from "@taskspec/runtime";

const RESYNC_MS = 5_000;

function hostNow(): () => number {
  const skew = Number(process.env.TASKSPEC_TEST_CLOCK_SKEW_MS ?? 0);
  return Number.isFinite(skew) && skew !== 0 ? () => Date.now() + skew : Date.now;
}

const clocks = new WeakMap<Store, StoreClock>();

/**
 * The store's time now, as an ISO string: what a command stamps on the
 * decisions and events it records, and measures an approval's expiry or gc's
 * window from, so that a host whose clock is off records what the workers,
 * judging by the store's clock, read the same way.
 */
export async function storeNow(store: Store): Promise<string> {
  return (await storeClockOf(store)).now().toISOString();
}

/** The store's clock for this process, measured now and every few seconds after (a failed measure keeps the last offset). */
export async function storeClockOf(store: Store): Promise<StoreClock> {
  const known = clocks.get(store);
  if (known) return known;
  const clock = new StoreClock(store, hostNow());
  await clock.sync();
  clocks.set(store, clock);
  setInterval(() => void clock.sync().catch(() => undefined), RESYNC_MS).unref();
  return clock;
}
