/**
 * The receipt of a side-effecting call: what the ledger stores and what
 * `ctx.tool` hands the handler, the same value on the first call and on every
 * reuse (a retry, a re-run after a crash, an effect recovery adopted from its
 * lookup). A handler that saw one value the first time and another after a
 * crash would write other artifacts, so a crash would change what a run
 * produces.
 *
 * It is the adapter's answer as JSON keeps it (the store keeps JSON text: a
 * Date becomes its ISO string, `undefined` fields and functions go, NaN and
 * Infinity become null, no answer becomes null), without the result fields the
 * contract marks `secret`, and with every secret value the attempt knows
 * inside it replaced by `***`. An answer over RECEIPT_MAX_BYTES is cut to the
 * fields the tool's `result` declares (and `id`), and the commit event says
 * so; an answer JSON cannot hold (a BigInt, a cycle) is not a receipt at all.
 */
import type { PlanTool } from "@taskspec/compiler";
import { maskSecretsIn, minimalReceipt, safeErrorText } from "./redact.js";

/** Largest receipt (UTF-8 bytes of its JSON) the ledger keeps whole. */
export const RECEIPT_MAX_BYTES = 256 * 1024;

export type KeptReceipt = { kind: "kept"; receipt: unknown; trimmed?: { bytes: number; limit: number } } | { kind: "invalid"; why: string };

/** What the ledger keeps of `answer`, the adapter's (or its lookup's) answer for `tool`; `secrets` are the values known to be secret. */
export function keptReceipt(tool: PlanTool, answer: unknown, secrets: Iterable<string> = []): KeptReceipt {
  let text: string | undefined;
  try {
    text = JSON.stringify(answer ?? null);
  } catch (err) {
    return {
      kind: "invalid",
      why: `${tool.name} answered a receipt JSON cannot hold (${safeErrorText(err).replace(/\s+/g, " ")}); the ledger keeps receipts as JSON: answer plain data (no BigInt, no cycles)`,
    };
  }
  // A bare function or symbol stringifies to nothing: no receipt.
  const json: unknown = text === undefined ? null : JSON.parse(text);
  const kept = maskSecretsIn(withoutSecretFields(tool, json), secrets);
  const bytes = Buffer.byteLength(JSON.stringify(kept), "utf8");
  if (bytes <= RECEIPT_MAX_BYTES) return { kind: "kept", receipt: kept };
  return { kind: "kept", receipt: maskSecretsIn(minimalReceipt(tool, json), secrets), trimmed: { bytes, limit: RECEIPT_MAX_BYTES } };
}

/** A JSON value without the top-level fields the tool's `result` marks secret. */
function withoutSecretFields(tool: PlanTool, json: unknown): unknown {
  const secret = tool.secretResult ?? [];
  if (secret.length === 0 || json === null || typeof json !== "object" || Array.isArray(json)) return json;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json as Record<string, unknown>))
    if (!secret.includes(k)) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}
