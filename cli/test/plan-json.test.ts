/** The plan JSON `compile` writes: the golden plans byte for byte, written in pieces rather than held whole. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile } from "@taskspec/compiler";
import { writePlanJson } from "../src/io/plan-json.js";

const spec = (name: string) => readFileSync(new URL(`../../specs/${name}`, import.meta.url), "utf8");

function written(plan: unknown): string[] {
  const pieces: string[] = [];
  writePlanJson(plan, { write: (piece) => void pieces.push(piece) });
  return pieces;
}

describe("writePlanJson", () => {
  it("writes the example plans as JSON.stringify(plan, null, 2) does, and as the golden files hold them", () => {
    for (const name of ["market-entry-pack", "publish-post", "trip-booking"]) {
      const { plan } = compile(spec(`${name}.task.yaml`));
      const text = written(plan).join("");
      expect(text).toBe(`${JSON.stringify(plan, null, 2)}\n`);
      expect(text).toBe(spec(`${name}.plan.json`));
    }
  });

  it("leaves out what JSON leaves out, and writes null for it in an array", () => {
    const value = { a: undefined, b: () => 1, c: [undefined, 1], d: { toJSON: () => undefined }, e: new Date(0), f: {}, g: [] };
    expect(written(value).join("")).toBe(`${JSON.stringify(value, null, 2)}\n`);
  });

  it("writes a large plan in pieces of about a megabyte, not as one string", () => {
    const units = Array.from(
      { length: 3000 },
      (_, i) => `  u${i}: { produces: [a${i}], verify: [ok]${i > 0 ? `, needs: { u${i - 1}: content }` : ""} }`,
    );
    const text = `contract: 1\ntask: { id: t, goal: g, outputs: [a2999], done: [ok] }\nbudgets: { model_calls: 1 }\nverifiers:\n  ok: { kind: rule, check: "result.ok" }\nunits:\n${units.join("\n")}\n`;
    const { plan } = compile(text);
    const pieces = written(plan);
    expect(pieces.join("")).toBe(`${JSON.stringify(plan, null, 2)}\n`);
    expect(pieces.length).toBeGreaterThan(2);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(2 * 1024 * 1024);
  });
});
