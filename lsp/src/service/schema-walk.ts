/**
 * Reads the contract JSON Schema (compiler/contract.schema.json, the one source
 * of truth for keys) at a YAML path: which keys a mapping allows, and which
 * fixed values a scalar may take. Only the schema features the contract schema
 * uses are followed: $ref to $defs, properties, additionalProperties, items,
 * if/then/else, enum and const.
 */
import { CONTRACT_SCHEMA } from "@taskspec/compiler";

export interface SchemaNode {
  description?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  enum?: unknown[];
  const?: unknown;
  $ref?: string;
  then?: SchemaNode;
  else?: SchemaNode;
  required?: string[];
}

const root = CONTRACT_SCHEMA as unknown as SchemaNode & { $defs?: Record<string, SchemaNode> };

function deref(node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current?.$ref && hops < 8; hops++) {
    const name = current.$ref.replace(/^#\/\$defs\//, "");
    const target = root.$defs?.[name];
    // A $ref with siblings (e.g. its own description) keeps them and adds the target's.
    current = target ? { ...target, ...withoutRef(current) } : undefined;
  }
  return current;
}

function withoutRef(node: SchemaNode): SchemaNode {
  const { $ref: _ref, ...rest } = node;
  void _ref;
  return rest;
}

/** The alternatives a node stands for (if/then/else counts both branches). */
function variants(node: SchemaNode | undefined): SchemaNode[] {
  const n = deref(node);
  if (!n) return [];
  return [n, ...[n.then, n.else].flatMap((b) => variants(b))];
}

/**
 * The schema at a path of mapping keys from the top; "[]" steps into a
 * sequence item. A name that is not a declared property (a unit id under
 * `units`) steps into additionalProperties.
 */
export function schemaAt(path: readonly string[]): SchemaNode | undefined {
  let node: SchemaNode | undefined = root;
  for (const step of path) {
    let next: SchemaNode | undefined;
    for (const v of variants(node)) {
      if (step === "[]") next = v.items;
      else next = v.properties?.[step] ?? (typeof v.additionalProperties === "object" ? v.additionalProperties : undefined);
      if (next) break;
    }
    node = deref(next);
    if (!node) return undefined;
  }
  return node;
}

/** Keys the mapping at `path` declares, with their descriptions. */
export function keysAt(path: readonly string[]): { key: string; description: string; required: boolean }[] {
  const out: { key: string; description: string; required: boolean }[] = [];
  for (const v of variants(schemaAt(path))) {
    for (const [key, child] of Object.entries(v.properties ?? {})) {
      if (out.some((o) => o.key === key)) continue;
      out.push({ key, description: deref(child)?.description ?? "", required: v.required?.includes(key) ?? false });
    }
  }
  return out;
}

/** Fixed values a scalar at `path` may take (enum / const), as written in YAML. */
export function valuesAt(path: readonly string[]): string[] {
  const values = new Set<string>();
  for (const v of variants(schemaAt(path))) {
    for (const e of v.enum ?? []) values.add(String(e));
    if (v.const !== undefined) values.add(String(v.const));
    if (v.items) for (const e of deref(v.items)?.enum ?? []) values.add(String(e));
  }
  return [...values];
}

/** Is the item of the sequence at `path` a mapping (so `- ` starts a key)? */
export function itemIsMapping(path: readonly string[]): boolean {
  const items = schemaAt([...path, "[]"]);
  return items !== undefined && (items.type === "object" || items.properties !== undefined);
}
