/**
 * The effect rules of the stores, pure: what recording an effect (PREPARED
 * under a live lease) and moving it from one state to another read, and the
 * writes they make or why they are refused. Table-tested in
 * runtime/test/store-rules.test.ts; both backends execute the answers.
 */
import { InvalidTransitionError, NotFoundError } from "../errors.js";
import type { EffectRecord, EffectState } from "../model/facts.js";
import { EffectKeyConflictError, keyConflict } from "./effect-identity.js";
import { fenceRefusal, planRefusal } from "./unit-transition.js";
import { effectColumns } from "./write-sql.js";
import { events, type Decided, type EventIn } from "./writes.js";

type NewEffect = Omit<EffectRecord, "state" | "commitSeq">;

/** What recording an effect reads: the lease on its unit, the run's plan (when the caller holds one), the effects under its key. */
export interface PrepareEffectState {
  lease: { token: number; owner: string } | undefined;
  planVersion?: string;
  /** The run's effects of the same tool and key (read only when the effect has a key). */
  sameKey: readonly EffectRecord[];
}

/**
 * Recording an effect: the fence first (only the current lease records), then
 * the plan the caller holds must be the run's, then its key must not be held
 * by another request; then the PREPARED row and its `effect-prepared` event.
 */
export function decidePrepareEffect(
  state: PrepareEffectState,
  effect: NewEffect,
  fence: { unit: string; token: number; planVersion?: string },
): Decided {
  const stale = fenceRefusal(effect.run, fence, state.lease);
  if (stale) return stale;
  if (fence.planVersion !== undefined) {
    const changed = planRefusal(effect.run, fence.planVersion, String(state.planVersion));
    if (changed) return changed;
  }
  if (effect.key !== undefined) {
    const prior = keyConflict(effect, state.sameKey);
    if (prior) return { kind: "refused", reason: "key-conflict", error: new EffectKeyConflictError(effect.id, prior) };
  }
  const data = { effect: effect.id, tool: effect.tool, class: effect.toolClass, key: effect.key, ...(effect.held ? { held: true } : {}) };
  return {
    kind: "writes",
    writes: [
      { op: "insert-effect", effect },
      events({ at: effect.preparedAt, type: "effect-prepared", unit: effect.unit, attempt: effect.attempt, data }),
    ],
  };
}

/**
 * Moving an effect: only from one of the states `from` names; the patch's
 * columns are set, and an effect that becomes COMMITTED takes the run's next
 * commit sequence number (once: a COMMITTED effect patched again keeps it).
 */
export function decideUpdateEffect(
  effect: Pick<EffectRecord, "id" | "run" | "state"> | undefined,
  id: string,
  from: readonly EffectState[],
  patch: Partial<Omit<EffectRecord, "id" | "run" | "commitSeq">>,
  event?: EventIn,
): Decided {
  if (!effect) return { kind: "refused", reason: "no-effect", error: new NotFoundError(`no effect ${id}`) };
  if (!from.includes(effect.state))
    return {
      kind: "refused",
      reason: "wrong-state",
      error: new InvalidTransitionError(`effect ${id} is ${effect.state}, expected ${from.join("|")}`),
    };
  const commitSeq = patch.state === "COMMITTED" && effect.state !== "COMMITTED";
  return {
    kind: "writes",
    writes: [{ op: "update-effect", id, columns: effectColumns(patch), commitSeq }, ...(event ? [events(event)] : [])],
  };
}
