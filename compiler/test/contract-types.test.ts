/**
 * The contract's TypeScript types against its JSON Schema
 * (contract.schema.json, the source of truth). The types are generated
 * (scripts/gen-contract-types.js into src/schema/contract.generated.ts):
 * the file on disk must be what the generator writes today. Independently
 * of the generator, the types the compiler uses (src/schema/contract.ts) are
 * read with the TypeScript checker: every object the schema describes has a
 * type with exactly its properties, optional exactly where the schema does
 * not require them, and the same literal values where the schema lists them
 * (`enum`, `const`); maps (`additionalProperties`), arrays (`items`) and
 * `$ref`s are followed.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import schema from "../contract.schema.json" with { type: "json" };
import { GENERATED_FILE, generateContractTypes } from "../../scripts/gen-contract-types.js";

type Node = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Node>;
  required?: string[];
  additionalProperties?: Node | boolean;
  items?: Node;
  enum?: unknown[];
  const?: unknown;
};
const root = schema as unknown as Node & { $defs: Record<string, Node> };

const file = join(import.meta.dirname, "..", "src", "schema", "contract.ts");
const program = ts.createProgram([file], {
  strict: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  noEmit: true,
});
const checker = program.getTypeChecker();
const source = program.getSourceFile(file)!;

function exported(name: string): ts.Type {
  const symbol = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((s) => s.name === name)!;
  return checker.getDeclaredTypeOfSymbol(symbol);
}

const deref = (node: Node): Node => (node.$ref ? deref(root.$defs[node.$ref.replace("#/$defs/", "")]!) : node);
const literals = (type: ts.Type): unknown[] | undefined => {
  const parts = type.isUnion() ? type.types : [type];
  if (!parts.every((t) => t.isLiteral())) return undefined;
  return parts.map((t) => (t as ts.LiteralType).value).sort();
};

/** Differences between the schema node and the type, as `path: what`. */
function compare(node: Node, type: ts.Type, path: string, out: string[]): void {
  const n = deref(node);
  const t = checker.getNonNullableType(type);
  const values = n.enum ?? (n.const !== undefined ? [n.const] : undefined);
  if (values) {
    const got = literals(t);
    if (JSON.stringify(got) !== JSON.stringify([...values].sort()))
      out.push(`${path}: schema allows ${JSON.stringify(values)}, type is ${checker.typeToString(t)}`);
    return;
  }
  if (n.properties) {
    const props = new Map(checker.getPropertiesOfType(t).map((p) => [p.name, p]));
    for (const [name, sub] of Object.entries(n.properties)) {
      const prop = props.get(name);
      if (!prop) {
        out.push(`${path}.${name}: in the schema, not in the type`);
        continue;
      }
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      const required = n.required?.includes(name) ?? false;
      if (optional === required)
        out.push(`${path}.${name}: ${required ? "required" : "optional"} in the schema, ${optional ? "optional" : "required"} in the type`);
      compare(sub, checker.getTypeOfSymbol(prop), `${path}.${name}`, out);
    }
    for (const name of props.keys()) if (!(name in n.properties)) out.push(`${path}.${name}: in the type, not in the schema`);
    return;
  }
  if (typeof n.additionalProperties === "object") {
    const value = checker.getIndexTypeOfType(t, ts.IndexKind.String);
    if (!value) out.push(`${path}: a map in the schema, not in the type (${checker.typeToString(t)})`);
    else compare(n.additionalProperties, value, `${path}[name]`, out);
    return;
  }
  if (n.items && n.type === "array") {
    if (!checker.isArrayType(t)) out.push(`${path}: an array in the schema, ${checker.typeToString(t)} in the type`);
    else compare(n.items, checker.getTypeArguments(t as ts.TypeReference)[0]!, `${path}[]`, out);
  }
}

describe("contract types and contract.schema.json", () => {
  it("contract.generated.ts is what the generator makes of the schema today", async () => {
    const fresh = await generateContractTypes(schema);
    expect(readFileSync(GENERATED_FILE, "utf8"), "compiler/src/schema/contract.generated.ts is stale: run `npm run gen:types`").toBe(fresh);
  });

  it("the generator refuses a keyword it does not know rather than guessing a type", async () => {
    const grown = { ...schema, $defs: { ...schema.$defs, approval: { oneOf: [{ const: "human" }, { const: "rule" }] } } };
    await expect(generateContractTypes(grown)).rejects.toThrow(
      "#/$defs/approval: keyword 'oneOf' is not one scripts/gen-contract-types.js knows",
    );
  });

  it("describe the same objects: properties, optionality, literal values", () => {
    const out: string[] = [];
    compare(root, exported("ContractSpec"), "contract", out);
    expect(out).toEqual([]);
  });

  it("would see a difference (the comparison is not vacuous)", () => {
    const out: string[] = [];
    compare(
      {
        type: "object",
        required: ["kind", "extra"],
        properties: { ...root.$defs.input!.properties, extra: { type: "string" }, kind: { enum: ["snapshot"] } },
      },
      exported("InputSpec"),
      "input",
      out,
    );
    expect(out).toEqual([
      'input.kind: schema allows ["snapshot"], type is "snapshot" | "decision" | "external" | "artifact"',
      "input.extra: in the schema, not in the type",
    ]);
  });
});

// docs/contract.md: the schema ships in @taskspec/compiler (so a modeline can
// point at node_modules/@taskspec/compiler/contract.schema.json) and its $id is a name.
describe("contract.schema.json in the package", () => {
  it("is in the published files and exports, with the documented $id", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "..", "package.json"), "utf8")) as {
      files: string[];
      exports: Record<string, unknown>;
    };
    expect(pkg.files).toContain("contract.schema.json");
    expect(pkg.exports["./contract.schema.json"]).toBe("./contract.schema.json");
    // a relative $id resolves against where the schema was read from: to this very file
    for (const file of ["contract.schema.json", "config.schema.json"]) {
      const path = join(import.meta.dirname, "..", file);
      const shipped = JSON.parse(readFileSync(path, "utf8")) as { $id: string };
      const resolved = new URL(shipped.$id, pathToFileURL(path));
      expect(resolved.href).toBe(pathToFileURL(path).href);
      expect(JSON.parse(readFileSync(resolved, "utf8"))).toEqual(shipped);
      expect(pkg.files).toContain(file);
      expect(pkg.exports[`./${file}`]).toBe(`./${file}`);
    }
  });
});
