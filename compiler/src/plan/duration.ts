/** `45m`, `36h`, `90s`, `500ms`, `2d` -> milliseconds (the schema guarantees the shape). */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function durationMs(text: string): number {
  const m = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h|d)$/.exec(text);
  if (!m) throw new Error(`not a duration: ${text}`);
  return Math.round(Number(m[1]) * UNIT_MS[m[2]!]!);
}
