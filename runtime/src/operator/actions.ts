/**
 * Operator decisions. Each one is first a preview (what would be reused, what
 * invalidated or undone) and then a recorded decision event; none edits state
 * behind the engine's back: re-runs are checkpoint commits, budget raises and
 * resolutions are store operations with events.
 */
import { grantApproval, newOperatorKey, operatorOfKey, preparedRequests } from "../engine/approvals.js";
import { preparesAtCall } from "../ledger/approval-binding.js";
import { sha256 } from "../model/identity.js";
import { InvalidTransitionError, NotFoundError, OperatorKeyError } from "../errors.js";
import type { PersonConfirmedReceipt } from "../handler-api.js";
import type { Approval, BudgetAmounts } from "../model/facts.js";
import { BUDGET_NAMES } from "../model/facts.js";
import type { Store } from "../store/types.js";
import { actorOf, type Acting } from "./authority.js";
import { decisionEvent, type Preview } from "./preview.js";
import { checkBasis } from "./basis.js";
import type { Expectation } from "./flag.js";
import { commitRerun, previewRerun } from "./rerun-commit.js";
import { planOfRun } from "./status.js";

export { cancel, previewCancel, type CancelDeps, type CancelReport } from "./cancel.js";
export { actorOf, protectionOf, type Acting, type Actor } from "./authority.js";
export { previewRerun } from "./rerun-commit.js";
export { flag, previewFlag, unflag, previewUnflag, type Expectation } from "./flag.js";
export { branch, previewBranch, type BranchOptions } from "./branch.js";
export { narrow, previewNarrow } from "./narrow.js";
export { basisOf, checkBasis, previewChanges, type PreviewBasis } from "./basis.js";
export type { Preview } from "./preview.js";

async function succeeded(store: Store, run: string): Promise<string[]> {
  return (await store.loadFacts(run)).units.filter((u) => u.state === "succeeded").map((u) => u.unit);
}

export async function previewApprove(store: Store, run: string, unit: string): Promise<Preview> {
  const plan = await planOfRun(store, run);
  const gate = plan.units.find((u) => u.id === unit);
  if (!gate) throw new NotFoundError(`run ${run} has no unit ${unit}`);
  if (!gate.approval) throw new InvalidTransitionError(`unit ${unit} has no approval gate`);
  const planVersion = (await store.getRun(run))!.planVersion;
  if (preparesAtCall(plan, gate)) {
    const prepared = (await preparedRequests(store, run, new Date().toISOString(), unit)).at(-1);
    return {
      action: `approve ${unit}`,
      reuse: await succeeded(store, run),
      invalidate: [],
      ...(prepared ? { prepared } : {}),
      notes: prepared
        ? [
            `releases exactly this request of ${unit}, for plan ${planVersion}: a different request, input or need value, plan version, ` +
              "or an expired approval at the time of the call needs a new approval",
          ]
        : [`${unit} has prepared no request yet: \`taskspec resume ${run}\` runs it up to its irreversible call and blocks with it`],
    };
  }
  return {
    action: `approve ${unit}`,
    reuse: await succeeded(store, run),
    invalidate: [],
    notes: [`releases the ${gate.approval} gate of ${unit} for plan ${planVersion} and its current input artifacts`],
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
  const plan = await planOfRun(store, req.run);
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

/**
 * Re-runs `unit` and what depends on it (superseded, kept), as a decision
 * checkpoint. Needs an operator key when the store has operator identities
 * (operator/authority.ts).
 */
export async function rerun(
  store: Store,
  run: string,
  unit: string,
  acting: Acting,
  now: string,
  reason?: string,
  expected?: Expectation,
): Promise<Preview> {
  const actor = await actorOf(store, acting, `rerun ${run}/${unit}`);
  if (expected) {
    const r = await store.getRun(run);
    if (!r) throw new NotFoundError(`no run ${run} in this store`);
    // the checkpoint is a compare-and-set on this version, so a commit after the check is refused too
    checkBasis(`rerun ${run} ${unit}`, expected, (await previewRerun(store, run, unit)).preview, r.version);
  }
  return commitRerun(store, run, unit, actor, now, reason);
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

/** Sets caps (used amounts are never reset); needs an operator key when the store has operator identities. */
export async function setBudget(
  store: Store,
  run: string,
  caps: BudgetAmounts,
  acting: Acting,
  reason: string,
  now: string,
  expected?: Expectation,
): Promise<Preview> {
  const actor = await actorOf(store, acting, `budget ${run}`);
  const by = actor.by;
  const preview = await previewBudget(store, run, caps);
  const r = (await store.getRun(run))!;
  checkBasis(`budget ${run}`, expected, preview, r.version);
  await store.setCaps(run, caps, decisionEvent(now, "budget-raise", actor, { from: r.caps, to: { ...r.caps, ...caps }, reason }));
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
 * The contract, handler, tools and/or verifier module the run uses from now on (`resume
 * --contract`, `run` on an existing run). Only what differs from the recorded
 * origin is recorded, as one decision; returns what changed (empty: nothing).
 * A change needs an operator key when the store has operator identities;
 * giving the recorded files again needs none.
 */
export async function setOrigin(
  store: Store,
  run: string,
  origin: { contract?: string; handlers?: string; tools?: string; verifiers?: string },
  acting: Acting,
  now: string,
): Promise<Array<{ key: "contract" | "handlers" | "tools" | "verifiers"; from?: string; to: string }>> {
  const r = await store.getRun(run);
  if (!r) throw new NotFoundError(`no run ${run} in this store`);
  const changed = (["contract", "handlers", "tools", "verifiers"] as const).flatMap((key) => {
    const to = origin[key];
    return to !== undefined && to !== r.origin[key] ? [{ key, ...(r.origin[key] ? { from: r.origin[key] } : {}), to }] : [];
  });
  if (changed.length === 0) return [];
  const actor = await actorOf(store, acting, `changing the ${changed.map((c) => c.key).join(" and ")} of run ${run}`);
  const patch = Object.fromEntries(changed.map((c) => [c.key, c.to]));
  await store.setRunOrigin(run, patch, decisionEvent(now, "origin", actor, { changed }));
  return changed;
}

/** What settling an effect would record: the effect as it stands, and what its unit does next. */
export async function previewResolve(store: Store, run: string, effectId: string, outcome: "committed" | "absent"): Promise<Preview> {
  const effect = (await store.listEffects(run)).find((e) => e.id === effectId);
  if (!effect) throw new NotFoundError(`run ${run} has no effect ${effectId}`);
  if (effect.state !== "UNKNOWN" && effect.state !== "STARTED")
    throw new InvalidTransitionError(`effect ${effectId} of ${run} is ${effect.state}, not of unknown outcome; nothing to settle`);
  return {
    action: `resolve ${effectId} as ${outcome}`,
    reuse: await succeeded(store, run),
    invalidate: [],
    notes: [
      `${effect.intent} of unit ${effect.unit} (attempt ${effect.attempt}, ${effect.state} now) is recorded as ` +
        (outcome === "committed"
          ? "COMMITTED, confirmed by you: it is never sent again, and a cancel compensates it"
          : "absent (FAILED): the unit may send it again when it runs"),
      `lifts the unit's unknown-effect block; next: taskspec resume ${run}`,
    ],
  };
}

/**
 * An operator's verdict on an UNKNOWN effect after checking the remote by
 * hand; needs an operator key when the store has operator identities.
 */
export async function resolveEffect(
  store: Store,
  run: string,
  effectId: string,
  outcome: "committed" | "absent",
  acting: Acting,
  now: string,
  remoteId?: string,
  expected?: Expectation,
): Promise<void> {
  const actor = await actorOf(store, acting, `resolve ${run} ${effectId}`);
  const by = actor.by;
  const effect = (await store.listEffects(run)).find((e) => e.id === effectId);
  if (!effect) throw new NotFoundError(`run ${run} has no effect ${effectId}`);
  if (expected) {
    const r = await store.getRun(run);
    if (!r) throw new NotFoundError(`no run ${run} in this store`);
    // the write is a compare-and-set on the effect's state, so a verdict recorded after this check is refused too
    checkBasis(`resolve ${run} ${effectId}`, expected, await previewResolve(store, run, effectId, outcome), r.version);
  }
  const ev = { ...decisionEvent(now, "resolve-effect", actor, { effect: effectId, outcome }), unit: effect.unit };
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
      throw new OperatorKeyError(
        "this store has operators already: a new one needs an existing operator's key (--operator-key-file); nothing was created",
      );
    if (!(await operatorOfKey(store, byKey)))
      throw new OperatorKeyError("the operator key given is not one this store knows; nothing was created");
  }
  const key = newOperatorKey();
  await store.addOperator({ name, keyHash: sha256(key), createdAt: now });
  return { name, key };
}
