/**
 * The runtime hashes effects, manifests and checkpoints with the compiler's
 * canonical JSON, not a copy of its own: the same text for the same value,
 * a Date and a "__proto__" key included.
 */
import { canonicalJson } from "@taskspec/compiler";
import { describe, expect, it } from "vitest";
import { canonicalJson as runtimeCanonicalJson } from "../src/model/identity.js";

describe("the runtime's canonical JSON", () => {
  it("is the compiler's: the same text, a Date and a __proto__ key included", () => {
    const value = JSON.parse('{"__proto__": {"x": 1}, "b": [1.5, "é"]}') as Record<string, unknown>;
    value.at = new Date(0);
    expect(runtimeCanonicalJson(value)).toBe(canonicalJson(value));
    expect(runtimeCanonicalJson(value)).toBe('{"__proto__":{"x":1},"at":"1970-01-01T00:00:00.000Z","b":[1.5,"é"]}');
  });
});
