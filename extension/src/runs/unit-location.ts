/**
 * Where a unit is defined in a contract's text: the line of its key in the
 * top-level `units:` map (a block map, as contracts are written and as the
 * formatter lays them out). A flow-style `units: {...}` is not searched.
 */

/** 0-based line and the key's column, or undefined when the text defines no such unit. */
export function unitLocation(text: string, unit: string): { line: number; column: number } | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^units\s*:\s*(#.*)?$/.test(l));
  if (start < 0) return undefined;
  let indent: number | undefined;
  for (let i = start + 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(#.*)?$/.test(line)) continue;
    const own = line.length - line.trimStart().length;
    if (own === 0) return undefined; // the next top-level key: the map ended
    indent ??= own;
    if (own !== indent) continue;
    const key = /^\s*(?:"([^"]*)"|'([^']*)'|([^\s:#'"][^:#]*?))\s*:(\s|$)/.exec(line);
    const name = key?.[1] ?? key?.[2] ?? key?.[3];
    if (name === unit) return { line: i, column: own + (key?.[1] !== undefined || key?.[2] !== undefined ? 1 : 0) };
  }
  return undefined;
}
