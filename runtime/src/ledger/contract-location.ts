/**
 * Where a unit's key stands in its contract, for guard messages: the plan
 * carries no source positions (so a comment edit does not change it), so the
 * contract is re-read only when a guard refuses something.
 */
import { readFileSync } from "node:fs";
import { parseContract } from "@taskspec/compiler";

/** `file:line:col` of `units.<unit>.<key>` (or of the unit itself), or just `file` when unreadable. */
export function contractLocation(file: string, unit: string, key: string): string {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return file;
  }
  const { model, lines } = parseContract(text);
  const decl = model.units.get(unit);
  if (!decl) return file;
  const pair = decl.map?.items.find((p) => (p.key as { value?: unknown } | null)?.value === key);
  const offset = (pair?.key as { range?: [number, number, number] } | undefined)?.range?.[0] ?? decl.keySpan.start;
  const { line, character } = lines.offsetToPosition(offset);
  return `${file}:${line + 1}:${character + 1}`;
}
