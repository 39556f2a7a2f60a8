/**
 * The workers table's writes, written once for both stores: a heartbeat
 * registers the row or stamps it again (a row stopped and beating again is
 * live again), and rows silent for a day are removed when a worker stops.
 */

/** The heartbeat's upsert; `at`: the store's time expression (PostgreSQL's clock) or `?` (SQLite: bound twice). */
export const upsertWorker = (at: string) =>
  `INSERT INTO workers (id, host, pid, started_at, heartbeat_at) VALUES (?, ?, ?, ${at}, ${at})
   ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at, stopped_at = NULL`;

const KEEP_MS = 24 * 3600_000;

/** Rows whose last heartbeat is before this (a day before `now`) are history: no lease of theirs can be live. */
export function workerRowsKeptAfter(now: string): string {
  return new Date(Date.parse(now) - KEEP_MS).toISOString();
}
