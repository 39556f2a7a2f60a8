/**
 * Group commit: unit completions queued in the same turn of the event loop
 * share one transaction (one fsync). A version race retries the batch on the
 * new version; a stale member is committed apart from the others so it
 * cannot sink them.
 */
import { StaleFencingTokenError, VersionConflictError } from "../errors.js";
import type { CheckpointHeader } from "../model/facts.js";
import type { CheckpointCommit } from "../store/types.js";
import type { WorkerContext } from "./worker-state.js";

/** Most version races one batch retries before its commits are refused. */
const MAX_RACES = 20;

/** Queues `commit` for the next flush; resolves with its header, or rejects with the store's refusal. */
export function enqueue(w: WorkerContext, commit: CheckpointCommit): Promise<CheckpointHeader | undefined> {
  const { state } = w;
  return new Promise((resolve, reject) => {
    state.queue.push({ commit, resolve, reject });
    if (!state.flushScheduled) {
      state.flushScheduled = true;
      setImmediate(() => void flush(w));
    }
  });
}

async function flush(w: WorkerContext): Promise<void> {
  const { core, state } = w;
  state.flushScheduled = false;
  const batch = state.queue.splice(0);
  if (batch.length === 0) return;
  const hooks = {
    insideTransaction: () => core.crash("mid-checkpoint", batch[0]!.commit.fence ? { unit: batch[0]!.commit.fence.unit } : {}),
  };
  for (let tries = 0; ; tries++) {
    try {
      const headers = await core.store.commitCheckpoints(
        core.run,
        state.version,
        batch.map((b) => b.commit),
        hooks,
      );
      state.version = headers[headers.length - 1]!.version;
      batch.forEach((b, i) => b.resolve(headers[i]));
      return;
    } catch (err) {
      if (err instanceof VersionConflictError && tries < MAX_RACES) {
        // a plan change among the commits that raced this one is refused by the store on the retry (PlanVersionChangedError)
        state.version = err.actual;
        continue;
      }
      if (err instanceof StaleFencingTokenError && batch.length > 1) {
        // One stale member must not sink the others: commit them one by one.
        for (const b of batch) {
          try {
            const h = await core.store.commitCheckpoint(core.run, state.version, b.commit, hooks);
            state.version = h.version;
            b.resolve(h);
          } catch (e) {
            if (e instanceof VersionConflictError) state.version = e.actual;
            b.reject(e);
          }
        }
        return;
      }
      batch.forEach((b) => b.reject(err));
      return;
    }
  }
}
