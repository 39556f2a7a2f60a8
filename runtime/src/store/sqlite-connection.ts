/**
 * What the SQLite store needs of the file and its driver beyond the shared
 * SQL: switching the file to WAL once, and the unit rows loadFacts reads as
 * arrays (the hottest read of a run).
 */
import type Database from "better-sqlite3";
import type { UnitStateRow } from "../model/facts.js";

/**
 * WAL is a property of the file, so only its first opener switches it. Two
 * processes opening a new file together both try, and the loser's switch fails
 * with SQLITE_BUSY at once (SQLite does not wait on that lock); it then finds
 * the file already in WAL.
 */
export function useWal(db: Database.Database): void {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      if (db.pragma("journal_mode", { simple: true }) === "wal") return;
      db.pragma("journal_mode = WAL");
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** A unit row as the raw statement returns it (column order of loadFacts' query). */
export type UnitTuple = [
  string,
  string,
  number,
  number,
  number | null,
  number | null,
  string | null,
  string | null,
  string | null,
  number,
  string | null,
];

export function unitFromTuple([
  unit,
  state,
  attempts,
  failures,
  current,
  superseded,
  supersededInfo,
  hold,
  lastError,
  version,
  notBefore,
]: UnitTuple): UnitStateRow {
  const row: UnitStateRow = { unit, state: state as UnitStateRow["state"], attempts, failures, version };
  if (current !== null) row.currentRecord = current;
  if (superseded !== null) row.supersededRecord = superseded;
  if (supersededInfo !== null) row.superseded = JSON.parse(supersededInfo) as UnitStateRow["superseded"];
  if (hold !== null) row.hold = JSON.parse(hold) as UnitStateRow["hold"];
  if (lastError !== null) row.lastError = JSON.parse(lastError) as UnitStateRow["lastError"];
  if (notBefore !== null) row.notBefore = notBefore;
  return row;
}
