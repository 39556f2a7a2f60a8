/**
 * Identities and digests. The plan version is the compiled plan's content hash
 * plus the contract's `task.version`; the input version is a digest of the
 * inputs' definitions. They are never merged with run, unit or attempt ids.
 */
import * as crypto from "node:crypto";
import { createHash } from "node:crypto";
import { canonicalJson, type Plan } from "@taskspec/compiler";

/** One-shot `crypto.hash` (Node >= 20.12) where present: no hasher object per digest, faster on small inputs (chain verification hashes thousands; bench/RESULTS.md, "figures behind code comments"). */
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "hex") => string }).hash;

export function sha256(data: string | Uint8Array): string {
  return oneShot ? oneShot("sha256", data, "hex") : createHash("sha256").update(data).digest("hex");
}

/** The compiler's canonical JSON (RFC 8785 for JSON values): the runtime's digests and the plan's hashes are one scheme. */
export { canonicalJson };

export function planVersionOf(plan: Plan): string {
  return `${plan.planHash.slice(0, 16)}@v${plan.task.version}`;
}

export function inputVersionOf(plan: Plan): string {
  const parts = [...plan.inputs].sort((a, b) => a.name.localeCompare(b.name)).map((i) => `${i.name}=${i.definitionHash}`);
  return sha256(parts.join("\n")).slice(0, 16);
}

/**
 * The digest of an input's value as a unit read it, bound to the input's
 * definition: what a record keeps as its `input:<name>` source, and what a
 * volatile input's fresh value is compared with.
 */
export function inputDigest(value: unknown, definitionHash: string): string {
  return sha256(canonicalJson(value ?? null) + definitionHash);
}

export function attemptDir(run: string, unit: string, attempt: number): string {
  return `runs/${run}/${unit}/a${attempt}`;
}
