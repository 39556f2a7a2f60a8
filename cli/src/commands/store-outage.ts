/**
 * A store outage as `taskspec worker` rides it out: the store's own retries
 * give up after about 0.35 s, so the worker backs off (exponential, with
 * jitter, capped per wait) and carries on, until the outage has lasted
 * longer than its bound; only then does it exit. nextOutageStep is pure (the
 * clock and the random source are passed in).
 */
import { isStoreUnavailable, type Store } from "@taskspec/runtime";
import { parseDuration } from "./run-support.js";
export interface OutageState {
  startedAt: number;
  waits: number;
}

export interface OutageStep {
  state: OutageState;
  /** How long to wait before trying again, or undefined: the outage outlasted its bound. */
  waitMs: number | undefined;
  elapsedMs: number;
}

const FIRST_WAIT_MS = 250;
const MAX_WAIT_MS = 5_000;

export function nextOutageStep(state: OutageState | undefined, now: number, boundMs: number, random: () => number): OutageStep {
  const s = state ?? { startedAt: now, waits: 0 };
  const elapsedMs = now - s.startedAt;
  if (elapsedMs >= boundMs) return { state: s, waitMs: undefined, elapsedMs };
  const base = Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** s.waits);
  // full jitter in the upper half: workers cut off together do not all come back at once
  const waitMs = Math.min(Math.round(base / 2 + (random() * base) / 2), Math.max(1, boundMs - elapsedMs));
  return { state: { startedAt: s.startedAt, waits: s.waits + 1 }, waitMs, elapsedMs };
}

/**
 * `taskspec run` and `resume` ride out a store outage as `taskspec worker`
 * does: `drive` (a Worker driving the run) is started again after each
 * backoff until it returns, or until the outage outlasts `--store-outage`;
 * then the store's error goes to the caller. Each outage ridden out is
 * recorded once the store answers again (a `store-outage` event, so
 * `status` shows it). The effects (stderr, the clock, timers) are here; the
 * backoff itself is nextOutageStep above.
 */
export async function ridingOutages<T>(
  who: "run" | "resume",
  store: Store,
  run: string,
  storeOutage: string,
  drive: () => Promise<T>,
): Promise<T> {
  const boundMs = parseDuration(storeOutage, "--store-outage");
  const name = `taskspec ${who}`;
  let outage: OutageState | undefined;
  for (;;) {
    try {
      if (outage) {
        const ms = Date.now() - outage.startedAt;
        const data = { startedAt: new Date(outage.startedAt).toISOString(), ms, waits: outage.waits, worker: who };
        await store.appendEvents(run, [{ at: new Date().toISOString(), type: "store-outage", data }]);
        process.stderr.write(`${name}: the store is back after ${ms} ms (${outage.waits} wait(s)); carrying on\n`);
        outage = undefined;
      }
      return await drive();
    } catch (err) {
      if (!isStoreUnavailable(err)) throw err;
      const step = nextOutageStep(outage, Date.now(), boundMs, Math.random);
      if (step.waitMs === undefined) {
        process.stderr.write(`${name}: the store has been unreachable for ${step.elapsedMs} ms (bound ${storeOutage}); giving up\n`);
        throw err;
      }
      outage = step.state;
      process.stderr.write(
        `${name}: store unavailable (${err instanceof Error ? err.message : String(err)}); backing off ${step.waitMs} ms (outage ${step.elapsedMs} ms so far, bound ${storeOutage})\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, step.waitMs));
    }
  }
}
