/**
 * A store outage as `taskspec worker` rides it out: the store's own retries
 * give up after about 0.35 s, so the worker backs off (exponential, with
 * jitter, capped per wait) and carries on, until the outage has lasted
 * longer than its bound; only then does it exit. Pure: the clock and the
 * random source are passed in.
 */
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

/** Is `err` the store being unreachable (any depth of `cause`)? */
export function isStoreUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) if (e.name === "StoreUnavailableError") return true;
  return false;
}
