/**
 * Approvals bind what they release. A gate in front of an
 * irreversible call does not stop its unit before it runs: the unit runs up
 * to the call, the ledger records the rendered request as a PREPARED effect
 * that waits (`held`), and the run blocks. The person approving sees exactly
 * that request (`taskspec approve --dry-run`); the approval binds its request
 * hash, the digests of the gate unit's inputs and needs, the plan version,
 * scope and expiry. At the call the request is rendered again, and anything
 * different needs a new approval. Pure functions; the ledger and the engine
 * use them.
 */
import type { Plan, PlanUnit } from "@taskspec/compiler";
import type { Approval, HeldRequest, RedactedRequest } from "../model/facts.js";
import { RuntimeError } from "../errors.js";
import { canonicalJson, sha256 } from "../model/identity.js";
import { differingArgs, safeMessage, SECRET_MASK, type ToolMarks } from "./redact.js";

/** Does this gate unit prepare its irreversible calls (run up to them, then wait), rather than wait before it runs? */
export function preparesAtCall(plan: Plan, unit: PlanUnit): boolean {
  return unit.approval !== undefined && unit.uses.some((t) => plan.tools.find((x) => x.name === t)?.class === "irreversible");
}

/** The values a gate unit's call is rendered from, as digests: each declared input and each need. */
export interface GateValues {
  inputs: Record<string, string>;
  needs: Record<string, string>;
  planVersion: string;
}

/** Digest of one value the gate reads (sha256 of its canonical JSON). */
/** What a held request is, as messages say it (the request's shape and hash, never its values). */
export function preparedText(unit: string, intent: string, key: string | undefined, requestHash: string): string {
  return (
    `unit ${unit} prepared ${intent}${key !== undefined ? ` under key ${JSON.stringify(key)}` : ""} ` +
    `(request sha256 ${requestHash.slice(0, 16)}) and waits for an approval bound to it`
  );
}

export const valueDigest = (value: unknown): string => sha256(canonicalJson(value ?? null));

/**
 * The request for the person who approves: each string leaf made safe the way
 * the ledger stores messages (credential-shaped text masked, bounded);
 * an argument the contract marks `secret` is shown as `***`, and known
 * secret values inside the others are too;
 * `masked` names the arguments that redaction changed. The request hash
 * covers the exact values.
 */
export function displayRequest(
  tool: string,
  args: Record<string, unknown>,
  key?: string,
  marks?: ToolMarks,
  secrets: Iterable<string> = [],
): HeldRequest["display"] {
  const masked: string[] = [];
  const shown: Record<string, unknown> = {};
  const known = [...secrets];
  for (const name of Object.keys(args).sort()) {
    if (marks?.secretArgs?.includes(name)) {
      // a secret argument is never shown, not even masked in part
      shown[name] = SECRET_MASK;
      masked.push(name);
      continue;
    }
    let changed = false;
    const safe = (v: unknown, depth: number): unknown => {
      if (typeof v === "string") {
        const s = safeMessage(v, [], known);
        if (s !== v) changed = true;
        return s;
      }
      if (v === null || typeof v !== "object") return v ?? null;
      if (depth > 8) return ((changed = true), "[…]");
      if (Array.isArray(v)) return v.map((x) => safe(x, depth + 1));
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, safe(x, depth + 1)]));
    };
    shown[name] = safe(args[name], 0);
    if (changed) masked.push(name);
  }
  return { tool, args: shown, ...(key !== undefined ? { key } : {}), ...(masked.length ? { masked } : {}) };
}

/** What a call is about to send and the values it was rendered from. */
export interface CallNow {
  tool: string;
  key?: string;
  requestHash: string;
  request: RedactedRequest;
  values: GateValues;
  now: string;
}

function valueChanges(kind: "input" | "need", was: Record<string, string>, now: Record<string, string>): string[] {
  const names = [...new Set([...Object.keys(was), ...Object.keys(now)])].sort();
  return names.filter((n) => was[n] !== now[n]).map((n) => `${kind} ${n} changed (${short(was[n])} → ${short(now[n])})`);
}

const short = (d: string | undefined) => (d ? `sha256:${d.slice(0, 12)}` : "none");

function requestChange(tool: string, wasHash: string, was: RedactedRequest | undefined, now: CallNow): string[] {
  if (tool !== now.tool) return [`tool ${tool} → ${now.tool}`];
  if (wasHash === now.requestHash) return [];
  const differ = was ? differingArgs(was, now.request) : [];
  return [
    `the request changed (sha256 ${wasHash.slice(0, 16)} → ${now.requestHash.slice(0, 16)}${differ.length ? `; it differs in ${differ.join(", ")}` : ""})`,
  ];
}

/** Why an approval does not release this call: empty when it does. */
export function bindingMismatch(a: Approval, call: CallNow): string[] {
  const out: string[] = [];
  if (!a.binding) return [`approval ${a.id} was granted before the request was prepared; it binds no request`];
  if (a.revokedAt) out.push(`approval ${a.id} was revoked at ${a.revokedAt}`);
  if (a.expiresAt <= call.now) out.push(`approval ${a.id} expired at ${a.expiresAt}`);
  if (a.planVersion !== call.values.planVersion)
    out.push(`the plan version changed (approved for ${a.planVersion}, the run is at ${call.values.planVersion})`);
  const scope = a.scope.split(",").map((s) => s.trim());
  if (a.scope !== "unit" && !scope.includes(`tool:${call.tool}`)) out.push(`scope ${a.scope} does not cover tool ${call.tool}`);
  if ((a.binding.key ?? "") !== (call.key ?? "")) out.push(`the key changed (${a.binding.key ?? "none"} → ${call.key ?? "none"})`);
  out.push(...requestChange(a.binding.tool, a.binding.requestHash, a.binding.request, call));
  out.push(...valueChanges("input", a.binding.inputs, call.values.inputs));
  out.push(...valueChanges("need", a.binding.needs, call.values.needs));
  return out;
}

/** How a prepared (held) request differs from what the call renders now: empty when it is the same. */
export function heldDifferences(
  held: { tool: string; key?: string; requestHash?: string; request?: RedactedRequest; held?: HeldRequest },
  call: CallNow,
): string[] {
  const h = held.held;
  if (!h) return ["not a prepared request"];
  const out: string[] = [];
  if (h.planVersion !== call.values.planVersion)
    out.push(`the plan version changed (prepared under ${h.planVersion}, the run is at ${call.values.planVersion})`);
  if ((held.key ?? "") !== (call.key ?? "")) out.push(`the key changed (${held.key ?? "none"} → ${call.key ?? "none"})`);
  out.push(...requestChange(held.tool, held.requestHash ?? "", held.request, call));
  out.push(...valueChanges("input", h.inputs, call.values.inputs));
  out.push(...valueChanges("need", h.needs, call.values.needs));
  return out;
}

/** `send(body=…, to="ada@example.org")`: a prepared request as the approver reads it. */
export function showDisplay(d: HeldRequest["display"]): string {
  return `${d.tool}(${Object.entries(d.args)
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(", ")})`;
}

/**
 * Thrown by the ledger when a gate's irreversible call has no approval bound
 * to exactly this request: the request is recorded PREPARED (held) and the
 * attempt ends blocked on the approval, neither a failure nor a retry.
 */
export class ApprovalHeldError extends RuntimeError {
  override readonly name = "ApprovalHeldError";
  constructor(
    readonly unit: string,
    readonly effectId: string,
    message: string,
  ) {
    super(message);
  }
}
