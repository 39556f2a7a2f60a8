/**
 * Generated YAML layouts for the formatter's own readers (format-layout.ts,
 * format-relayout.ts): small trees written in the formatter's layout, with
 * blank lines and comments, and one-line mutations of such text, most of
 * which formatting undoes.
 */
import fc from "fast-check";

/** A small YAML tree, written in the formatter's layout by `written`. */
export type Tree = { map: [string, Tree | string][] } | { seq: (Tree | string)[] };

const scalar = fc.constantFrom(
  "x",
  "1",
  "-5",
  "a b",
  "http://x",
  '"q # r"',
  "'it''s'",
  "[a, b]",
  "{ k: v }",
  "[]",
  "{ k: [x, { j: y }] }",
  "~",
);
/**
 * Block scalars: the header, then the content lines relative to the column
 * formatting gives them (`written` indents them; an empty line stays empty).
 */
const blockScalar = fc.constantFrom("|\nx", "|-\nx y\n\n  z", ">\nx\ny", ">-\n\nx: y\n# z", "|+\nx", "|+\nx\n", ">+\n- x\n\n\n  y");
const key = fc.constantFrom("a", "b", "model_calls", "U0", "x.y");
const treeOf = (scalars: fc.Arbitrary<string>): fc.Arbitrary<Tree> =>
  fc.letrec<{ tree: Tree; value: Tree | string }>((tie) => ({
    value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalars, tie("tree")),
    tree: fc.oneof(
      fc.record({ map: fc.array(fc.tuple(key, tie("value")), { minLength: 1, maxLength: 4 }) }),
      fc.record({ seq: fc.array(tie("value"), { minLength: 1, maxLength: 3 }) }),
    ),
  })).tree;
export const tree = treeOf(scalar);
/** Trees whose values may be block scalars as well. */
export const treeWithBlocks = treeOf(fc.oneof({ arbitrary: scalar, weight: 3 }, { arbitrary: blockScalar, weight: 1 }));
/** What goes above or after a line: 0 nothing, 1 a blank line, 2 a comment line, 3 a trailing comment. */
export const extras = fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 20 });

export function written(root: Tree, step: number, extra: number[]): string {
  const lines: string[] = [];
  let k = 0;
  const next = () => extra[k++ % extra.length]!;
  /** `blockCol`: where a block scalar's content goes (a value on several lines is one). */
  const line = (col: number, content: string, opener: boolean, blockCol = 0) => {
    const e = next();
    if (e === 1 && lines.length > 0) lines.push("");
    if (e === 2) lines.push(`${" ".repeat(col)}# note`);
    const [first, ...rest] = content.split("\n");
    lines.push(" ".repeat(col) + first + (e === 3 && !opener && rest.length === 0 ? " # why" : ""));
    for (const l of rest) lines.push(l === "" ? "" : " ".repeat(blockCol) + l);
  };
  const value = (v: Tree | string, col: number, head: string, headCol: number) => {
    if (typeof v === "string") return line(headCol, `${head} ${v}`.trimStart(), false, col);
    if ("seq" in v || head.endsWith(":")) {
      line(headCol, head, true);
      return block(v, col);
    }
    block(v, col, head, headCol);
  };
  /** A block at `col`; `dash`: its first line goes after a sequence dash written at `dashCol`. */
  const block = (t: Tree, col: number, dash?: string, dashCol?: number) => {
    if ("map" in t)
      t.map.forEach(([k2, v], i) => {
        const head = i === 0 && dash !== undefined ? `${dash} ${k2}:` : `${k2}:`;
        value(v, col + step, head, i === 0 && dashCol !== undefined ? dashCol : col);
      });
    else
      for (const item of t.seq) {
        if (typeof item === "string") line(col, `- ${item}`, false, col + 2);
        else if ("map" in item) block(item, col + 2, "-", col);
        else return; // a sequence in a sequence is outside the subset: cut here
      }
  };
  block(root, 0);
  return lines.join("\n") + "\n";
}

/** One change of layout somewhere in `text`, most of them ones formatting undoes. */
export function mutated(text: string, at: number, kind: number): string {
  const lines = text.split("\n");
  const i = at % Math.max(1, lines.length - 1);
  const l = lines[i]!;
  const changes = [
    () => ` ${l}`,
    () => l.replace(/^ /, ""),
    () => l.replace(": ", ":  "),
    () => `${l} `,
    () => l.replace(", ", ","),
    () => l.replace("{ ", "{"),
    () => l.replace("- ", "-  "),
    () => l.replace(" #", "  #"),
    () => `${l}\n`,
    () => `${l}\n\n`,
    () => `${l}\n# c`,
    () => `${l}\n   # c`,
    () => l.replace(/^( *)/, "$1# c\n$1 "),
    () => l.replace(/: (.*)$/, ":\n  $1"),
  ];
  lines[i] = changes[kind % changes.length]!();
  return lines.join("\n");
}
