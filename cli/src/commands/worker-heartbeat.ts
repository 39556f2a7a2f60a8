/**
 * This process's row in the store's workers table (runtime
 * engine/worker-heartbeat.ts), for the commands that drive runs (`run`,
 * `resume`, `worker`): registered when the first run is driven, beating
 * until the command ends, then marked stopped (withStore closes it before
 * the store). Its snapshot is what the engines judge other workers by.
 */
import { WorkerHeartbeat, type HeartbeatOptions, type Store } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { parseDuration } from "./run-support.js";

const beats = new WeakMap<Store, WorkerHeartbeat>();
let options: HeartbeatOptions = {};

/** `--heartbeat` and `--dead-after` of the command (run, resume, worker): set before the first run is driven. */
export function configureHeartbeat(o: { heartbeat: string; deadAfter: string }): void {
  const intervalMs = parseDuration(o.heartbeat, "--heartbeat");
  const staleMs = parseDuration(o.deadAfter, "--dead-after");
  if (staleMs < 2 * intervalMs) throw new UserError(`--dead-after ${o.deadAfter} must be at least twice --heartbeat ${o.heartbeat}`, 2);
  options = { intervalMs, staleMs };
}

export async function heartbeatOf(store: Store): Promise<WorkerHeartbeat> {
  let beat = beats.get(store);
  if (!beat) {
    beat = new WorkerHeartbeat(store, options);
    beats.set(store, beat);
    await beat.start();
  }
  return beat;
}

/** The command is ending: the row is marked stopped (its leases, if any are left, are taken over at once). */
export async function stopHeartbeat(store: Store): Promise<void> {
  const beat = beats.get(store);
  beats.delete(store);
  await beat?.stop();
}
