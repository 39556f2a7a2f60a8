/**
 * Operator decisions. Each one is first a preview (what would be reused, what
 * invalidated or undone) and then a recorded decision event; none edits state
 * behind the engine's back: re-runs are checkpoint commits, budget raises and
 * resolutions are store operations with events.
 */
import { grantApproval, newOperatorKey, operatorOfKey } from "../engine/approvals.js";
import { sha256 } from "../model/identity.js";
import { invalidateFrom } from "../engine/invalidate.js";
import { InvalidTransitionError, NotFoundError } from "../errors.js";
import type { PersonConfirmedReceipt } from "../handler-api.js";
import type { Approval, BudgetAmounts } from "../model/facts.js";
import { BUDGET_NAMES } from "../model/facts.js";
import type { Store, UnitChange } from "../store/types.js";
import { loadPlanOf } from "./status.js";

export { cancel, previewCancel, type CancelDeps, type CancelReport } from "./cancel.js";

export interface Preview {
  action: string;
  reuse: string[];
  invalidate: Array<{ unit: string; why: string }>;
  /** Effects a cancel compensates; `first` says what happens before (a wait, a lookup, reading the receipt). */
  undo?: Array<{ effect: string; intent: string; compensator: string; first?: string }>;
  /** Effects nothing will undo, each with why. */
  cannotUndo?: Array<{ effect: string; intent: string; why: string }>;
  notes: string[];
}

async function succeeded(store: Store, run: string): Promise<string[]> {
  return (await store.loadFacts(run)).units.filter((u) => u.state === "succeeded").map((u) => u.unit);
}

const decisionEvent = (now: string, action: string, by: string, data: Record<string, unknown>) => ({
  at: now,
  type: "decision",
  data: { action, by, ...data },
});

export async function previewApprove(store: Store, run: string, unit: string): Promise<Preview> {
  const plan = await loadPlanOf(store, run);
  const gate = plan.units.find((u) => u.id === unit);
  if (!gate) throw new NotFoundError(`run ${run} has no unit ${unit}`);
  if (!gate.approval) throw new InvalidTransitionError(`unit ${unit} has no approval gate`);
  return {
    action: `approve ${unit}`,
    reuse: await succeeded(store, run),
    invalidate: [],
    notes: [
      `releases the ${gate.approval} gate of ${unit} for plan ${(await store.getRun(run))!.planVersion} and its current input artifacts`,
    ],
  };
}

/**
 * Grants an approval of a gate: needs `token` (the gate's resume token) or
 * `operatorKey` (an operator identity of this store); see engine/approvals.ts.
 */
export async function approve(
  store: Store,
  req: { run: string; unit: string; by: string; token?: string; operatorKey?: string; scope?: string; expiresInMs: number; now: string },
): Promise<Approval> {
  const plan = await loadPlanOf(store, req.run);
  const r = await store.getRun(req.run);
  if (!r) throw new NotFoundError(`no run ${req.run} in this store`);
  const approval = await grantApproval(store, plan, { ...req, planVersion: r.planVersion });
  await store.appendEvents(req.run, [
    {
      ...decisionEvent(req.now, "approve", approval.grantedBy, {
        approval: approval.id,
        scope: approval.scope,
        expiresAt: approval.expiresAt,
      }),
      unit: req.unit,
    },
  ]);
  return approval;
}

export async function previewRerun(
  store: Store,
  run: string,
  unit: string,
  reason = "operator re-run",
): Promise<{ preview: Preview; changes: UnitChange[] }> {
  const plan = await loadPlanOf(store, run);
  if (!plan.units.some((u) => u.id === unit)) throw new NotFoundError(`run ${run} has no unit ${unit}`);
  const facts = await store.loadFacts(run);
  const row = facts.units.find((u) => u.unit === unit);
  const r = facts.run;
  let changes: UnitChange[];
  if (row?.state === "succeeded") changes = invalidateFrom(plan, r.planVersion, unit, reason, facts.units);
  else changes = [{ kind: "reset", unit }];
  const touched = new Set(changes.map((c) => c.unit));
  return {
    preview: {
      action: `rerun ${unit}`,
      reuse: facts.units.filter((u) => u.state === "succeeded" && !touched.has(u.unit)).map((u) => u.unit),
      invalidate: changes.map((c) => ({
        unit: c.unit,
        why:
          c.kind === "supersede"
            ? `${c.info.path}${c.info.direct ? "" : " (kept if its inputs hash the same: early cutoff)"}`
            : "reset: attempts and failures cleared",
      })),
      notes: [],
    },
    changes,
  };
}

export async function rerun(store: Store, run: string, unit: string, by: string, now: string, reason?: string): Promise<Preview> {
  const { preview, changes } = await previewRerun(store, run, unit, reason);
  const r = (await store.getRun(run))!;
  await store.commitCheckpoint(run, r.version, {
    kind: "decision",
    changes,
    approvals: [],
    nextAction: { kind: "run", units: [unit] },
    ...(r.status === "failed" || r.status === "done" ? { status: "active" as const } : {}),
    events: [decisionEvent(now, "rerun", by, { unit, invalidate: preview.invalidate.map((i) => i.unit), ...(reason ? { reason } : {}) })],
    now,
  });
  if (r.hold?.reason === "no-safe-action")
    await store.setRunHold(run, null, { at: now, type: "unblocked", data: { reason: r.hold.reason, by, via: "rerun" } });
  return preview;
}

export function parseCaps(specs: readonly string[]): BudgetAmounts {
  const caps: BudgetAmounts = {};
  for (const spec of specs) {
    const m = /^([a-z_]+)=(\d+(?:\.\d+)?)$/.exec(spec.trim());
    if (!m || !(BUDGET_NAMES as readonly string[]).includes(m[1]!))
      throw new InvalidTransitionError(
        `bad cap ${JSON.stringify(spec)}: write <budget>=<number> with budget one of ${BUDGET_NAMES.join(", ")}`,
      );
    const value = Number(m[2]);
    if (!Number.isSafeInteger(value))
      throw new InvalidTransitionError(`bad cap ${JSON.stringify(spec)}: a cap is a whole number up to ${Number.MAX_SAFE_INTEGER}`);
    caps[m[1] as keyof BudgetAmounts] = value;
  }
  return caps;
}

export async function previewBudget(store: Store, run: string, caps: BudgetAmounts): Promise<Preview> {
  const r = await store.getRun(run);
  if (!r) throw new NotFoundError(`no run ${run} in this store`);
  const notes = Object.entries(caps).map(
    ([k, v]) => `${k}: cap ${r.caps[k as keyof BudgetAmounts] ?? "none"} -> ${v} (used ${r.budgetUsed[k as keyof BudgetAmounts] ?? 0})`,
  );
  if (r.hold?.reason === "budget") notes.push(`lifts the budget block: ${r.hold.detail}`);
  return { action: "budget raise", reuse: await succeeded(store, run), invalidate: [], notes };
}

export async function setBudget(store: Store, run: string, caps: BudgetAmounts, by: string, reason: string, now: string): Promise<Preview> {
  const preview = await previewBudget(store, run, caps);
  const r = (await store.getRun(run))!;
  await store.setCaps(run, caps, decisionEvent(now, "budget-raise", by, { from: r.caps, to: { ...r.caps, ...caps }, reason }));
  const after = (await store.getRun(run))!;
  if (after.hold?.reason === "budget") {
    const d = after.hold.data ?? {};
    const name = String(d.budget ?? "") as keyof BudgetAmounts;
    const cap = after.caps[name];
    if (cap === undefined || (after.budgetUsed[name] ?? 0) + Number(d.requested ?? 0) <= cap) {
      await store.setRunHold(run, null, { at: now, type: "unblocked", data: { reason: "budget", by } });
    }
  }
  return preview;
}

/**
 * The contract and/or handler module the run uses from now on (`resume
 * --contract`, `run` on an existing run). Only what differs from the recorded
 * origin is recorded, as one decision; returns what changed (empty: nothing).
 */
export async function setOrigin(
  store: Store,
  run: string,
  origin: { contract?: string; handlers?: string; verifiers?: string },
  by: string,
  now: string,
): Promise<Array<{ key: "contract" | "handlers" | "verifiers"; from?: string; to: string }>> {
  const r = await store.getRun(run);
  if (!r) throw new NotFoundError(`no run ${run} in this store`);
  const changed = (["contract", "handlers", "verifiers"] as const).flatMap((key) => {
    const to = origin[key];
    return to !== undefined && to !== r.origin[key] ? [{ key, ...(r.origin[key] ? { from: r.origin[key] } : {}), to }] : [];
  });
  if (changed.length === 0) return [];
  const patch = Object.fromEntries(changed.map((c) => [c.key, c.to]));
  await store.setRunOrigin(run, patch, decisionEvent(now, "origin", by, { changed }));
  return changed;
}

/** An operator's verdict on an UNKNOWN effect after checking the remote by hand. */
export async function resolveEffect(
  store: Store,
  run: string,
  effectId: string,
  outcome: "committed" | "absent",
  by: string,
  now: string,
  remoteId?: string,
): Promise<void> {
  const effect = (await store.listEffects(run)).find((e) => e.id === effectId);
  if (!effect) throw new NotFoundError(`run ${run} has no effect ${effectId}`);
  const ev = { at: now, type: "decision", unit: effect.unit, data: { action: "resolve-effect", by, effect: effectId, outcome } };
  if (outcome === "committed")
    await store.updateEffect(
      effectId,
      ["UNKNOWN", "STARTED"],
      {
        state: "COMMITTED",
        resolvedAt: now,
        lookupUsed: `operator:${by}`,
        receipt: { confirmed_by_person: by, ...(remoteId ? { remote_id: remoteId } : {}) } satisfies PersonConfirmedReceipt,
        ...(remoteId ? { remoteId } : {}),
      },
      ev,
    );
  else
    await store.updateEffect(
      effectId,
      ["UNKNOWN", "STARTED"],
      { state: "FAILED", resolvedAt: now, error: `confirmed absent by ${by}` },
      ev,
    );
  await store.setUnitHold(run, effect.unit, null, {
    at: now,
    type: "unblocked",
    unit: effect.unit,
    data: { reason: "unknown-effect", effect: effectId },
  });
}

/** Names of operator identities: letters, digits and `._@-`, at most 64 characters. */
export const OPERATOR_NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.@-]{0,63}$/;

/**
 * Creates an operator identity: a new random key whose sha256 the store keeps
 * under `name`; returns the key (shown once, never stored). The first
 * identity of a store needs nothing; every later one needs the key of an
 * existing operator (`by`), so access to the store alone does not make
 * operators.
 */
export async function initOperator(store: Store, name: string, now: string, byKey?: string): Promise<{ name: string; key: string }> {
  if (!OPERATOR_NAME_PATTERN.test(name))
    throw new InvalidTransitionError(
      `operator name ${JSON.stringify(name)} is not a name: letters, digits and ._@-, at most 64 characters`,
    );
  if ((await store.countOperators()) > 0) {
    if (byKey === undefined)
      throw new InvalidTransitionError(
        "this store has operators already: a new one needs an existing operator's key (--operator-key-file)",
      );
    if (!(await operatorOfKey(store, byKey))) throw new InvalidTransitionError("the operator key given is not one this store knows");
  }
  const key = newOperatorKey();
  await store.addOperator({ name, keyHash: sha256(key), createdAt: now });
  return { name, key };
}
