/**
 * Canonical JSON (object keys sorted, no whitespace, undefined left out) and
 * its sha256: the basis of definition hashes and the plan hash, so key order
 * and comments in the source never change a hash. Hashing streams the JSON in
 * chunks instead of building one large string for a 20k-unit plan.
 */
import { createHash, type Hash } from "node:crypto";

const PLAIN_KEY = /^[A-Za-z0-9_.-]*$/;

/** Appends canonical JSON to `sink.text`, flushing to `sink.hash` every 64 KB when hashing. */
interface Sink {
  text: string;
  hash?: Hash;
}

function write(value: unknown, sink: Sink): void {
  if (value === null || typeof value !== "object") {
    sink.text += JSON.stringify(value) ?? "null";
    return;
  }
  if (sink.hash && sink.text.length > 65536) {
    sink.hash.update(sink.text);
    sink.text = "";
  }
  if (Array.isArray(value)) {
    sink.text += "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) sink.text += ",";
      write(value[i] === undefined ? null : value[i], sink);
    }
    sink.text += "]";
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort();
  sink.text += "{";
  let first = true;
  for (const key of keys) {
    const v = record[key];
    if (v === undefined) continue;
    sink.text += `${first ? "" : ","}${PLAIN_KEY.test(key) ? `"${key}"` : JSON.stringify(key)}:`;
    first = false;
    write(v, sink);
  }
  sink.text += "}";
}

export function canonicalJson(value: unknown): string {
  const sink: Sink = { text: "" };
  write(value, sink);
  return sink.text;
}

/** sha256 (hex) of the canonical JSON of `value`. */
export function hashOf(value: unknown): string {
  const hash = createHash("sha256");
  const sink: Sink = { text: "", hash };
  write(value, sink);
  hash.update(sink.text);
  return hash.digest("hex");
}
