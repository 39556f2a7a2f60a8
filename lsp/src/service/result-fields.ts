/**
 * What is known of a unit's result shape: a result is open JSON to the
 * checker, but the contract's own expressions say which fields people read
 * from it: `result.claims` in the unit's `verify`/`until` or in a named
 * verifier it uses, and `S04.claims` in the checks of the units that need S04.
 * Completion after `result.` or a need's name offers those fields, each with
 * where it is read.
 */
import type { ContractModel } from "@taskspec/compiler";

/** field -> where it is read (e.g. "verifier has_claims", "unit A01 verify"). */
export type KnownFields = Map<string, string[]>;

const FIELD_READ = /(?<![\w.-])([A-Za-z_][\w-]*)\.([A-Za-z_]\w*)/g;

/** Known fields of `unit`'s result, from every expression of the contract. */
export function knownResultFields(model: ContractModel, unit: string): KnownFields {
  const usersOf = new Map<string, string[]>();
  for (const ref of model.references) {
    if (ref.kind === "verify" && ref.owner.kind === "unit") usersOf.set(ref.name, [...(usersOf.get(ref.name) ?? []), ref.owner.name]);
  }
  const fields: KnownFields = new Map();
  const add = (field: string, where: string) => {
    const list = fields.get(field) ?? [];
    if (!list.includes(where)) list.push(where);
    fields.set(field, list);
  };
  for (const site of model.expressions) {
    if (site.mode !== "expression") continue;
    const source = withoutStrings(site.source);
    for (const m of source.matchAll(FIELD_READ)) {
      const [, root, field] = m;
      if (root === "result") {
        if (site.owner.kind === "unit" && site.owner.name === unit) add(field!, `${unit} ${site.kind}`);
        if (site.owner.kind === "verifier" && usersOf.get(site.owner.name)?.includes(unit)) add(field!, `verifier ${site.owner.name}`);
      } else if (root === unit && site.owner.kind === "unit") add(field!, `${site.owner.name} ${site.kind}`);
    }
  }
  return fields;
}

/** The source with string literals blanked, so `"a.b"` is not read as a path. */
function withoutStrings(source: string): string {
  return source.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, (s) => " ".repeat(s.length));
}
