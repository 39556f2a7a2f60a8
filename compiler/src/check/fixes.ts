/**
 * Text edits that add a key to a YAML mapping, in block or flow style, keeping
 * the mapping's indentation. Quick fixes are built from these.
 */
import type { YAMLMap } from "yaml";
import type { Span } from "../diagnostics/types.js";
import type { FixSpec } from "../source/diagnostic.js";
import type { LineIndex } from "../source/line-index.js";

type Edit = FixSpec["edits"][number];

/** Edit that inserts `key: value` entries at the start of `map`; undefined for an empty block map. */
export function insertFirstKey(lines: LineIndex, map: YAMLMap, ...entries: [key: string, value: string][]): Edit | undefined {
  const texts = entries.map(([key, value]) => `${key}: ${value}`);
  const first = map.items[0]?.key as { range?: [number, number, number] } | undefined;
  if (map.flow) {
    const open = map.range?.[0];
    if (open === undefined) return undefined;
    return { span: at(open + 1), newText: map.items.length === 0 ? ` ${texts.join(", ")} ` : ` ${texts.join(", ")},` };
  }
  const start = first?.range?.[0];
  if (start === undefined) return undefined;
  const indent = " ".repeat(lines.offsetToPosition(start).character);
  return { span: at(start), newText: texts.map((t) => `${t}\n${indent}`).join("") };
}

/** Edit that appends `key: value` as the last entry of `map`. */
export function appendKey(lines: LineIndex, map: YAMLMap, key: string, value: string): Edit | undefined {
  const last = map.items[map.items.length - 1];
  if (map.flow) {
    const close = map.range?.[1];
    if (close === undefined) return undefined;
    const brace = lines.text.lastIndexOf("}", close);
    return { span: at(brace), newText: map.items.length === 0 ? `${key}: ${value} ` : `, ${key}: ${value} ` };
  }
  const firstKey = map.items[0]?.key as { range?: [number, number, number] } | undefined;
  const lastNode = (last?.value ?? last?.key) as { range?: [number, number, number] } | undefined;
  if (!firstKey?.range || !lastNode?.range) return undefined;
  const indent = " ".repeat(lines.offsetToPosition(firstKey.range[0]).character);
  let end = lastNode.range[1];
  while (end > 0 && /\s/.test(lines.text[end - 1]!)) end--;
  return { span: at(end), newText: `\n${indent}${key}: ${value}` };
}

function at(offset: number): Span {
  return { start: offset, end: offset };
}
