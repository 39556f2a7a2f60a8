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
 * - receipt: the adapter's answer as JSON keeps it, without the secret
 *   result fields (receipt.ts); cut to the fields the tool's `result`
 *   declares, plus `id`, past its size bound (minimalReceipt).
 * - error message: argument values and the other values the caller knows
 *   to be sensitive removed, credential-shaped text masked, control
 *   characters dropped, at most SAFE_MESSAGE_MAX characters.
 *
 * What the contract marks `secret` (inputs, tool arguments, result fields)
 * is kept even less: no digest of a secret argument, no secret field in a
 * receipt, and the value itself, wherever it would appear in something
 * stored or shown (a message, a unit's result, a verifier's reason), is
 * replaced by SECRET_MASK. What the contract marks `safe` is shown in the
 * intent.
 */
import type { PlanTool } from "@taskspec/compiler";
import type { RedactedRequest } from "../model/facts.js";
import { canonicalJson, sha256 } from "../model/identity.js";
import { describeThrown } from "../model/thrown.js";

/** Longest error message the store keeps. */
export const SAFE_MESSAGE_MAX = 300;
/** Shorter values are not scrubbed from messages (`to=a` would blank every `a`). */
const MIN_SCRUBBED = 4;
const MASK = "[redacted]";
/** What a value the contract marks `secret` is shown as, everywhere. */
export const SECRET_MASK = "***";
/** Longest value of a `safe` argument the intent shows. */
const SAFE_VALUE_MAX = 60;

/** The markings of one tool (the plan's `secretArgs`, `safeArgs`, `secretResult`); absent: none. */
export type ToolMarks = Pick<PlanTool, "secretArgs" | "safeArgs" | "secretResult"> | undefined;

const marked = (list: readonly string[] | undefined, name: string) => list?.includes(name) === true;

/**
 * `tool(arg, arg, ...)`: the call's shape, no values; an argument the
 * contract marks `safe` shows its value (`to=ops@example.com`), clipped and
 * with credential-shaped text masked.
 */
export function intentOf(tool: string, args: Record<string, unknown>, marks?: ToolMarks): string {
  const shown = (name: string) => {
    if (!marked(marks?.safeArgs, name) || marked(marks?.secretArgs, name)) return name;
    const v = args[name];
    const text = safeMessage(typeof v === "string" ? v : (canonicalJson(v ?? null) as string)).replace(/[\n\r\t]/g, " ");
    return `${name}=${text.length > SAFE_VALUE_MAX ? `${text.slice(0, SAFE_VALUE_MAX)}…` : text}`;
  };
  return `${tool}(${Object.keys(args).map(shown).join(", ")})`;
}

/** The sha256 of a call's canonical request: tool name and arguments, canonical JSON. */
export function requestHashOf(tool: string, args: Record<string, unknown>): string {
  return sha256(canonicalJson({ tool, args }));
}

/**
 * A call without its values: each argument replaced by a short digest of its
 * canonical JSON; a `secret` argument by SECRET_MASK (a digest of a short
 * secret, a PIN, is as good as the value to anyone who tries them all).
 */
export function redactedRequest(tool: string, args: Record<string, unknown>, marks?: ToolMarks): RedactedRequest {
  const out: Record<string, string> = {};
  for (const name of Object.keys(args).sort())
    out[name] = marked(marks?.secretArgs, name) ? SECRET_MASK : `sha256:${sha256(canonicalJson(args[name] ?? null)).slice(0, 16)}`;
  return { tool, args: out };
}

/** The string leaves of the call's `secret` arguments. */
export function secretArgValues(args: Record<string, unknown>, marks?: ToolMarks): string[] {
  return (marks?.secretArgs ?? []).flatMap((name) => (Object.hasOwn(args, name) ? stringLeaves(args[name]) : []));
}

/** The string leaves of a receipt's `secret` result fields. */
export function secretResultValues(receipt: unknown, marks?: ToolMarks): string[] {
  if (receipt === null || typeof receipt !== "object" || Array.isArray(receipt)) return [];
  const r = receipt as Record<string, unknown>;
  return (marks?.secretResult ?? []).flatMap((name) => (Object.hasOwn(r, name) ? stringLeaves(r[name]) : []));
}

/** The string leaves of the values of the plan's `secret` inputs. */
export function secretInputValues(plan: { inputs: readonly { name: string; secret?: true }[] }, values: Record<string, unknown>): string[] {
  return plan.inputs.filter((i) => i.secret === true && Object.hasOwn(values, i.name)).flatMap((i) => stringLeaves(values[i.name]));
}

/** The values worth scrubbing (4 characters or more: `to=a` would blank every `a`), longest first so a value inside another goes with it. */
const scrubbable = (values: Iterable<string>): string[] =>
  [...new Set(values)].filter((v) => v.length >= MIN_SCRUBBED).sort((a, b) => b.length - a.length);

/** `text` with each of `values` (from scrubbable) replaced by `mask`. */
function scrub(text: string, values: readonly string[], mask: string): string {
  let out = text;
  for (const value of values) if (out.includes(value)) out = out.split(value).join(mask);
  return out;
}

/** `text` with every known secret value replaced by SECRET_MASK (longest first; values shorter than 4 characters are left). */
export function maskSecrets(text: string, secrets: Iterable<string>): string {
  return scrub(text, scrubbable(secrets), SECRET_MASK);
}

/** A JSON value with every known secret value inside its strings (and keys) replaced by SECRET_MASK. */
export function maskSecretsIn(value: unknown, secrets: Iterable<string>): unknown {
  const list = scrubbable(secrets);
  if (list.length === 0) return value;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return scrub(v, list, SECRET_MASK);
    if (typeof v === "number" && list.includes(String(v))) return SECRET_MASK;
    if (!v || typeof v !== "object" || depth > 64) return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    const out: Record<string, unknown> = {};
    // defined, not assigned: a `__proto__` key stays a field instead of replacing the prototype
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      Object.defineProperty(out, scrub(k, list, SECRET_MASK), {
        value: walk(x, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    return out;
  };
  return walk(value, 0);
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

/** The declared fields of a remote's answer but the secret ones, and `id`: what is left of a receipt over its size bound (receipt.ts). */
export function minimalReceipt(tool: PlanTool, receipt: unknown): unknown {
  if (receipt === null || typeof receipt !== "object" || Array.isArray(receipt)) return typeof receipt === "object" ? null : receipt;
  const source = receipt as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of [...Object.keys(tool.result ?? {}), "id"]) {
    if (marked(tool.secretResult, field)) continue;
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
 * An error message fit for the store: `secrets` (values the contract marks
 * secret) replaced by SECRET_MASK, `known` values (the call's arguments,
 * input values) removed, credential-shaped text masked, control characters
 * dropped, clipped to SAFE_MESSAGE_MAX.
 */
export function safeMessage(message: string, known: readonly string[] = [], secrets: Iterable<string> = []): string {
  let out = scrub(maskSecrets(message, secrets), scrubbable(known), MASK);
  out = out.replace(/(\/\/[^\s/:@]*:)[^\s/@]+@/g, `$1${MASK}@`); // a URL's user:password@
  out = out.replace(CREDENTIALS[0]!, (_m, scheme: string) => `${scheme} ${MASK}`);
  out = out.replace(CREDENTIALS[1]!, (_m, name: string, sep: string) => `${name}${sep}${MASK}`);
  for (const pattern of CREDENTIALS.slice(2)) out = out.replace(pattern, MASK);
  out = out.replace(/[\u0000-\u0008\u000B-\u001F\u007F]/g, "");
  return out.length > SAFE_MESSAGE_MAX ? `${out.slice(0, SAFE_MESSAGE_MAX)}…` : out;
}

/** The safe message of a thrown value (its class is recorded beside it as an ErrorClass). */
export function safeErrorText(err: unknown, known: readonly string[] = [], secrets: Iterable<string> = []): string {
  return safeMessage(describeThrown(err).message, known, secrets);
}
