/** Reading a declaration's own scalar fields (`phase`, `class`, `kind`) from the syntax model. */
import type { Decl } from "@taskspec/compiler";
import { isScalar } from "yaml";

/** The value of `key` in the declaration's mapping, when it is a non-null scalar. */
export function scalarValue(decl: Decl, key: string): string | undefined {
  const pair = decl.map?.items.find((p) => isScalar(p.key) && p.key.value === key);
  return pair && isScalar(pair.value) && pair.value.value !== null ? String(pair.value.value) : undefined;
}
