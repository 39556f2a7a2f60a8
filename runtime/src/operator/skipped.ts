/**
 * Runs a worker could not serve: its contract or a module the run names
 * does not load on that worker's host. The worker records why (a
 * `run-skipped` event) and serves the other runs; `runs` and `status` show
 * the skips that still stand, the last one of each worker since the run last
 * made progress (a skip before that progress no longer says the run is
 * stuck, and the worker records it again if it still cannot load the run).
 */
import type { RunEvent } from "../model/facts.js";

export const RUN_SKIPPED_EVENT = "run-skipped";

export interface RunSkip {
  worker: string;
  reason: string;
  at: string;
}

/** The `run-skipped` event a worker appends. */
export function runSkippedEvent(worker: string, reason: string, at: string): Omit<RunEvent, "run" | "seq"> {
  return { at, type: RUN_SKIPPED_EVENT, data: { worker, reason } };
}

/** The skips still standing: the last of each worker, recorded at or after the run's last progress. */
export function standingSkips(events: readonly RunEvent[], lastProgressAt: string): RunSkip[] {
  const last = new Map<string, RunSkip>();
  for (const e of events) {
    if (e.type !== RUN_SKIPPED_EVENT || e.at < lastProgressAt) continue;
    const worker = typeof e.data?.worker === "string" ? e.data.worker : "?";
    const reason = typeof e.data?.reason === "string" ? e.data.reason : "";
    last.set(worker, { worker, reason, at: e.at });
  }
  return [...last.values()];
}

/** Whether a worker must record its skip again: never recorded, another reason, or the run progressed since. */
export function skipToRecord(previous: { reason: string; at: string } | undefined, reason: string, lastProgressAt: string): boolean {
  return previous === undefined || previous.reason !== reason || previous.at < lastProgressAt;
}
