/**
 * When a worker visits a run again that its last visit left waiting (for a
 * person: an approval, an unknown effect, a flag; or nothing it could load):
 * as data, pure, table-tested in runtime/test/visit-rest.test.ts. `taskspec
 * worker` (cli/src/commands/worker.ts) asks it at every pass.
 *
 * A visit costs a contract compile, the handler and MCP modules loaded, the
 * artifacts hashed and the run's facts read. A run waiting for a person gains
 * nothing from that until something in the store changes, so a visit that
 * ended blocked leaves a mark of the run's state (its checkpoint version, its
 * unit-change counter, its latest event, its status and hold): while the run's
 * mark is the same, it is not visited again. Every decision a person records
 * (approve, resolve, flag, raise a budget, resume, cancel) writes an event or
 * a run row, so it changes the mark.
 *
 * The mark is trusted only if the visit itself wrote nothing: the mark read
 * before the visit must equal the one read after it. A visit that wrote (its
 * first `blocked` event, a resume token) or during which a person decided
 * rests one poll and is visited once more; that visit, finding the same
 * state, writes nothing (engine/worker.ts records a `blocked` the run already
 * shows only once) and settles. So a write that lands between the visit's
 * last read and the mark read after it is never lost.
 *
 * A settled rest still ends after `recheckMs`, so that what passes with time
 * alone (a resume token expiring) is looked at again.
 */

/** What a worker knows of a run's state between visits: changes whenever anything is written for it. */
export interface RunMarkSource {
  version: number;
  status: string;
  hold?: unknown;
  planVersion: string;
  changeSeq: number;
  lastEventSeq: number;
}

export function runMark(r: RunMarkSource): string {
  return JSON.stringify([r.version, r.status, r.hold ?? null, r.planVersion, r.changeSeq, r.lastEventSeq]);
}

/** A run not to visit before `untilMs`, or (with `mark`) while its mark is the same, up to `untilMs`. */
export interface VisitRest {
  untilMs: number;
  mark?: string;
}

/** How a visit ended, as far as resting is concerned. */
export type VisitEndKind = "active" | "blocked" | "skipped" | "done" | "failed" | "cancelled";

export interface RestInput {
  end: VisitEndKind;
  /** The visit was ended by its slice (other runs wait): it comes back in turn, no rest. */
  sliced: boolean;
  /** The run's mark read before the visit started, and after it ended (undefined: no longer listed). */
  before: string;
  after: string | undefined;
  nowMs: number;
  pollMs: number;
  recheckMs: number;
}

/** The rest a run takes after a visit (undefined: none, it is visited again at the next pass). */
export function restAfterVisit(i: RestInput): VisitRest | undefined {
  if (i.end === "active" && i.sliced) return undefined;
  if (i.end === "blocked" && i.after !== undefined && i.after === i.before) return { untilMs: i.nowMs + i.recheckMs, mark: i.after };
  return { untilMs: i.nowMs + i.pollMs };
}

/** Whether a run resting so may be visited now, its mark being `mark`. */
export function mayVisit(rest: VisitRest | undefined, mark: string, nowMs: number): boolean {
  if (!rest) return true;
  if (nowMs >= rest.untilMs) return true;
  return rest.mark !== undefined && rest.mark !== mark;
}
