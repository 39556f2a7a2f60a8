/**
 * What the store keeps of a tool call, and of an error: metadata, never
 * values (design: "no secrets, no raw provider responses"). The seeds ask
 * for inputs by id and hash and errors by class and a safe message; the
 * store used to keep 40-character prefixes of the first four string
 * arguments (an API key, an e-mail, a password in a body), the remote's
 * whole response (cookies, bearer tokens, raw HTML) and whole error
 * messages (an SMTP password).
 *
 * - intent: the tool and its argument names (`send_email(to, subject, body)`);
 *   the values are covered by the argument digest.
 * - request: the tool and, per argument, a digest of its value (never the
 *   value): enough to say which arguments two requests differ in.
 * - receipt: the fields the tool's `result` declares, plus `id` when the
 *   remote names its object so (without a `result`, `id` only).
 * - error message: argument values and the other values the caller knows
 *   to be sensitive removed, credential-shaped text masked, control
 *   characters dropped, at most SAFE_MESSAGE_MAX characters.
 */
import type { PlanTool } from "@taskspec/compiler";
import type { RedactedRequest } from "../model/facts.js";
import { canonicalJson, sha256 } from "../model/identity.js";

/** Longest error message the store keeps. */
export const SAFE_MESSAGE_MAX = 300;
/** Shorter values are not scrubbed from messages (`to=a` would blank every `a`). */
const MIN_SCRUBBED = 4;
const MASK = "[redacted]";

/** `tool(arg, arg, ...)`: the call's shape, no values. */
export function intentOf(tool: string, args: Record<string, unknown>): string {
  return `${tool}(${Object.keys(args).join(", ")})`;
}

/** The sha256 of a call's canonical request: tool name and arguments, canonical JSON. */
export function requestHashOf(tool: string, args: Record<string, unknown>): string {
  return sha256(canonicalJson({ tool, args }));
}

/** A call without its values: each argument replaced by a short digest of its canonical JSON. */
export function redactedRequest(tool: string, args: Record<string, unknown>): RedactedRequest {
  const out: Record<string, string> = {};
  for (const name of Object.keys(args).sort()) out[name] = `sha256:${sha256(canonicalJson(args[name] ?? null)).slice(0, 16)}`;
  return { tool, args: out };
}

/** `tool(a=sha256:…, b=sha256:…)`: a redacted request for messages. */
export function showRequest(request: RedactedRequest): string {
  return `${request.tool}(${Object.entries(request.args)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ")})`;
}

/** The argument names whose values differ between two redacted requests (present in one only included). */
export function differingArgs(a: RedactedRequest, b: RedactedRequest): string[] {
  const names = [...new Set([...Object.keys(a.args), ...Object.keys(b.args)])].sort();
  return names.filter((n) => a.args[n] !== b.args[n]);
}

/** The part of a remote's answer the ledger stores and hands back when an effect is reused. */
export function minimalReceipt(tool: PlanTool, receipt: unknown): unknown {
  if (receipt === null || typeof receipt !== "object" || Array.isArray(receipt)) return typeof receipt === "object" ? null : receipt;
  const source = receipt as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of [...Object.keys(tool.result ?? {}), "id"]) {
    if (Object.prototype.hasOwnProperty.call(source, field) && !(field in kept)) kept[field] = source[field];
  }
  return kept;
}

/** String leaves of a value (arguments, inputs), for scrubbing them out of messages. */
export function stringLeaves(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 8 || out.length > 200) return out;
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number" && String(value).length >= MIN_SCRUBBED) out.push(String(value));
  else if (value && typeof value === "object")
    for (const v of Object.values(value as Record<string, unknown>)) stringLeaves(v, out, depth + 1);
  return out;
}

// credential-shaped text (beside a URL's password): auth headers, key=value pairs named like secrets, JWTs, long tokens
const CREDENTIALS: RegExp[] = [
  /\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  /\b([A-Za-z_-]*(?:pass(?:word|wd)?|secret|token|api[_-]?key|auth\w*|cookie|session|credential)s?)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s,;&]+)/gi,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g,
  /\b[A-Za-z0-9_=-]{32,}/g,
];

/**
 * An error message fit for the store: `known` values (the call's arguments,
 * secret inputs) removed, credential-shaped text masked, control characters
 * dropped, clipped to SAFE_MESSAGE_MAX.
 */
export function safeMessage(message: string, known: readonly string[] = []): string {
  let out = message;
  const values = known.filter((v) => v.length >= MIN_SCRUBBED).sort((a, b) => b.length - a.length);
  for (const value of values) if (out.includes(value)) out = out.split(value).join(MASK);
  out = out.replace(/(\/\/[^\s/:@]*:)[^\s/@]+@/g, `$1${MASK}@`); // a URL's user:password@
  out = out.replace(CREDENTIALS[0]!, (_m, scheme: string) => `${scheme} ${MASK}`);
  out = out.replace(CREDENTIALS[1]!, (_m, name: string, sep: string) => `${name}${sep}${MASK}`);
  for (const pattern of CREDENTIALS.slice(2)) out = out.replace(pattern, MASK);
  out = out.replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, "");
  return out.length > SAFE_MESSAGE_MAX ? `${out.slice(0, SAFE_MESSAGE_MAX)}…` : out;
}

/** The safe message of a thrown value (its class is recorded beside it as an ErrorClass). */
export function safeErrorText(err: unknown, known: readonly string[] = []): string {
  return safeMessage(err instanceof Error ? err.message : String(err), known);
}
