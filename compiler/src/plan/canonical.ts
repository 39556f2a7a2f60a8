/**
 * Canonical JSON and its sha256: the basis of definition hashes and the plan
 * hash, so key order and comments in the source never change a hash, and of
 * the runtime's digests (ledger arguments, input evidence), which use this
 * same function.
 *
 * The text is JSON.stringify's with object keys sorted by UTF-16 code units
 * and no whitespace: `toJSON` is honoured (a Date is its ISO string),
 * undefined, functions and symbols are left out of objects and are null in
 * arrays. For every value RFC 8785 (JSON Canonicalization Scheme) accepts
 * that is exactly its output (ECMAScript number and string serialization,
 * code-unit key order); compiler/test/canonical.test.ts checks it against the
 * `canonicalize` package. Where RFC 8785 refuses a value, NaN and Infinity,
 * this writes null as JSON.stringify does, so no hash input can throw.
 *
 * The writer emits UTF-8 bytes into a reused 64 KB buffer and hands each
 * full buffer to its consumer (the hash, or the chunks of canonicalJson):
 * building the text as strings allocated a piece per key and value, and a
 * large plan spent most of its hashing time in the garbage collector. The bytes are exactly the UTF-8 of the JSON text.
 */
import * as crypto from "node:crypto";

/** One-call hashing (Node >= 20.12), several times cheaper than a Hash object for small inputs. */
const oneShot: typeof crypto.hash | undefined = crypto.hash;

const CAPACITY = 64 * 1024;
/**
 * One buffer reused by every call (a compile hashes each unit). A call made
 * while another is writing (a `toJSON` that hashes) gets a fresh one.
 */
const shared = new Uint8Array(CAPACITY);
let sharedInUse = false;
const encoder = new TextEncoder();

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

class ByteWriter {
  private pos = 0;
  private readonly buffer: Uint8Array;
  private readonly owns: boolean;

  /** `consume` must copy or use up the bytes before returning: the buffer is overwritten next. */
  constructor(private readonly consume: (chunk: Uint8Array | string) => void) {
    this.owns = !sharedInUse;
    this.buffer = this.owns ? shared : new Uint8Array(CAPACITY);
    sharedInUse = true;
  }

  /** Done with the buffer: the next writer may take it. */
  release(): void {
    if (this.owns) sharedInUse = false;
  }

  /** Text known to be ASCII (punctuation, numbers). */
  ascii(text: string): void {
    if (this.pos + text.length > CAPACITY) this.flush();
    for (let i = 0; i < text.length; i++) this.buffer[this.pos++] = text.charCodeAt(i);
  }

  /** A whole number in 0..2^31-1, as JSON writes it, without making its string. */
  digits(n: number): void {
    if (this.pos + 10 > CAPACITY) this.flush();
    let length = 1;
    for (let rest = n; rest >= 10; rest = (rest / 10) | 0) length++;
    let at = (this.pos += length);
    do {
      this.buffer[--at] = 0x30 + (n % 10);
      n = (n / 10) | 0;
    } while (n > 0);
  }

  byte(code: number): void {
    if (this.pos === CAPACITY) this.flush();
    this.buffer[this.pos++] = code;
  }

  /** A JSON string literal, as JSON.stringify writes it. */
  string(text: string): void {
    const length = text.length;
    if (this.pos + length + 2 > CAPACITY) {
      this.flush();
      if (length + 2 > CAPACITY) return this.consume(JSON.stringify(text));
    }
    const start = this.pos;
    this.buffer[this.pos++] = QUOTE;
    for (let i = 0; i < length; i++) {
      const c = text.charCodeAt(i);
      // control characters, quote, backslash and non-ASCII need escaping or encoding
      if (c < 0x20 || c === QUOTE || c === BACKSLASH || c > 0x7e) {
        this.pos = start;
        return this.text(JSON.stringify(text));
      }
      this.buffer[this.pos++] = c;
    }
    this.buffer[this.pos++] = QUOTE;
  }

  /** Any well-formed text (JSON.stringify escapes lone surrogates), UTF-8 encoded. */
  text(text: string): void {
    if (this.pos + text.length * 3 > CAPACITY) {
      this.flush();
      if (text.length * 3 > CAPACITY) return this.consume(text);
    }
    this.pos += encoder.encodeInto(text, this.buffer.subarray(this.pos)).written;
  }

  bytes(bytes: Uint8Array): void {
    if (this.pos + bytes.length > CAPACITY) {
      this.flush();
      if (bytes.length > CAPACITY) return this.consume(bytes);
    }
    this.buffer.set(bytes, this.pos);
    this.pos += bytes.length;
  }

  /** What is in the buffer and not yet consumed. */
  written(): Uint8Array {
    return this.buffer.subarray(0, this.pos);
  }

  flush(): void {
    if (this.pos > 0) this.consume(this.buffer.subarray(0, this.pos));
    this.pos = 0;
  }
}

/**
 * A value whose canonical JSON is written once and then copied wherever the
 * part appears: for sub-values shared by many hashed values (a tool or
 * verifier hashed into the definition of every unit that uses it).
 */
export class CanonicalPart {
  readonly utf8: Uint8Array;
  constructor(value: unknown) {
    this.utf8 = encoder.encode(canonicalJson(value));
  }
}

/** What JSON.stringify leaves out of an object (and writes null for in an array). */
const absent = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

function write(value: unknown, out: ByteWriter): void {
  switch (typeof value) {
    case "string":
      return out.string(value);
    case "number":
      // counts, levels, costs: nearly every number is a small whole one (-0 is written 0, as JSON does)
      if (Number.isInteger(value) && value >= 0 && value <= 0x7fffffff) return out.digits(value);
      return out.ascii(Number.isFinite(value) ? String(value) : "null");
    case "boolean":
      return out.ascii(value ? "true" : "false");
    case "object":
      if (value === null) return out.ascii("null");
      if (value instanceof CanonicalPart) return out.bytes(value.utf8);
      if (typeof (value as { toJSON?: unknown }).toJSON === "function") return write((value as { toJSON(): unknown }).toJSON(), out);
      break;
    default:
      // undefined, functions and symbols (at the top) are null; a bigint throws, as in JSON.stringify
      return out.ascii(JSON.stringify(value) ?? "null");
  }
  if (Array.isArray(value)) {
    out.byte(0x5b); // [
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.byte(0x2c); // ,
      write(absent(value[i]) ? null : value[i], out);
    }
    out.byte(0x5d); // ]
    return;
  }
  const record = value as Record<string, unknown>;
  out.byte(0x7b); // {
  let first = true;
  for (const key of Object.keys(record).sort()) {
    const v = record[key];
    if (absent(v)) continue;
    if (!first) out.byte(0x2c);
    first = false;
    out.string(key);
    out.byte(0x3a); // :
    write(v, out);
  }
  out.byte(0x7d); // }
}

export function canonicalJson(value: unknown): string {
  // chunks end between values, never inside a character, so each decodes on its own
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  const out = new ByteWriter((chunk) => chunks.push(typeof chunk === "string" ? chunk : decoder.decode(chunk)));
  try {
    write(value, out);
    out.flush();
    return chunks.join("");
  } finally {
    out.release();
  }
}

/** sha256 (hex) of the canonical JSON of `value`. */
export function hashOf(value: unknown): string {
  let hash: crypto.Hash | undefined;
  const out = new ByteWriter((chunk) => (hash ??= crypto.createHash("sha256")).update(chunk));
  try {
    write(value, out);
    // a unit's definition fits in the buffer: hash it in one call, without a Hash object
    if (!hash && oneShot) return oneShot("sha256", out.written(), "hex");
    out.flush();
    return (hash ?? crypto.createHash("sha256")).digest("hex");
  } finally {
    out.release();
  }
}
