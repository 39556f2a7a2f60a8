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
import { OperatorKeyError, ResumeTokenError } from "../errors.js";
import type { Approval } from "../model/facts.js";
import { sha256 } from "../model/identity.js";
import type { Store } from "../store/types.js";

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

export async function grantApproval(store: Store, plan: Plan, req: GrantRequest): Promise<Approval> {
  const gate = plan.units.find((u) => u.id === req.unit);
  if (!gate?.approval) throw new ResumeTokenError(`unit ${req.unit} has no approval gate in plan ${req.planVersion}`);
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
    },
  });
  return approval;
}
