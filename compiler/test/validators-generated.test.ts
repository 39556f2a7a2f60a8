/**
 * The validators the compiler runs are ajv's standalone code generated from
 * the schemas (scripts/gen-validators.js into src/schema/validators.generated.ts):
 * the file on disk must be what the generator writes today, and it must decide
 * like ajv compiling the schema at run time would, errors included.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import contractSchema from "../contract.schema.json" with { type: "json" };
import configSchema from "../config.schema.json" with { type: "json" };
import { AJV_OPTIONS, VALIDATORS_FILE, generateValidators } from "../../scripts/gen-validators.js";
import { acceptContract, acceptUnit, validateConfig, validateContract } from "../src/schema/validators.generated.js";

type Validate = ((value: unknown) => boolean) & { errors?: unknown[] | null };

describe("generated validators", () => {
  it("are what `npm run gen:types` writes from today's schemas", () => {
    const expected = generateValidators(contractSchema, configSchema);
    expect(readFileSync(VALIDATORS_FILE, "utf8") === expected, "stale: run `npm run gen:types`").toBe(true);
  });

  const runtime = new Ajv2020(AJV_OPTIONS).compile(contractSchema) as Validate;
  const generated = validateContract as unknown as Validate;
  const unit = { phase: "build", needs: [], produces: [], timeout: "1m" };
  const cases: [string, unknown][] = [
    ["not an object", 42],
    ["empty", {}],
    ["unknown top-level key", { taskspec: 1, task: { id: "t", version: 1 }, chek: 1 }],
    ["a unit with a wrong type", { taskspec: 1, task: { id: "t", version: 1 }, units: { a: { ...unit, needs: "x" } } }],
    ["a unit with an unknown key", { taskspec: 1, task: { id: "t", version: 1 }, units: { a: { ...unit, nedds: [] } } }],
  ];
  it.each(cases)("decide with the same errors as run-time ajv: %s", (_name, value) => {
    const a = runtime(value);
    const b = generated(value);
    expect(b).toBe(a);
    expect(generated.errors ?? null).toEqual(runtime.errors ?? null);
  });

  it("split validators accept a unit the full one accepts, and refuse what it refuses", () => {
    expect(acceptContract).not.toBeNull();
    const accept = acceptUnit as unknown as Validate;
    expect(accept({ ...unit, nedds: [] })).toBe(false);
  });

  it.each([
    ["valid", { rules: { C080: "off" } }],
    ["an unknown key", { rulez: {} }],
    ["an empty glob", { ignore: [""] }],
  ])("the configuration validator decides like run-time ajv: %s", (_name, value) => {
    const runtimeConfig = new Ajv2020(AJV_OPTIONS).compile(configSchema) as Validate;
    const generatedConfig = validateConfig as unknown as Validate;
    expect(generatedConfig(value)).toBe(runtimeConfig(value));
    expect(generatedConfig.errors ?? null).toEqual(runtimeConfig.errors ?? null);
  });
});
