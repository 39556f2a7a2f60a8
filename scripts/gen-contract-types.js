// `npm run gen:types`: writes compiler/src/schema/contract.generated.ts, the
// contract's TypeScript types, from compiler/contract.schema.json (the source
// of truth). compiler/test/contract-types.test.ts regenerates in memory and
// fails when the file on disk is stale.
//
// Our own generator rather than json-schema-to-typescript: the schema keeps to
// a small subset on purpose (no oneOf/anyOf; branches by shape with
// if/then/else, see compiler/src/schema/validate.ts), which that tool renders
// wrongly (if/then/else and untyped values become index objects, a `$ref`
// with a sibling description becomes a second copy of the type) and would
// need `tsType` hints in the shipped schema. This one reads exactly that
// subset and throws on any other keyword, so a schema that grows a construct
// nobody taught it fails `gen:types` instead of yielding a loose type.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const SCHEMA_FILE = join(root, "compiler", "contract.schema.json");
export const GENERATED_FILE = join(root, "compiler", "src", "schema", "contract.generated.ts");

/** Keywords that only annotate or constrain values; they change no type. */
const ANNOTATIONS = new Set(["$schema", "$id", "$comment", "title", "description", "pattern", "minimum", "propertyNames"]);
/** Keywords this generator turns into types. */
const STRUCTURE = new Set(["$ref", "$defs", "type", "const", "enum", "properties", "required", "additionalProperties", "items"]);
const CONDITIONAL = new Set(["if", "then", "else", "allOf"]);

const pascal = (name) => name.replace(/(^|[_-])([a-z])/g, (_m, _s, c) => c.toUpperCase());
const literal = (value) => JSON.stringify(value);
const key = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name));

/** A JSDoc comment from a node's `description`, and its `$comment` (the why of a loose type) below it. */
function doc(node, indent = "") {
  const lines = [node.description, node.$comment].filter((s) => typeof s === "string").map((s) => s.replaceAll("*/", "*\\/"));
  if (lines.length === 0) return "";
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}\n`).join("")}${indent} */\n`;
}

function refName(ref, path) {
  const match = /^#\/\$defs\/([A-Za-z0-9_-]+)$/.exec(ref);
  if (!match) throw new Error(`${path}: $ref ${ref} is not a local #/$defs/ reference`);
  return pascal(match[1]);
}

function checkKeywords(node, path) {
  for (const k of Object.keys(node)) {
    if (!ANNOTATIONS.has(k) && !STRUCTURE.has(k) && !CONDITIONAL.has(k))
      throw new Error(`${path}: keyword '${k}' is not one scripts/gen-contract-types.js knows; teach it, or keep the schema to the subset`);
  }
}

/**
 * `allOf` entries may only make properties conditionally required (the
 * verifier's `check` for kind rule); the type keeps them optional, which
 * admits every valid value.
 */
function checkConditionalRequired(node, path) {
  for (const [i, part] of (node.allOf ?? []).entries()) {
    const keys = Object.keys(part).sort().join(",");
    const thenKeys = Object.keys(part.then ?? {}).join(",");
    if (keys !== "if,then" || thenKeys !== "required")
      throw new Error(`${path}.allOf[${i}]: only { if, then: { required } } is understood here`);
  }
}

/** The TypeScript type of a schema node. */
function typeOf(node, path, indent) {
  if (node === true || node === undefined) return "unknown";
  if (typeof node !== "object" || node === null) throw new Error(`${path}: a schema must be an object`);
  checkKeywords(node, path);
  checkConditionalRequired(node, path);
  if (node.$ref !== undefined) return refName(node.$ref, path);
  if (node.const !== undefined) return literal(node.const);
  if (node.enum !== undefined) return node.enum.map(literal).join(" | ");
  if (node.if !== undefined) {
    // Branches chosen by shape: a valid value satisfies `then` or `else`.
    if (node.type !== undefined || node.properties !== undefined || node.then === undefined || node.else === undefined)
      throw new Error(`${path}: if/then/else is understood only as a whole node with both branches`);
    return `${typeOf(node.then, `${path}.then`, indent)} | ${typeOf(node.else, `${path}.else`, indent)}`;
  }
  const types = node.type === undefined ? [] : [node.type].flat();
  if (types.length === 0) {
    if (node.properties !== undefined || node.additionalProperties !== undefined || node.items !== undefined)
      throw new Error(`${path}: give a structured node its \`type\``);
    return "unknown"; // untyped on purpose; see the `$comment` beside it
  }
  return types.map((t) => typeOfType(t, node, path, indent)).join(" | ");
}

function typeOfType(type, node, path, indent) {
  switch (type) {
    case "string":
    case "boolean":
    case "null":
      return type;
    case "integer":
    case "number":
      return "number";
    case "array": {
      const item = typeOf(node.items, `${path}[]`, indent);
      return /^[A-Za-z]+$/.test(item) ? `${item}[]` : `(${item})[]`;
    }
    case "object":
      return objectType(node, path, indent);
    default:
      throw new Error(`${path}: unknown type '${type}'`);
  }
}

function objectType(node, path, indent) {
  const extra = node.additionalProperties;
  if (node.properties === undefined) {
    if (extra === false) return "Record<string, never>";
    return `Record<string, ${typeOf(extra === undefined ? true : extra, `${path}[name]`, indent)}>`;
  }
  if (extra !== undefined && extra !== false)
    throw new Error(`${path}: properties together with additionalProperties are not understood here`);
  const required = new Set(node.required ?? []);
  for (const name of required) if (!(name in node.properties)) throw new Error(`${path}: required '${name}' is not among the properties`);
  const inner = `${indent}  `;
  const members = Object.entries(node.properties).map(([name, sub]) => {
    const optional = required.has(name) ? "" : "?";
    return `${doc(sub, inner)}${inner}${key(name)}${optional}: ${typeOf(sub, `${path}.${name}`, inner)};\n`;
  });
  return `{\n${members.join("")}${indent}}`;
}

// Type aliases, not interfaces: an object type alias is assignable to
// Record<string, unknown> (compiler/src/check/ranges.ts reads costs that way).
function declaration(name, node, path) {
  return `${doc(node)}export type ${name} = ${typeOf(node, path, "")};\n`;
}

/** The generated module's text for `schema`, formatted as the repository formats code. */
export async function generateContractTypes(schema) {
  const { $defs = {}, ...top } = schema;
  const parts = [
    "// Generated from compiler/contract.schema.json by `npm run gen:types`\n" +
      "// (scripts/gen-contract-types.js). Do not edit: change the schema and regenerate.\n" +
      "// Names the compiler uses are in ./contract.ts.\n",
    declaration("Contract", top, "#"),
    ...Object.entries($defs).map(([name, def]) => declaration(pascal(name), def, `#/$defs/${name}`)),
  ];
  const options = (await prettier.resolveConfig(GENERATED_FILE)) ?? {};
  return prettier.format(parts.join("\n"), { ...options, filepath: GENERATED_FILE });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = await generateContractTypes(JSON.parse(readFileSync(SCHEMA_FILE, "utf8")));
  writeFileSync(GENERATED_FILE, text);
  console.log(`wrote ${GENERATED_FILE.slice(root.length + 1)}`);
}
