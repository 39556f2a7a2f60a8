/**
 * Is the worker behind a lease gone? Decided from facts gathered by
 * engine/owner.ts (the owner's identity, a probe of its pid where that pid
 * means something, its worker row's heartbeat as of the last snapshot), so
 * that the rule is one pure function, table-tested in
 * runtime/test/owner-verdict.test.ts.
 *
 * A gone owner's leases are broken at once instead of waiting out their
 * expiry. Being wrong costs a re-run, never a double commit (the old
 * owner's late writes are fenced by their token), but it costs, so every
 * rule errs towards "alive": an owner is dead only on positive evidence.
 */

/** A worker's row as a snapshot of the store's workers table showed it (times: the store's clock). */
export interface WorkerBeat {
  heartbeatAt: string;
  stoppedAt?: string;
}

export interface OwnerFacts {
  /** The lease's owner is the asker itself (or one of the asker's attempts in flight). */
  self: boolean;
  /** Same pid space as the asker: `samePid` (the asker's process) and `pid` (probed) mean something. */
  sameSpace: boolean;
  samePid: boolean;
  /** Only probed in the same pid space. */
  pid?: "alive" | "gone";
  /** The owner's worker row in the asker's last snapshot (absent: the owner never registered, or no snapshot). */
  worker?: WorkerBeat;
  /**
   * The snapshot's facts: when it was read (store time), since when the
   * asker has been beating without a gap (store time: an outage restarts
   * it), and the time of the judgement (store time).
   */
  snapshot?: { at: string; beatingSince: string; now: string };
  /** A worker without a heartbeat for this long is dead; a snapshot older than this is not trusted. */
  staleMs: number;
}

export type OwnerVerdict =
  | { dead: false; why: "self" | "alive" | "unknown" }
  | { dead: true; why: "earlier-worker-of-this-process" | "process-gone" | "stopped" | "heartbeat-stale" };

export function judgeOwner(f: OwnerFacts): OwnerVerdict {
  if (f.self) return { dead: false, why: "self" };
  if (f.sameSpace && f.samePid) return { dead: true, why: "earlier-worker-of-this-process" };
  if (f.sameSpace && f.pid === "gone") return { dead: true, why: "process-gone" };
  const s = f.snapshot;
  if (!f.worker || !s) return { dead: false, why: "unknown" };
  // the asker's own beats have stopped (a store outage, say): what it last read is no evidence
  if (Date.parse(s.now) - Date.parse(s.at) > f.staleMs) return { dead: false, why: "unknown" };
  if (f.worker.stoppedAt) return { dead: true, why: "stopped" };
  // silence counts only while the asker could have seen a beat: after an outage every worker gets a full bound again
  const silentSince = Math.max(Date.parse(f.worker.heartbeatAt), Date.parse(s.beatingSince));
  return Date.parse(s.at) - silentSince > f.staleMs ? { dead: true, why: "heartbeat-stale" } : { dead: false, why: "alive" };
}
