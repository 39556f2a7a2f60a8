/**
 * A worker's clock set by its store's: leases are granted and judged by the
 * store (PostgreSQL's clock, shared by every host), so the times a worker
 * compares with them (is this lease expired, is this backoff over) are read
 * on the same clock. The offset is measured against the store at each
 * `sync()` (one round trip, its midpoint taken as the store's reading) and
 * applied to the local clock between syncs, so a host whose clock is off by
 * a minute judges leases as the others do.
 */
import type { Clock } from "./core.js";

/** The store's time minus the local time, from one exchange: asked at `sentMs`, answered `storeIso`, received at `receivedMs`. */
export function clockOffsetMs(sentMs: number, storeIso: string, receivedMs: number): number {
  const store = Date.parse(storeIso);
  if (!Number.isFinite(store)) throw new Error(`the store's clock answered ${JSON.stringify(storeIso)}, not a time`);
  return store - (sentMs + receivedMs) / 2;
}

export class StoreClock implements Clock {
  private offset = 0;

  constructor(
    private readonly store: { clock(): Promise<string> },
    /** The host's clock (a test gives one that is off). */
    private readonly local: () => number = Date.now,
  ) {}

  /** How far the store's clock is ahead of this host's, as of the last sync. */
  get offsetMs(): number {
    return this.offset;
  }

  now(): Date {
    return new Date(this.local() + this.offset);
  }

  async sync(): Promise<void> {
    const sent = this.local();
    const answer = await this.store.clock();
    this.offset = clockOffsetMs(sent, answer, this.local());
  }
}
