/**
 * Recovery of effects whose outcome is not known (PREPARED, STARTED, UNKNOWN),
 * before anything else runs. Per recovery class:
 * - never started (PREPARED): FAILED, nothing reached the world;
 * - read: FAILED (a read can simply be repeated);
 * - with a lookup: its answer is checked first (lookup-answer.ts: a receipt
 *   with the fields the contract uses, or null); anything else blocks;
 *   found -> COMMITTED (adopt remote id and, as the receipt the re-run
 *   gets, the answer kept as a call's is: receipt.ts); confirmed
 *   absent -> FAILED (may retry), except irreversible: absent still blocks for a
 *   person; lookup error -> stays UNKNOWN and the unit blocks;
 * - idempotent without lookup: FAILED, the retry reuses the same key;
 * - compensable/irreversible without lookup: blocks for a person.
 * A dedup effect is never called again blindly.
 */
import type { Plan } from "@taskspec/compiler";
import type { HandlerModule } from "../handler-api.js";
import type { EffectRecord } from "../model/facts.js";
import type { Store } from "../store/types.js";
import type { CrashHook } from "../faults/crash-points.js";
import { remoteIdOf, renderCompensation, toolOf } from "./ledger.js";
import { classifyLookupAnswer, lookupCallMeta } from "./lookup-answer.js";
import { ownEntry } from "../model/own.js";
import { safeErrorText } from "./redact.js";
import { keptReceipt } from "./receipt.js";
import { InvalidTransitionError } from "../errors.js";

export type Resolution = "committed" | "absent" | "blocked";

export interface ReconcileDeps {
  store: Store;
  plan: Plan;
  handlers: HandlerModule;
  crash: CrashHook;
  now: () => string;
  /** Template environment of the effect's unit (for rendering compensation data). */
  envFor: (effect: EffectRecord) => Record<string, unknown>;
  /** The fencing token the lookup sends (default: the effect's own); a newer one makes a fencing remote refuse the old call. */
  tokenFor?: (effect: EffectRecord) => number | undefined;
}

export async function reconcileEffect(deps: ReconcileDeps, effect: EffectRecord): Promise<Resolution> {
  let resolution: Resolution;
  try {
    resolution = await resolveOutcome(deps, effect);
  } catch (err) {
    // Two recoveries at once (two resumes, a worker that could not take the recovery lease): the other one
    // settled the effect between this one's read and its compare-and-set. Its outcome stands; this one
    // changed nothing, and the hold, if any, is the other one's to lift.
    const settled = err instanceof InvalidTransitionError ? await settledElsewhere(deps.store, effect) : undefined;
    if (settled === undefined) throw err;
    return settled;
  }
  if (resolution !== "blocked" && effect.state === "UNKNOWN") {
    // A block this effect caused earlier is lifted now that its outcome is known.
    const unit = (await deps.store.loadFacts(effect.run)).units.find((u) => u.unit === effect.unit);
    if (unit?.hold?.reason === "unknown-effect" && unit.hold.data?.effect === effect.id) {
      await deps.store.setUnitHold(effect.run, effect.unit, null, {
        at: deps.now(),
        type: "unblocked",
        unit: effect.unit,
        data: { reason: "unknown-effect", effect: effect.id, resolution },
      });
    }
  }
  return resolution;
}

/** What another recovery made of `effect` since it was read: its resolution, or undefined while it is still as read. */
async function settledElsewhere(store: Store, effect: EffectRecord): Promise<Resolution | undefined> {
  const now = (await store.listEffects(effect.run, { unit: effect.unit })).find((e) => e.id === effect.id);
  if (!now || now.state === effect.state) return undefined;
  if (now.state === "COMMITTED") return "committed";
  if (now.state === "FAILED") return "absent";
  if (now.state === "UNKNOWN") return "blocked";
  return undefined;
}

async function resolveOutcome(deps: ReconcileDeps, effect: EffectRecord): Promise<Resolution> {
  const { store, plan, now } = deps;
  const ev = (type: string, data: Record<string, unknown>) => ({
    at: now(),
    type,
    unit: effect.unit,
    attempt: effect.attempt,
    data: { effect: effect.id, tool: effect.tool, ...data },
  });
  deps.crash("during-reconciliation", { unit: effect.unit, tool: effect.tool });
  if (effect.state === "PREPARED") {
    await store.updateEffect(
      effect.id,
      ["PREPARED"],
      { state: "FAILED", error: "never started", resolvedAt: now(), held: undefined }, // a held request's display copy goes too
      ev("effect-reconciled", { outcome: "never-started" }),
    );
    return "absent";
  }
  const tool = toolOf(plan, effect.tool);
  const from: EffectRecord["state"][] = ["STARTED", "UNKNOWN"];
  if (!tool || tool.class === "read") {
    await store.updateEffect(
      effect.id,
      from,
      { state: "FAILED", error: "read interrupted", resolvedAt: now() },
      ev("effect-reconciled", { outcome: "read-retry" }),
    );
    return "absent";
  }
  const lookupName = tool.lookup;
  const lookup = lookupName ? ownEntry(deps.handlers.tools, lookupName) : undefined;
  if (lookupName && lookup && effect.key !== undefined) {
    let found: unknown;
    try {
      found = await lookup.call({ key: effect.key }, lookupCallMeta(effect, effect.key, deps.tokenFor?.(effect)));
    } catch (err) {
      const message = safeErrorText(err, [effect.key]);
      await store.updateEffect(
        effect.id,
        from,
        { state: "UNKNOWN", lookupUsed: lookupName, error: `lookup failed: ${message}` },
        ev("effect-reconcile-failed", { lookup: lookupName }),
      );
      await holdUnknown(deps, effect, `lookup ${lookupName} failed (${message})`);
      return "blocked";
    }
    const answer = classifyLookupAnswer(tool, lookupName, found);
    if (answer.kind === "invalid") {
      await store.updateEffect(
        effect.id,
        from,
        { state: "UNKNOWN", lookupUsed: lookupName, error: answer.why },
        ev("effect-reconcile-failed", { lookup: lookupName, outcome: "invalid-answer" }),
      );
      await holdUnknown(deps, effect, answer.why);
      return "blocked";
    }
    // What the lookup answers becomes the receipt the unit's re-run gets: kept as the ledger keeps a call's.
    const kept = answer.kind === "found" ? keptReceipt(tool, found) : undefined;
    if (kept?.kind === "invalid") {
      await store.updateEffect(
        effect.id,
        from,
        { state: "UNKNOWN", lookupUsed: lookupName, error: kept.why },
        ev("effect-reconcile-failed", { lookup: lookupName, outcome: "invalid-answer" }),
      );
      await holdUnknown(deps, effect, kept.why);
      return "blocked";
    }
    if (kept) {
      const compensation = renderCompensation(tool, found, { ...deps.envFor(effect), iteration: effect.iteration ?? 1 });
      const remoteId = remoteIdOf(tool, found);
      await store.updateEffect(
        effect.id,
        from,
        {
          state: "COMMITTED",
          receipt: kept.receipt,
          lookupUsed: lookupName,
          resolvedAt: now(),
          ...(remoteId ? { remoteId } : {}),
          ...(compensation ? { compensation } : {}),
        },
        ev("effect-reconciled", {
          outcome: "found",
          lookup: lookupName,
          remoteId,
          ...(kept.trimmed ? { receiptTrimmed: kept.trimmed } : {}),
        }),
      );
      return "committed";
    }
    if (tool.class === "irreversible") {
      await store.updateEffect(
        effect.id,
        from,
        { state: "UNKNOWN", lookupUsed: lookupName },
        ev("effect-reconcile-failed", { lookup: lookupName, outcome: "absent-irreversible" }),
      );
      await holdUnknown(
        deps,
        effect,
        `lookup ${lookupName} found nothing, but ${effect.tool} is irreversible: a person must confirm before any retry`,
      );
      return "blocked";
    }
    await store.updateEffect(
      effect.id,
      from,
      { state: "FAILED", lookupUsed: lookupName, error: "confirmed absent by lookup", resolvedAt: now() },
      ev("effect-reconciled", { outcome: "absent", lookup: lookupName }),
    );
    return "absent";
  }
  if (tool.class === "idempotent") {
    await store.updateEffect(
      effect.id,
      from,
      { state: "FAILED", error: "outcome unknown; idempotent: the retry repeats it under the same key", resolvedAt: now() },
      ev("effect-reconciled", { outcome: "retry-same-key" }),
    );
    return "absent";
  }
  await store.updateEffect(effect.id, from, { state: "UNKNOWN" }, ev("effect-reconcile-failed", { outcome: "no-lookup" }));
  await holdUnknown(deps, effect, `${effect.tool} (${tool.class}) has no lookup to resolve its outcome`);
  return "blocked";
}

async function holdUnknown(deps: ReconcileDeps, effect: EffectRecord, why: string): Promise<void> {
  const detail = `effect ${effect.id} (${effect.intent}${effect.key ? `, key ${effect.key}` : ""}) is UNKNOWN: ${why}; check the remote, then \`taskspec resolve ${effect.run} ${effect.id} --committed|--absent\``;
  await deps.store.setUnitHold(
    effect.run,
    effect.unit,
    { reason: "unknown-effect", detail, at: deps.now(), data: { effect: effect.id } },
    {
      at: deps.now(),
      type: "blocked",
      unit: effect.unit,
      data: { reason: "unknown-effect", effect: effect.id },
    },
  );
}
