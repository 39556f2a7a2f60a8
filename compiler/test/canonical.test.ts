/**
 * Canonical JSON is the basis of every hash (the compiler's and the
 * runtime's), so its writer must produce exactly JSON.stringify's text with
 * object keys sorted, for any JSON value: escapes, non-ASCII and astral
 * characters, lone surrogates, integer-like and `__proto__` keys, strings
 * longer than the writer's buffer; and, for every value RFC 8785 accepts, the
 * text of an independent RFC 8785 implementation (the `canonicalize` package).
 */
import { createHash } from "node:crypto";
import canonicalizeModule from "canonicalize";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, hashOf } from "../src/plan/canonical.js";

// The package is CommonJS: at run time its default import is the function itself,
// while its typings describe an ES default export.
const canonicalize = canonicalizeModule as unknown as (input: unknown) => string | undefined;

/** The definition, written the obvious way: sort keys, leave undefined out, JSON.stringify the rest. */
function reference(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map((v) => reference(v === undefined ? null : v)).join(",")}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .sort()
    .filter((k) => record[k] !== undefined);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(record[k])}`).join(",")}}`;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme" }),
  fc.string({ unit: "binary" }),
  fc.constantFrom("__proto__", "0", "10", "2", 'a"b\\c\n', "\ud800"),
);
const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, true, false, undefined, 0, -0, 1e21, 1.5e-7, NaN, Infinity),
    fc.double(),
    fc.integer(),
    text,
    fc.array(tie("value"), { maxLength: 6 }),
    fc.dictionary(text, tie("value"), { maxKeys: 20 }),
  ),
})).value;

describe("canonical JSON", () => {
  it("is JSON.stringify with sorted keys, for any value", () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
        expect(hashOf(value)).toBe(sha256(reference(value)));
      }),
      { numRuns: 2000 },
    );
  });

  it("handles values larger than the writer's buffer, and strings that straddle its end", () => {
    const long = "x".repeat(70_000);
    const wide = "é€😀".repeat(30_000);
    const value = { b: [long, wide, { [long]: wide }], a: Array.from({ length: 5000 }, (_, i) => ({ i, s: `é${i}`, t: "plain text" })) };
    expect(canonicalJson(value)).toBe(reference(value));
    expect(hashOf(value)).toBe(sha256(reference(value)));
  });

  it("writes a __proto__ key as a key and leaves undefined out", () => {
    const value = JSON.parse('{"__proto__": {"x": 1}, "b": 2}') as Record<string, unknown>;
    value.c = undefined;
    expect(canonicalJson(value)).toBe('{"__proto__":{"x":1},"b":2}');
  });

  it("is right when writing a value calls it again (a toJSON that hashes)", () => {
    const inner = { b: "x".repeat(100_000), a: [1, 2, 3] };
    const value = { z: "after", hashed: { toJSON: () => hashOf(inner) }, a: "before", long: "y".repeat(70_000) };
    const plain = { z: "after", hashed: sha256(reference(inner)), a: "before", long: "y".repeat(70_000) };
    expect(canonicalJson(value)).toBe(reference(plain));
    expect(hashOf(value)).toBe(sha256(reference(plain)));
  });

  it("writes a Date as JSON.stringify does, its ISO string, and leaves functions out like undefined", () => {
    const at = new Date(Date.UTC(2026, 11, 1, 21, 0, 0));
    expect(canonicalJson({ at, f: () => 1, list: [() => 1, undefined] })).toBe('{"at":"2026-12-01T21:00:00.000Z","list":[null,null]}');
    expect(canonicalJson({ at })).toBe(JSON.stringify({ at }));
  });
});

/** Values RFC 8785 accepts: JSON with finite numbers only, and Dates (through toJSON). */
const rfcJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 2 ** 53, 0.1 + 0.2),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.date({ noInvalidDate: true }),
    text,
    fc.array(tie("value"), { maxLength: 6 }),
    fc.dictionary(text, tie("value"), { maxKeys: 20 }),
  ),
})).value;

describe("canonical JSON is RFC 8785 (JCS)", () => {
  it("writes what the canonicalize package writes, for any value RFC 8785 accepts", () => {
    fc.assert(
      fc.property(rfcJson, (value) => {
        expect(canonicalJson(value)).toBe(canonicalize(value));
      }),
      { numRuns: 2000 },
    );
  });

  it("orders keys by UTF-16 code units, as in RFC 8785's sorting example (3.2.3)", () => {
    const value = {
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\u{1f600}": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis",
    };
    const text = canonicalJson(value);
    const order = ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\u{1f600}", "\ufb33"].map((key) => text.indexOf(`${JSON.stringify(key)}:`));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(canonicalJson(value)).toBe(canonicalize(value));
  });
});
