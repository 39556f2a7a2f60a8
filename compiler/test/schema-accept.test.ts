/**
 * The split accept path (schema/accept.ts) says "valid" exactly when the full
 * schema does: for the example contracts, the invalid specs that are YAML, and random
 * changes to units, including a unit that was remembered valid being replaced.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, parseDocument } from "yaml";
import { AJV_OPTIONS } from "../../scripts/gen-validators.js";
import { isKnownValid } from "../src/schema/accept.js";
import { CONTRACT_SCHEMA } from "../src/schema/validate.js";

const full = new Ajv2020(AJV_OPTIONS).compile(CONTRACT_SCHEMA);
const specs = fileURLToPath(new URL("../../specs/", import.meta.url));
const read = (path: string) => parse(readFileSync(path, "utf8")) as Record<string, unknown>;
const parses = (path: string) => parseDocument(readFileSync(path, "utf8")).errors.length === 0;
const contracts = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith(".task.yaml") && parses(join(dir, f)))
    .map((f) => [f, read(join(dir, f))] as const);

describe("accepting a contract without the full validator", () => {
  it.each([...contracts(specs), ...contracts(join(specs, "invalid"))])("agrees with the full schema on %s", (_file, value) => {
    expect(isKnownValid(value)).toBe(full(value));
  });

  it("agrees with the full schema when units change, remembered or not", () => {
    const base = read(join(specs, "trip-booking.task.yaml"));
    const units = base.units as Record<string, Record<string, unknown>>;
    const ids = Object.keys(units);
    const json = fc.jsonValue({ maxDepth: 2 });
    const change = fc.record({
      id: fc.constantFrom(...ids),
      key: fc.constantFrom(
        "phase",
        "needs",
        "uses",
        "produces",
        "verify",
        "cost",
        "loop",
        "retry",
        "approval",
        "timeout",
        "describe",
        "nonsense",
      ),
      value: fc.oneof(json, fc.constantFrom(["x"], { max: 2 }, "45m", "human", { tokens: 5 })),
    });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 3 }), (changes) => {
        expect(isKnownValid(base)).toBe(true); // remembers every unit of the base
        const changed = { ...units };
        for (const { id, key, value } of changes) changed[id] = { ...changed[id], [key]: value };
        const value = { ...base, units: changed };
        expect(isKnownValid(value)).toBe(full(value));
      }),
      { numRuns: 500 },
    );
  });
});
