/**
 * A plan as the JSON `compile` writes: indented two spaces down to a depth
 * no real plan's data goes below (the three example plans print byte for
 * byte as `JSON.stringify(plan, null, 2)` would), compact beneath it. A
 * compiled expression is a tree as deep as the expression is long: a legal
 * 999-term check indented whole took 16 MB for 138 KB of data.
 */
const INDENTED_LEVELS = 12;

export function planJson(plan: unknown): string {
  return `${indented(plan, INDENTED_LEVELS, "")}\n`;
}

function indented(value: unknown, levels: number, indent: string): string | undefined {
  if (levels === 0 || value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function")
    return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v: unknown) => inner + (indented(v, levels - 1, inner) ?? "null")).join(",\n")}\n${indent}]`;
  }
  const entries: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    const text = indented(v, levels - 1, inner);
    if (text !== undefined) entries.push(`${inner}${JSON.stringify(key)}: ${text}`);
  }
  return entries.length === 0 ? "{}" : `{\n${entries.join(",\n")}\n${indent}}`;
}
