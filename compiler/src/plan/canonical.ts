/**
 * Canonical JSON (object keys sorted, no whitespace, undefined left out) and
 * its sha256: the basis of definition hashes and the plan hash, so key order
 * and comments in the source never change a hash. Hashing streams the JSON in
 * chunks instead of building one large string for a 20k-unit plan.
 */
import { createHash } from "node:crypto";

function write(value: unknown, emit: (s: string) => void): void {
  if (value === null || typeof value !== "object") {
    emit(JSON.stringify(value) ?? "null");
    return;
  }
  if (Array.isArray(value)) {
    emit("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) emit(",");
      write(value[i] === undefined ? null : value[i], emit);
    }
    emit("]");
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  emit("{");
  let first = true;
  for (const key of keys) {
    const v = record[key];
    if (v === undefined) continue;
    emit(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    write(v, emit);
  }
  emit("}");
}

export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, (s) => parts.push(s));
  return parts.join("");
}

/** sha256 (hex) of the canonical JSON of `value`. */
export function hashOf(value: unknown): string {
  const hash = createHash("sha256");
  let buffer = "";
  write(value, (s) => {
    buffer += s;
    if (buffer.length > 65536) {
      hash.update(buffer);
      buffer = "";
    }
  });
  hash.update(buffer);
  return hash.digest("hex");
}
