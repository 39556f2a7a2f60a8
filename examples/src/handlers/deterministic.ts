/**
 * Deterministic stand-ins for model output: text and numbers derived from a
 * sha256 of the inputs, so the same inputs give the same bytes (and the same
 * artifact hashes — what early cutoff compares), and no real model is needed.
 */
import { createHash } from "node:crypto";

/** Canonical JSON: object keys sorted, so equal values give equal digests. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function digest(value: unknown): string {
  return createHash("sha256").update(typeof value === "string" ? value : canonicalJson(value)).digest("hex");
}

/** A number in [0, 1) drawn from the digest of `seed` — stable across runs and machines. */
export function unitInterval(seed: unknown): number {
  return parseInt(digest(seed).slice(0, 8), 16) / 0x1_0000_0000;
}

/** Picks one of `choices` by the digest of `seed`. */
export function choose<T>(choices: readonly T[], seed: unknown): T {
  return choices[Math.floor(unitInterval(seed) * choices.length)] as T;
}
