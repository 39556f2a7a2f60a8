/**
 * A worker process's row in the store's workers table, kept alive: the
 * process registers when it starts driving runs, stamps a heartbeat every
 * `intervalMs` (at the store's clock: PostgreSQL's, shared by every host) and
 * marks the row stopped when it exits. Each beat also reads every worker's
 * row: the snapshot its engines judge lease owners by (engine/owner.ts,
 * engine/owner-verdict.ts), so a worker whose heartbeat has stopped for
 * `staleMs` loses its leases without waiting out their expiry.
 *
 * A beat that fails (a store outage) is not an error here: the next one
 * tries again, and judgement waits for a full `staleMs` of beats after it.
 */
import type { Store, WorkersSnapshot } from "../store/types.js";
import { hostname } from "node:os";
import { processWorkerId, type Liveness } from "./owner.js";
import type { WorkerBeat } from "./owner-verdict.js";

/** How often a worker beats, and how long a silent worker stays alive (docs/operator.md, "Dead workers"). */
export const HEARTBEAT = { intervalMs: 4_000, staleMs: 16_000 } as const;

export interface HeartbeatOptions {
  intervalMs?: number;
  staleMs?: number;
  /** The row's id (default: this process's, engine/owner.ts). */
  id?: string;
}

export class WorkerHeartbeat {
  readonly id: string;
  readonly intervalMs: number;
  readonly staleMs: number;
  private timer: NodeJS.Timeout | undefined;
  private last: { snapshot: WorkersSnapshot; beatingSince: string; workers: Map<string, WorkerBeat> } | undefined;
  private failed = true;
  private beating: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    o: HeartbeatOptions = {},
  ) {
    this.id = o.id ?? processWorkerId();
    this.intervalMs = o.intervalMs ?? HEARTBEAT.intervalMs;
    this.staleMs = o.staleMs ?? HEARTBEAT.staleMs;
  }

  /** Registers (a failure here is the caller's: a worker that cannot reach its store does not start). */
  async start(): Promise<void> {
    await this.beat(true);
    this.timer ??= setInterval(() => void (this.beating ??= this.beat(false).finally(() => (this.beating = undefined))), this.intervalMs);
    this.timer.unref();
  }

  private async beat(rethrow: boolean): Promise<void> {
    let snapshot: WorkersSnapshot;
    try {
      snapshot = await this.store.heartbeat({ id: this.id, host: hostname(), pid: process.pid });
    } catch (err) {
      this.failed = true;
      if (rethrow) throw err;
      return;
    }
    const beatingSince = this.failed || !this.last ? snapshot.at : this.last.beatingSince;
    this.failed = false;
    const workers = new Map(
      snapshot.workers.map((w) => [w.id, { heartbeatAt: w.heartbeatAt, ...(w.stoppedAt ? { stoppedAt: w.stoppedAt } : {}) }]),
    );
    this.last = { snapshot, beatingSince, workers };
  }

  /** What this process knows of the workers, for its engines' lease judgements (undefined before the first beat). */
  liveness(): Liveness | undefined {
    const l = this.last;
    return l && { at: l.snapshot.at, beatingSince: l.beatingSince, workers: l.workers, staleMs: this.staleMs };
  }

  /** Stops beating and marks the row stopped (best effort: a worker that cannot say so goes silent and is judged by its heartbeat). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    await this.store.stopWorker(this.id).catch(() => undefined);
  }
}
