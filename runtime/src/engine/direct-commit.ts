/**
 * Commits outside the group queue (a plan change, corruption, an early
 * cutoff, an exhausted unit): each built from fresh facts and, on a version
 * race, rebuilt from the facts as they are then, so a change another worker
 * already made is not made twice.
 */
import { VersionConflictError } from "../errors.js";
import type { CheckpointHeader } from "../model/facts.js";
import type { CheckpointCommit, RunFacts, UnitChange } from "../store/types.js";
import { nowIso } from "./core.js";
import { invalidateFrom } from "./invalidate.js";
import { ev, nextActionOf, reopen, type WorkerContext } from "./worker-state.js";

/** Commits what `build` makes of the run's facts; `build` returns undefined when nothing is left to do. */
export async function commitDirect(
  w: WorkerContext,
  build: (facts: RunFacts) => CheckpointCommit | undefined,
): Promise<CheckpointHeader | undefined> {
  const { core, state } = w;
  for (;;) {
    const facts = await core.store.loadFacts(core.run);
    state.version = facts.run.version;
    const commit = build(facts);
    if (!commit) return undefined;
    try {
      const h = await core.store.commitCheckpoint(core.run, facts.run.version, commit);
      state.version = h.version;
      return h;
    } catch (err) {
      if (!(err instanceof VersionConflictError)) throw err;
    }
  }
}

/** A checkpoint of unit changes the worker decided on its own (not a unit's completion). */
export function decisionCommit(w: WorkerContext, changes: UnitChange[], events: CheckpointCommit["events"]): CheckpointCommit {
  return {
    kind: "decision",
    changes,
    approvals: w.state.approvalIds,
    nextAction: nextActionOf(w.state),
    events,
    now: nowIso(w.core),
    ...reopen(w.state.runStatus),
  };
}

/** A committed artifact read corrupt: marked so, and its producer and everything downstream superseded. */
export async function invalidateCorrupt(w: WorkerContext, producer: string, path: string, message: string): Promise<void> {
  const { core } = w;
  await core.store.markArtifactCorrupt(core.run, path, ev(core, "artifact-corrupt", { unit: producer, data: { path, message } }));
  await commitDirect(w, (f) => {
    const changes = invalidateFrom(core.plan, core.planVersion, producer, `corrupt artifact ${path}`, f.units);
    return changes.length
      ? decisionCommit(
          w,
          changes,
          changes.map((c) => ev(core, "superseded", { unit: c.unit, data: { reason: "corrupt", path } })),
        )
      : undefined;
  });
}
