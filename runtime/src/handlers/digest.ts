/**
 * The digests of handler code, by name: what code-hash.ts records with each
 * unit and what the handler module's probe (isolation/probe.ts, computed in
 * the probe process) reports, so both give the same sha256 for the same
 * source. Imports nothing but node:crypto: the handler process's script
 * (isolation/child-entry.ts) uses it too.
 */
import { createHash } from "node:crypto";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

/** Own and inherited function members of an adapter (a class instance's methods too), by name. */
function functionsOf(value: unknown): Array<[string, string]> {
  const out = new Map<string, string>();
  for (let o = value; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const name of Object.getOwnPropertyNames(o)) {
      if (name === "constructor" || out.has(name)) continue;
      const member = Object.getOwnPropertyDescriptor(o, name)?.value as unknown;
      if (typeof member === "function") out.set(name, String(member));
    }
  }
  return [...out].sort(([a], [b]) => (a < b ? -1 : 1));
}

/** sha256 of a unit handler's source text (of "" when it is not a function). */
export function unitDigest(handler: unknown): string {
  return sha(typeof handler === "function" ? String(handler) : "");
}

/** sha256 of a tool adapter's function members' source, by name (of "[]" when it has none). */
export function adapterDigest(adapter: unknown): string {
  return sha(JSON.stringify(functionsOf(adapter)));
}

/** The own entries of a table a module exports (`units`, `tools`, ...), or none. */
function ownEntries(table: unknown): Array<[string, unknown]> {
  if (typeof table !== "object" || table === null) return [];
  return Object.keys(table).map((name) => [name, (table as Record<string, unknown>)[name]]);
}

/**
 * What is known of a module's code without holding the module: the digest of
 * each unit handler (functions only) and of each tool adapter (those with a
 * `call` function), by name. Plain data: it crosses an IPC channel.
 */
export interface CodeDigests {
  units: Record<string, string>;
  tools: Record<string, string>;
}

export function digestsOf(m: { units?: unknown; tools?: unknown }): CodeDigests {
  const units: Record<string, string> = {};
  const tools: Record<string, string> = {};
  for (const [name, fn] of ownEntries(m.units))
    if (typeof fn === "function")
      Object.defineProperty(units, name, { value: unitDigest(fn), enumerable: true, writable: true, configurable: true });
  for (const [name, adapter] of ownEntries(m.tools))
    if (typeof (adapter as { call?: unknown } | null)?.call === "function")
      Object.defineProperty(tools, name, { value: adapterDigest(adapter), enumerable: true, writable: true, configurable: true });
  return { units, tools };
}
