/**
 * Approvals bind run, gate unit, plan version (contract version), the hashes
 * of the artifacts the gate will read, scope and expiry. If any of those
 * changes the old approval no longer applies. Resume tokens are single-use,
 * expire, and do nothing but release their gate.
 *
 * Granting needs authority, not just access to the store: the gate's resume
 * token (single use, for that run and gate only: a token tried on another
 * gate is refused and stays valid), or the key of an operator identity the
 * store knows (`taskspec store init-operator`: only the key's sha256 is
 * stored), whose name the approval then carries. A name alone (`--by`) is
 * never enough.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { Plan } from "@taskspec/compiler";
import { OperatorKeyError, ResumeTokenError, RuntimeError } from "../errors.js";
import type { Approval, EffectRecord } from "../model/facts.js";
import { sha256 } from "../model/identity.js";
import type { RunFacts, Store } from "../store/types.js";
import { bindingMismatch, preparedText, preparesAtCall, valueDigest, type CallNow } from "../ledger/approval-binding.js";

/** `${need}/${artifact}` -> sha256 of every current artifact the gate unit reads. */
export async function gateInputHashes(store: Store, plan: Plan, run: string, unit: string): Promise<Record<string, string>> {
  const u = plan.units.find((x) => x.id === unit);
  const hashes: Record<string, string> = {};
  for (const need of u?.needs ?? []) {
    if (need.nodeType !== "unit") continue;
    const [rec] = await store.getRecords(run, { unit: need.node, status: "current" });
    if (!rec) continue;
    for (const a of await store.listArtifacts(run, { recordId: rec.id })) hashes[`${need.node}/${a.name}`] = a.sha256;
  }
  return hashes;
}

export function sameHashes(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

/** Why an approval does not apply now, or undefined when it does. */
export function approvalMismatch(
  a: Approval,
  want: { run: string; unit: string; planVersion: string; hashes: Record<string, string>; now: string; tool?: string },
): string | undefined {
  if (a.run !== want.run || a.unit !== want.unit) return "granted for another gate";
  if (a.revokedAt) return `revoked at ${a.revokedAt}`;
  if (a.expiresAt <= want.now) return `expired at ${a.expiresAt}`;
  if (a.planVersion !== want.planVersion) return `granted for plan version ${a.planVersion}, the run is at ${want.planVersion}`;
  if (!sameHashes(a.artifactHashes, want.hashes)) return "granted for other input artifacts (their hashes changed since)";
  if (
    want.tool &&
    a.scope !== "unit" &&
    !a.scope
      .split(",")
      .map((s) => s.trim())
      .includes(`tool:${want.tool}`)
  )
    return `scope ${a.scope} does not cover tool ${want.tool}`;
  return undefined;
}

export async function currentApproval(
  store: Store,
  plan: Plan,
  run: string,
  unit: string,
  planVersion: string,
  now: string,
  tool?: string,
): Promise<Approval | undefined> {
  const approvals = (await store.listApprovals(run)).filter((a) => a.unit === unit);
  if (approvals.length === 0) return undefined;
  const hashes = await gateInputHashes(store, plan, run, unit);
  return approvals.find((a) => approvalMismatch(a, { run, unit, planVersion, hashes, now, ...(tool ? { tool } : {}) }) === undefined);
}

/** The requests a gate unit prepared that wait for a person (PREPARED, held), oldest first. */
export function heldRequests(effects: readonly EffectRecord[], unit: string): EffectRecord[] {
  return effects.filter((e) => e.unit === unit && e.state === "PREPARED" && e.held !== undefined);
}

/**
 * Why each approval bound to this held request does not release it now (the
 * call's own check, approval-binding.ts `bindingMismatch`, against the request
 * as it was prepared: revoked, expired, another plan version, a scope that does
 * not cover the tool, ...): an approval the call would refuse never opens the
 * gate, so the unit is not run again and again to be refused each time.
 */
export function heldApprovals(
  approvals: readonly Approval[],
  held: EffectRecord,
  planVersion: string,
  now: string,
): Array<{ approval: Approval; mismatch: string[] }> {
  const call: CallNow = {
    tool: held.tool,
    ...(held.key !== undefined ? { key: held.key } : {}),
    requestHash: held.requestHash ?? held.argsDigest,
    request: held.request ?? { tool: held.tool, args: {} },
    values: { inputs: held.held?.inputs ?? {}, needs: held.held?.needs ?? {}, planVersion },
    now,
  };
  return approvals
    .filter((a) => a.binding?.effect === held.id)
    .map((approval) => ({ approval, mismatch: bindingMismatch(approval, call) }));
}

/** An approval that releases this held request now: bound to it, and the call's check finds nothing that differs. */
export function approvalOfHeld(approvals: readonly Approval[], held: EffectRecord, planVersion: string, now: string): Approval | undefined {
  return heldApprovals(approvals, held, planVersion, now).find((x) => x.mismatch.length === 0)?.approval;
}

/**
 * Which gates are open for the scheduler now, and the approvals that open
 * them. A gate in front of an irreversible call (preparesAtCall) is open
 * while it has prepared nothing for this plan version, so its unit runs up
 * to the call, and when each request it prepared has an approval bound to
 * it (the call checks the binding again); closed, it says what waits. Any
 * other gate opens with a current approval (run, gate, plan version, input
 * artifact hashes).
 */
export async function openGates(
  store: Store,
  plan: Plan,
  run: string,
  planVersion: string,
  facts: Pick<RunFacts, "units" | "openEffects" | "approvals">,
  now: string,
): Promise<{ gates: Set<string>; approvalIds: string[]; details: Map<string, string> }> {
  const gates = new Set<string>();
  const approvalIds: string[] = [];
  const details = new Map<string, string>();
  const states = new Map(facts.units.map((u) => [u.unit, u.state]));
  for (const u of plan.units) {
    if (!u.approval || states.get(u.id) === "succeeded") continue;
    if (preparesAtCall(plan, u)) {
      const held = heldRequests(facts.openEffects, u.id);
      if (held.length === 0 || held.some((e) => e.held!.planVersion !== planVersion)) {
        gates.add(u.id); // nothing prepared for this plan version: the unit runs up to its call
        continue;
      }
      const bound = held.map((e) => approvalOfHeld(facts.approvals, e, planVersion, now));
      if (bound.every((a) => a !== undefined)) {
        gates.add(u.id);
        approvalIds.push(...bound.map((a) => a.id));
      } else details.set(u.id, heldDetail(run, u.id, held, facts.approvals, planVersion, now));
      continue;
    }
    const a = facts.approvals.length ? await currentApproval(store, plan, run, u.id, planVersion, now) : undefined;
    if (a) {
      gates.add(u.id);
      approvalIds.push(a.id);
    }
  }
  return { gates, approvalIds, details };
}

/** Why a gate with prepared requests waits: what it will send (shape and hash, no values) and what changed. */
function heldDetail(
  run: string,
  unit: string,
  held: readonly EffectRecord[],
  approvals: readonly Approval[],
  planVersion: string,
  now: string,
): string {
  const e = held.at(-1)!;
  const changed = e.held?.changed ?? [];
  // an approval granted for this request that does not apply: the run blocks with its reason, it does not retry
  const refused = heldApprovals(approvals, e, planVersion, now)
    .filter((x) => x.mismatch.length > 0)
    .map((x) => `approval ${x.approval.id} does not apply: ${x.mismatch.join("; ")}`);
  return (
    preparedText(unit, e.intent, e.key, e.requestHash ?? e.argsDigest) +
    (refused.length ? `; ${refused.join("; ")}` : "") +
    (changed.length ? `; a new approval is needed: ${changed.join("; ")}` : "") +
    `; \`taskspec approve ${run} ${unit} --dry-run\` shows what will be sent`
  );
}

/** What a prepared gate will send and what an approval of it binds: `approve --dry-run` and `status` show it. */
export interface PreparedRequest {
  unit: string;
  effect: string;
  tool: string;
  key?: string;
  /** sha256 of the canonical request (tool and exact arguments): what the approval binds. */
  requestHash: string;
  /** The arguments as they will be sent (strings made safe by the ledger's redaction; `masked` names those it changed). */
  args: Record<string, unknown>;
  masked?: string[];
  /** Digests of the gate unit's declared inputs and needs, each and together. */
  inputs: Record<string, string>;
  needs: Record<string, string>;
  inputsDigest: string;
  needsDigest: string;
  /** The plan version it was rendered under, and the run's now (the approval binds the run's). */
  renderedUnder: string;
  planVersion: string;
  preparedAt: string;
  /** What differed from the approval or prepared request it replaced. */
  changed?: string[];
  /** An approval bound to it that applies now, if any. */
  approvedBy?: { id: string; by: string; expiresAt: string };
}

/** The requests prepared at the run's gates that wait (or were approved and wait for `resume`). */
export async function preparedRequests(store: Store, run: string, now: string, unit?: string): Promise<PreparedRequest[]> {
  const r = await store.getRun(run);
  if (!r) return [];
  const effects = await store.listEffects(run, { ...(unit ? { unit } : {}), states: ["PREPARED"] });
  const approvals = await store.listApprovals(run);
  return effects
    .filter((e) => e.held !== undefined)
    .map((e) => {
      const h = e.held!;
      const a = approvalOfHeld(approvals, e, r.planVersion, now);
      return {
        unit: e.unit,
        effect: e.id,
        tool: e.tool,
        ...(e.key !== undefined ? { key: e.key } : {}),
        requestHash: e.requestHash ?? e.argsDigest,
        args: h.display.args,
        ...(h.display.masked?.length ? { masked: h.display.masked } : {}),
        inputs: h.inputs,
        needs: h.needs,
        inputsDigest: valueDigest(h.inputs),
        needsDigest: valueDigest(h.needs),
        renderedUnder: h.planVersion,
        planVersion: r.planVersion,
        preparedAt: e.preparedAt,
        ...(h.changed?.length ? { changed: h.changed } : {}),
        ...(a ? { approvedBy: { id: a.id, by: a.grantedBy, expiresAt: a.expiresAt } } : {}),
      };
    });
}

/** Issues a resume token for a gate; only its hash is stored. Returns the token to hand to the approver. */
export async function issueResumeToken(
  store: Store,
  run: string,
  unit: string,
  now: string,
  ttlMs: number,
): Promise<{ token: string; expiresAt: string }> {
  const token = `rt_${randomBytes(18).toString("base64url")}`;
  const expiresAt = new Date(Date.parse(now) + ttlMs).toISOString();
  await store.issueResumeToken(sha256(token), { run, unit, expiresAt, createdAt: now });
  return { token, expiresAt };
}

/** An operator key as `store init-operator` makes it: `tso_` and 32 random bytes, base64url. */
export function newOperatorKey(): string {
  return `tso_${randomBytes(32).toString("base64url")}`;
}

/** The operator identity whose key this is, or undefined. */
export async function operatorOfKey(store: Store, key: string): Promise<{ name: string } | undefined> {
  const k = key.trim();
  return k ? store.findOperator(sha256(k)) : undefined;
}

export interface GrantRequest {
  run: string;
  unit: string;
  planVersion: string;
  /** A resume token: consumed (single use); must belong to this run and gate. */
  token?: string;
  /** An operator key (instead of a token): must be one the store knows; the approval carries its name. */
  operatorKey?: string;
  /** Who approves: with a token, the name given; with an operator key, the identity's name wins. */
  by: string;
  scope?: string;
  expiresInMs: number;
  now: string;
}

/** The authority an approval is granted under: the gate's resume token (consumed) or an operator key (its identity's name). */
async function authorityOf(store: Store, req: GrantRequest): Promise<{ by: string; via: "token" | "operator" }> {
  let by = req.by;
  let via: "token" | "operator";
  if (req.token !== undefined) {
    // the store checks the gate before it marks the token used: a token for another run or gate stays valid
    await store.consumeResumeToken(sha256(req.token.trim()), req.now, { run: req.run, unit: req.unit });
    via = "token";
  } else if (req.operatorKey !== undefined) {
    const op = await operatorOfKey(store, req.operatorKey);
    if (!op) throw new OperatorKeyError("the operator key is not one this store knows (taskspec store init-operator makes one)");
    by = op.name;
    via = "operator";
  } else
    throw new ResumeTokenError(
      `approving ${req.run}/${req.unit} needs the gate's resume token (--token, printed when the run blocked at the gate) ` +
        "or an operator key this store knows (--operator-key-file; taskspec store init-operator makes one)",
    );
  return { by, via };
}

export async function grantApproval(store: Store, plan: Plan, req: GrantRequest): Promise<Approval> {
  const gate = plan.units.find((u) => u.id === req.unit);
  if (!gate?.approval) throw new ResumeTokenError(`unit ${req.unit} has no approval gate in plan ${req.planVersion}`);
  // A gate in front of an irreversible call releases exactly the request it prepared, nothing else.
  let binding: Approval["binding"];
  if (preparesAtCall(plan, gate)) {
    const prepared = heldRequests(await store.listEffects(req.run, { unit: req.unit, states: ["PREPARED"] }), req.unit).at(-1);
    if (!prepared?.held) {
      // authority first (no proof, or a token of another gate, is refused as ever); then: there is nothing to bind
      await authorityOf(store, req);
      throw new NothingPreparedError(
        `gate ${req.run}/${req.unit} has prepared no request to approve yet: \`taskspec resume ${req.run}\` runs ${req.unit} up to its irreversible call, ` +
          "records what it would send and blocks; then approve that (nothing was approved)",
      );
    }
    binding = {
      effect: prepared.id,
      tool: prepared.tool,
      ...(prepared.key !== undefined ? { key: prepared.key } : {}),
      requestHash: prepared.requestHash ?? prepared.argsDigest,
      ...(prepared.request ? { request: prepared.request } : {}),
      inputs: prepared.held.inputs,
      needs: prepared.held.needs,
    };
  }
  const { by, via } = await authorityOf(store, req);
  const approval: Approval = {
    id: `ap_${randomUUID()}`,
    run: req.run,
    unit: req.unit,
    planVersion: req.planVersion,
    artifactHashes: await gateInputHashes(store, plan, req.run, req.unit),
    scope: req.scope ?? "unit",
    expiresAt: new Date(Date.parse(req.now) + req.expiresInMs).toISOString(),
    grantedBy: by,
    grantedAt: req.now,
    ...(binding ? { binding } : {}),
  };
  await store.grantApproval(approval, {
    at: req.now,
    type: "approval-granted",
    unit: req.unit,
    data: {
      approval: approval.id,
      by,
      scope: approval.scope,
      planVersion: req.planVersion,
      expiresAt: approval.expiresAt,
      via,
      viaToken: via === "token",
      ...(binding ? { effect: binding.effect, requestHash: binding.requestHash } : {}),
    },
  });
  return approval;
}

/** An approval asked for a prepared gate that has prepared nothing yet (or nothing for this plan version). */
export class NothingPreparedError extends RuntimeError {
  override readonly name = "NothingPreparedError";
}
