/**
 * `taskspec workers`: the store's workers table as an operator reads it,
 * each worker judged by the rule the engines use (engine/owner-verdict.ts)
 * at the store's time of the read, with the leases it holds.
 */
import type { Lease } from "../model/facts.js";
import type { WorkersSnapshot } from "../store/types.js";
import { judgeOwner } from "../engine/owner-verdict.js";
import { workerIdOf } from "../engine/owner.js";

export interface WorkerView {
  id: string;
  host: string;
  pid: number;
  startedAt: string;
  heartbeatAt: string;
  /** live: beating; silent: no heartbeat for the bound (its leases are taken over); stopped: it exited. */
  state: "live" | "silent" | "stopped";
  /** Milliseconds since its last heartbeat, at the read. */
  silentMs: number;
  leases: Array<{ run: string; unit: string; token: number; expiresAt: string }>;
}

export function workersView(snapshot: WorkersSnapshot & { leases: Lease[] }, staleMs: number): WorkerView[] {
  return snapshot.workers.map((w) => {
    const verdict = judgeOwner({
      self: false,
      sameSpace: false,
      samePid: false,
      worker: { heartbeatAt: w.heartbeatAt, ...(w.stoppedAt ? { stoppedAt: w.stoppedAt } : {}) },
      snapshot: { at: snapshot.at, beatingSince: w.startedAt < snapshot.at ? w.startedAt : snapshot.at, now: snapshot.at },
      staleMs,
    });
    return {
      id: w.id,
      host: w.host,
      pid: w.pid,
      startedAt: w.startedAt,
      heartbeatAt: w.heartbeatAt,
      state: w.stoppedAt ? "stopped" : verdict.dead ? "silent" : "live",
      silentMs: Math.max(0, Date.parse(snapshot.at) - Date.parse(w.heartbeatAt)),
      leases: snapshot.leases
        .filter((l) => workerIdOf(l.owner) === w.id)
        .map((l) => ({ run: l.run, unit: l.unit, token: l.token, expiresAt: l.expiresAt })),
    };
  });
}
