// `npm run gen:types` (second step): writes compiler/src/schema/validators.generated.ts,
// the contract's and the configuration's ajv validators as standalone code, from
// compiler/contract.schema.json and compiler/config.schema.json.
// compiler/test/validators-generated.test.ts regenerates in memory and fails
// when the file on disk is stale.
//
// Why generated: compiling the schemas with ajv is most of what `taskspec check`
// of a small contract does (about 250 ms of ajv import and compile against about
// 5 ms to load this code; bench/cli/startup.mjs), and every CLI start paid it.
//
// The accept validators are the split that compiler/src/schema/accept.ts
// relies on: the whole contract with each unit accepted as it is, and one unit.
// The split is made here, once; a schema whose units are not checked through
// `$defs/unit` alone yields no split (accept.ts then always asks the full
// validator).
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standalone from "ajv/dist/standalone/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const CONTRACT_SCHEMA_FILE = join(root, "compiler", "contract.schema.json");
export const CONFIG_SCHEMA_FILE = join(root, "compiler", "config.schema.json");
export const VALIDATORS_FILE = join(root, "compiler", "src", "schema", "validators.generated.ts");

/** The options every validator is compiled with: all errors, with the failing schema node (C002's did-you-mean reads it). */
export const AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true };

/** The contract schema split in two (see the header), or null when the schema cannot be split faithfully. */
function splitSchema(schema) {
  const properties = schema.properties;
  const defs = schema.$defs;
  const units = properties?.units;
  const byUnitDef = units?.additionalProperties;
  if (!units || byUnitDef?.$ref !== "#/$defs/unit" || Object.keys(byUnitDef).length !== 1 || units.patternProperties) return null;
  return {
    contract: { ...schema, $id: "accept-contract", properties: { ...properties, units: { ...units, additionalProperties: true } } },
    unit: { ...defs.unit, $id: "accept-unit", $defs: defs },
  };
}

/** The generated module's text. */
export function generateValidators(contractSchema, configSchema) {
  const ajv = new Ajv2020({ ...AJV_OPTIONS, code: { source: true, esm: true, lines: true } });
  ajv.addSchema(contractSchema);
  ajv.addSchema(configSchema);
  const exports = { validateContract: contractSchema.$id, validateConfig: configSchema.$id };
  const split = splitSchema(contractSchema);
  if (split) {
    ajv.addSchema(split.contract);
    ajv.addSchema(split.unit);
    Object.assign(exports, { acceptContract: "accept-contract", acceptUnit: "accept-unit" });
  }
  // ajv writes its run-time helpers (ucs2length for minLength, ...) as require() even in ESM output
  const imports = [];
  const code = standalone
    .default(ajv, exports)
    .replace(/^"use strict";/, "")
    .replace(/const (\w+) = require\("([^"]+)"\)\.default;/g, (_m, name, spec) => {
      imports.push(`import ${name}Module from "${spec}.js";\n`);
      return `const ${name} = typeof ${name}Module === "function" ? ${name}Module : ${name}Module.default;`; // CJS interop differs between Node and bundlers
    });
  return (
    "// @ts-nocheck\n" +
    "// Generated from compiler/contract.schema.json and compiler/config.schema.json by\n" +
    "// `npm run gen:types` (scripts/gen-validators.js): ajv's standalone code. Do not edit.\n" +
    imports.join("") +
    code +
    (split ? "\n" : "\nexport const acceptContract = null;\nexport const acceptUnit = null;\n")
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const read = (file) => JSON.parse(readFileSync(file, "utf8"));
  writeFileSync(VALIDATORS_FILE, generateValidators(read(CONTRACT_SCHEMA_FILE), read(CONFIG_SCHEMA_FILE)));
  console.log(`wrote ${VALIDATORS_FILE.slice(root.length + 1)}`);
}
