/**
 * The textual form of a change used by the CLI and editor commands:
 * `node` (all kinds), `node:kind` or `node:kind,kind`; `node:all` is allowed.
 * Kinds are not checked here: `impact` reports unknown ones with a did-you-mean.
 */
import type { ChangeInput } from "./types.js";

export type ParsedChange = { ok: true; change: ChangeInput } | { ok: false; message: string };

export function parseChange(text: string): ParsedChange {
  const colon = text.indexOf(":");
  const origin = (colon < 0 ? text : text.slice(0, colon)).trim();
  if (origin === "") return { ok: false, message: `'${text}' names no node; write <node>[:<kind>[,<kind>]]` };
  if (colon < 0) return { ok: true, change: { origin, kinds: "all" } };
  const kinds = text
    .slice(colon + 1)
    .split(",")
    .map((k) => k.trim());
  if (kinds.some((k) => k === "")) return { ok: false, message: `'${text}' has an empty kind; write <node>[:<kind>[,<kind>]]` };
  return { ok: true, change: { origin, kinds: kinds.includes("all") ? "all" : kinds } };
}

export function formatChange(change: ChangeInput): string {
  return change.kinds === "all" ? change.origin : `${change.origin}:${change.kinds.join(",")}`;
}
