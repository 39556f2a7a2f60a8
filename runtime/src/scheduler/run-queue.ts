/**
 * Which runs a worker visits next, and with how many of its unit slots: the
 * work queue across runs as data. Pure (the visit times are arguments),
 * table-tested in runtime/test/run-queue.test.ts; `taskspec worker`
 * (cli/src/commands/worker.ts) only starts the visits it answers with.
 *
 * A visit drives one run for at most a time slice, then yields its slots
 * (engine/worker.ts stops claiming and lets its attempts settle), so no run
 * holds a worker while others wait. The order, for the slots that are free:
 * 1. higher `priority` first;
 * 2. within a priority, tenants take turns (round-robin between queue keys:
 *    the tenant whose run was visited longest ago goes first); a tenant is a
 *    queue's runs with one `key` (the contract's `queue.key`, queue-of.ts),
 *    or all its runs when they have none;
 * 3. within a queue, a run never visited goes first, in submission order,
 *    then the run visited longest ago.
 * Limits: the worker's unit slots (`concurrency`), at most `queueLimits[q]`
 * runs of queue q visited at once by this worker, and a run's own
 * `runLimit` (units at once). Free slots are shared evenly between the runs
 * that start now, one at least each, never past a run's limit.
 *
 * The bound this gives: with R runs waiting, a worker with C slots visits
 * every run within ceil(R / C) of its rounds of one slice (plus the longest
 * attempt a stopping visit lets finish). Workers do not share `lastVisit`, so
 * with several workers that is still the bound (docs/operator.md).
 */

export { DEFAULT_QUEUE } from "./queue-of.js";

export interface QueuedRun {
  run: string;
  queue: string;
  /** The tenant within the queue (queue-of.ts); absent: the queue's runs are one tenant. */
  key?: string;
  priority: number;
  /** Units of this run at once (its `--max-parallel`); absent: no limit of its own. */
  runLimit?: number;
  /** When it was created: the order among runs never visited. */
  submittedAt: string;
}

export interface RunQueueInput {
  /** Runs that can be worked on (active, not held, not skipped by this worker). */
  ready: readonly QueuedRun[];
  /** Visits in progress in this worker: their runs and the slots each holds. */
  visiting: ReadonlyArray<{ run: string; queue: string; slots: number }>;
  /** When this worker last started a visit of each run (ms). */
  lastVisit: ReadonlyMap<string, number>;
  /** This worker's unit slots. */
  concurrency: number;
  /** Runs of a queue this worker visits at once; a queue not named has no limit. */
  queueLimits: Readonly<Record<string, number>>;
}

export interface VisitStart {
  run: string;
  /** Units this visit may run at once. */
  slots: number;
}

/** Runs in the order they should be visited (the rules of the header, 1 to 3). */
export function fairOrder(ready: readonly QueuedRun[], lastVisit: ReadonlyMap<string, number>): QueuedRun[] {
  const seen = (r: QueuedRun) => lastVisit.get(r.run);
  // within a queue: never visited first (submission order), then least recently visited
  const inQueue = (a: QueuedRun, b: QueuedRun) => {
    const [x, y] = [seen(a), seen(b)];
    if (x === undefined && y === undefined) return a.submittedAt < b.submittedAt ? -1 : a.submittedAt > b.submittedAt ? 1 : 0;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    return x - y;
  };
  const out: QueuedRun[] = [];
  const priorities = [...new Set(ready.map((r) => r.priority))].sort((a, b) => b - a);
  for (const p of priorities) {
    const queues = new Map<string, QueuedRun[]>();
    const turn = (r: QueuedRun) => (r.key === undefined ? r.queue : `${r.queue}\u0000${r.key}`);
    for (const r of ready.filter((x) => x.priority === p)) queues.set(turn(r), [...(queues.get(turn(r)) ?? []), r]);
    for (const runs of queues.values()) runs.sort(inQueue);
    // queues take turns: the one whose latest visit is oldest goes first, then round-robin
    const latest = (runs: QueuedRun[]) => Math.max(-1, ...runs.map((r) => seen(r) ?? -1));
    const order = [...queues.keys()].sort((a, b) => latest(queues.get(a)!) - latest(queues.get(b)!) || (a < b ? -1 : 1));
    for (let i = 0; order.some((q) => queues.get(q)!.length > i); i++)
      for (const q of order) {
        const r = queues.get(q)![i];
        if (r) out.push(r);
      }
  }
  return out;
}

/** The visits to start now, in order, with their slots. */
export function nextVisits(input: RunQueueInput): VisitStart[] {
  let free = input.concurrency - input.visiting.reduce((n, v) => n + v.slots, 0);
  const busy = new Set(input.visiting.map((v) => v.run));
  const perQueue = new Map<string, number>();
  for (const v of input.visiting) perQueue.set(v.queue, (perQueue.get(v.queue) ?? 0) + 1);
  const candidates = fairOrder(
    input.ready.filter((r) => !busy.has(r.run)),
    input.lastVisit,
  ).filter((r) => {
    const limit = input.queueLimits[r.queue];
    if (limit === undefined) return true;
    const n = perQueue.get(r.queue) ?? 0;
    if (n >= limit) return false;
    perQueue.set(r.queue, n + 1);
    return true;
  });
  const starts: VisitStart[] = [];
  for (const [i, r] of candidates.entries()) {
    if (free <= 0) break;
    const share = Math.max(1, Math.floor(free / (candidates.length - i)));
    const slots = Math.min(share, r.runLimit ?? share);
    starts.push({ run: r.run, slots });
    free -= slots;
  }
  return starts;
}
