/**
 * Seeded mutations of contract text, at three levels: bytes (any code unit,
 * control characters and lone surrogates included), lines (duplicated up to
 * thousands of times, deleted, swapped, re-indented) and YAML structure (a
 * key nested in flow maps as keys, values wrapped in flow collections, anchors
 * and aliases, tags, numbers and names a reader should refuse).
 */
import fc from "fast-check";

const STRUCTURAL = [..."{}[]:,-&*!|>'\"#\n \t$?%@`\r\\"];

/** Values a hostile author would try in place of a scalar. */
const VALUES = [
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "1e308",
  "-1e308",
  "1e400",
  "25d",
  "0s",
  "99999999999d",
  ".nan",
  ".inf",
  "9".repeat(400),
  "!!binary AAAA",
  "!custom x",
  "*undefined_alias",
  "&anchor",
  "'",
  '"\\u0000\\x1b[2J"',
  "? complex",
  "x".repeat(5000),
  "${" + "(".repeat(300),
  "${" + "a.".repeat(2000) + "b}",
  "[" + "x, ".repeat(3000) + "x]",
  "<<: *a",
  "|\n" + "  line\n".repeat(500),
];

export type Mutation =
  | { kind: "insert"; at: number; text: string }
  | { kind: "delete"; at: number; length: number }
  | { kind: "duplicate-line"; line: number; times: number }
  | { kind: "delete-line"; line: number }
  | { kind: "swap-lines"; a: number; b: number }
  | { kind: "indent"; line: number; by: number }
  | { kind: "flow-key"; line: number; depth: number }
  | { kind: "flow-wrap"; line: number; depth: number; open: "[" | "{" }
  | { kind: "value"; line: number; value: string }
  | { kind: "alias-fan"; line: number; times: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: fc.string({ unit: "binary", maxLength: 8 }) }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    text: fc.string({ unit: fc.constantFrom(...STRUCTURAL), maxLength: 16 }),
  }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({
    kind: fc.constant("duplicate-line" as const),
    line: fc.nat(),
    times: fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 100, max: 3000 })),
  }),
  fc.record({ kind: fc.constant("delete-line" as const), line: fc.nat() }),
  fc.record({ kind: fc.constant("swap-lines" as const), a: fc.nat(), b: fc.nat() }),
  fc.record({ kind: fc.constant("indent" as const), line: fc.nat(), by: fc.integer({ min: -6, max: 10 }) }),
  fc.record({ kind: fc.constant("flow-key" as const), line: fc.nat(), depth: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant("flow-wrap" as const),
    line: fc.nat(),
    depth: fc.integer({ min: 1, max: 200 }),
    open: fc.constantFrom("[" as const, "{" as const),
  }),
  fc.record({ kind: fc.constant("value" as const), line: fc.nat(), value: fc.constantFrom(...VALUES) }),
  fc.record({ kind: fc.constant("alias-fan" as const), line: fc.nat(), times: fc.integer({ min: 1, max: 2000 }) }),
);

/** Applies one mutation; positions wrap around the text, so every mutation applies. */
export function apply(text: string, m: Mutation): string {
  if (m.kind === "insert") {
    const at = m.at % (text.length + 1);
    return text.slice(0, at) + m.text + text.slice(at);
  }
  if (m.kind === "delete") {
    const at = m.at % (text.length + 1);
    return text.slice(0, at) + text.slice(at + m.length);
  }
  const lines = text.split("\n");
  const n = (i: number) => i % lines.length;
  const at = n("line" in m ? m.line : 0);
  const line = lines[at]!;
  const colon = line.indexOf(": ");
  const indent = line.length - line.trimStart().length;
  switch (m.kind) {
    case "duplicate-line":
      lines.splice(at, 0, ...Array<string>(m.times).fill(line));
      break;
    case "delete-line":
      lines.splice(at, 1);
      break;
    case "swap-lines": {
      const [a, b] = [n(m.a), n(m.b)];
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      break;
    }
    case "indent":
      lines[at] = m.by >= 0 ? " ".repeat(m.by) + line : line.slice(Math.min(-m.by, indent));
      break;
    case "flow-key":
      // `key: value` becomes `{{…{key: value}: 1…}: 1`: flow maps used as keys, `depth` levels
      lines[at] = `${line.slice(0, indent)}${"{".repeat(m.depth)}${line.trimStart()}${"}: 1".repeat(m.depth)}`;
      break;
    case "flow-wrap":
      if (colon >= 0)
        lines[at] =
          `${line.slice(0, colon + 2)}${m.open.repeat(m.depth)}${line.slice(colon + 2)}${(m.open === "[" ? "]" : "}").repeat(m.depth)}`;
      break;
    case "value":
      lines[at] = colon >= 0 ? `${line.slice(0, colon + 2)}${m.value}` : `${line}${m.value}`;
      break;
    case "alias-fan":
      // anchor this line's value and refer to it from many new keys below
      if (colon >= 0) {
        lines[at] = `${line.slice(0, colon + 2)}&fan ${line.slice(colon + 2)}`;
        const pad = line.slice(0, indent);
        lines.splice(at + 1, 0, ...Array.from({ length: m.times }, (_, i) => `${pad}fan${i}: *fan`));
      }
      break;
  }
  return lines.join("\n");
}

/** A seed (by index) and a few mutations of it; a failure prints these, not the text. */
export function mutant(seeds: readonly { name: string; text: string }[]): fc.Arbitrary<{ seed: string; mutations: Mutation[] }> {
  return fc
    .tuple(fc.nat(seeds.length - 1), fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([i, mutations]) => ({ seed: seeds[i]!.name, mutations }));
}

/** The text of a mutant. */
export function mutantText(seeds: readonly { name: string; text: string }[], m: { seed: string; mutations: Mutation[] }): string {
  return m.mutations.reduce(apply, seeds.find((s) => s.name === m.seed)!.text);
}
