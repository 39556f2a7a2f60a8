/**
 * The block-YAML fast path against the `yaml` package, node by node: on
 * every contract in the repository and on random contract-shaped YAML and
 * random edits of it, the fast path either declines (undefined) or returns
 * exactly what yaml composes: the same node classes, values, scalar types,
 * sources and all three range offsets. It must decline whenever yaml reports
 * an error or a warning.
 */
import fc from "fast-check";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isMap, isScalar, isSeq, parseDocument, type Node } from "yaml";
import { parseBlockYaml } from "../src/parse/block-yaml.js";
import { fcRuns } from "../../test/fc-runs.js";

const REPO = join(import.meta.dirname, "..", "..");

/** A comparable description of a node tree. */
function dump(node: unknown): unknown {
  if (node === null || node === undefined) return node;
  const n = node as Node;
  if (isScalar(n)) {
    return {
      scalar: n.value,
      type: n.type,
      range: n.range,
      source: n.source,
      minFractionDigits: n.minFractionDigits,
      format: n.format,
      tag: n.tag,
    };
  }
  if (isMap(n)) return { map: n.items.map((p) => [dump(p.key), dump(p.value)]), range: n.range, flow: n.flow ?? false };
  if (isSeq(n)) return { seq: n.items.map(dump), range: n.range, flow: n.flow ?? false };
  return { other: String(n) };
}

/** Asserts the fast path agrees with yaml on `text`; returns whether it took the text. */
function agrees(text: string): boolean {
  const fast = parseBlockYaml(text);
  if (!fast) return false;
  const reference = parseDocument(text, { uniqueKeys: false });
  expect(
    reference.errors.map((e) => e.message),
    JSON.stringify(text),
  ).toEqual([]);
  expect(
    reference.warnings.map((e) => e.message),
    JSON.stringify(text),
  ).toEqual([]);
  expect(dump(fast.contents), JSON.stringify(text)).toEqual(dump(reference.contents));
  return true;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name.startsWith(".")) return [];
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

describe("block-YAML fast path", () => {
  it("agrees with yaml on every YAML file in specs/, examples/, docs/ and test/, and takes the valid contracts", () => {
    const files = ["specs", "examples", "docs", "test"].flatMap((d) => yamlFiles(join(REPO, d)));
    expect(files.length).toBeGreaterThan(40);
    let taken = 0;
    for (const file of files) if (agrees(readFileSync(file, "utf8"))) taken++;
    // the three example contracts are plain block YAML: the fast path must not decline them
    for (const name of ["market-entry-pack", "publish-post", "trip-booking"]) {
      expect(parseBlockYaml(readFileSync(join(REPO, "specs", `${name}.task.yaml`), "utf8")), name).toBeDefined();
    }
    expect(taken).toBeGreaterThan(files.length / 2);
  });

  it("agrees on hand-picked corners", () => {
    const corners = [
      "",
      "# only a comment\n",
      'a: 1  # c\nb:\nc: [x, "y" ,z]  \nd:\n  - p: 1\n    q:\n  - 2\ne: |\n  hi\n\n  there\nf: { k: v }\n',
      "a:\n  x: 1   \n\n  # between\n  y: 2 # t\n\n# top comment\n\nb:   \n  - q\n\n  # c\nc: end",
      "a: [ ]\nb: {}\nc: 'it''s'\nd: x y  z\ne: >-\n  folded\n  text\n\n  para\nf: \"q: #\"\n",
      "b:   \nc: |\n  hi\n\n\nd: >\n  a\n  b\n\n\n  c\n\ne:\n-\n- x\nf: [ [a], {b: c} ]\ng: 1.50\nh: -3\n",
      "a:\n  b: 1\n\n  # c\n\n",
      "a: |\n  no final newline",
      "a: |-\n  stripped\n",
      "a:  # comment after an empty value\n  b: 1\n",
      "x:\n  a: # c\n  b: 1",
      "a:\n  b: hu\n       # deeper comment\n  d: 1\n",
      "- a\n- - b\n",
      "a: b: c\n",
      "a: - b\n",
      "? a\n: b\n",
      "a: &x 1\nb: *x\n",
      "a: !!str 1\n",
      "---\na: 1\n",
      'a: "esc\\n"\n',
      "a: 'multi\n  line'\n",
      "a: plain\n  continued\n",
      "a: [1,\n  2]\n",
      "a: 0x1F\nb: 1e3\nc: .inf\n",
      "1: one\ntrue: yes\nnull: none\n",
      "a:\n- x\n- y\nb: 2\n",
      "  a: 1\n  b: 2\n",
      "a:\n    deep: 1\n  shallow: 2\n",
      "a: 1\n a: 2\n",
      "a: 1\na: 2\n",
      "a: {b}\n",
      "a: [b: c]\n",
      "a: [b, ]\n",
      "k: 'x'#c\n",
      "a: |2\n   x\n",
      "a: >\n  x\n    more\n  y\n",
      "a:\n  - |\n    text\n  - b\n",
      "- k: v\n  k2: v2\n- k3: v3\n",
      'x: "${inputs.audience}-${unit.id}"\n',
      'a: "unterminated\n',
      "a: [unterminated\n",
      "a:\tb\n",
      "a: 1\r\nb: 2\r\n",
    ];
    for (const text of corners) agrees(text);
  });

  // Contract-shaped YAML with random layout: indentation, comments, blank lines, quoting, flow or block lists.
  const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);
  const scalarText = fc.oneof(
    word,
    fc.constantFrom(
      "1",
      "-2",
      "3.50",
      "0.5",
      "true",
      "False",
      "null",
      "~",
      "x y",
      "a:b",
      "http://h/p",
      "1e3",
      "0x10",
      "-",
      "- x",
      "a #b",
      "a# b",
      "''",
      '""',
      "it's",
      "${x}",
      "[a]",
      "{a}",
      "@x",
      "*a",
      "&a b",
      "!t x",
      "%p",
      "`q`",
    ),
    fc.string({ maxLength: 8 }),
  );
  const quoted = (s: string, q: string) => (q === '"' ? `"${s.replace(/["\\]/g, "")}"` : q === "'" ? `'${s.replace(/'/g, "''")}'` : s);
  const scalar = fc.tuple(scalarText, fc.constantFrom("", "", '"', "'")).map(([s, q]) => quoted(s, q));
  const flowList = fc
    .tuple(fc.array(scalar, { maxLength: 4 }), fc.constantFrom(",", ", ", " , "))
    .map(([items, sep]) => `[${items.join(sep)}]`);
  const flowMap = fc
    .array(fc.tuple(word, scalar), { maxLength: 3 })
    .map((pairs) => `{ ${pairs.map(([k, v]) => `${k}: ${v}`).join(", ")} }`);
  const comment = fc.constantFrom("", "", "  # note", " #x", "#y");
  type Tree =
    | { kind: "scalar"; text: string }
    | { kind: "map"; entries: [string, Tree][] }
    | { kind: "seq"; items: Tree[] }
    | { kind: "block"; header: string; lines: string[] };
  const tree: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.oneof(scalar, flowList, flowMap).map((text) => ({ kind: "scalar" as const, text })),
      fc.record({
        kind: fc.constant("block" as const),
        header: fc.constantFrom("|", ">", "|-", ">-", "|+"),
        lines: fc.array(fc.oneof(word, fc.constant(""), fc.constant("  indented"), fc.constant("x y")), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({
        kind: fc.constant("map" as const),
        entries: fc.array(fc.tuple(fc.oneof(word, scalar), tie("tree")), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({ kind: fc.constant("seq" as const), items: fc.array(tie("tree"), { minLength: 1, maxLength: 3 }) }),
    ),
  })).tree;
  const layout = fc.record({
    step: fc.constantFrom(1, 2, 2, 4),
    blank: fc.integer({ min: 0, max: 4 }),
    comments: fc.array(comment, { minLength: 8, maxLength: 8 }),
    zeroSeq: fc.boolean(),
  });

  function render(t: Tree, l: { step: number; blank: number; comments: string[]; zeroSeq: boolean }): string {
    let n = 0;
    const note = () => l.comments[n++ % l.comments.length]!;
    const gap = () => (n % 5 < l.blank ? (n % 2 ? "\n" : `${" ".repeat(n % 3)}# gap\n`) : "");
    const lines: string[] = [];
    const emit = (node: Tree, indent: number, lead: string): void => {
      const pad = " ".repeat(indent);
      if (node.kind === "scalar") lines.push(`${lead} ${node.text}${note()}`);
      else if (node.kind === "block") {
        lines.push(`${lead} ${node.header}`);
        for (const line of node.lines) lines.push(line ? `${pad}${" ".repeat(l.step)}${line}` : "");
      } else if (node.kind === "map") {
        lines.push(`${lead}${note()}`);
        const inner = " ".repeat(indent + l.step);
        for (const [k, v] of node.entries) {
          const g = gap();
          if (g) lines.push(g.slice(0, -1));
          emit(v, indent + l.step, `${inner}${k}:`);
        }
      } else {
        lines.push(`${lead}${note()}`);
        const inner = " ".repeat(l.zeroSeq ? indent : indent + l.step);
        for (const item of node.items) emit(item, indent + l.step, `${inner}-`);
      }
    };
    if (t.kind === "map") for (const [k, v] of t.entries) emit(v, 0, `${k}:`);
    else emit(t, 0, "root:");
    return lines.join("\n") + "\n";
  }

  it("agrees on random contract-shaped YAML, and takes most of it", () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(tree, layout, (t, l) => {
        runs++;
        if (agrees(render(t, l))) taken++;
      }),
      fcRuns(1500),
    );
    expect(taken).toBeGreaterThan(runs / 5);
  });

  it("agrees after random edits (inserted, deleted or replaced characters)", () => {
    const bases = ["trip-booking", "publish-post", "market-entry-pack"].map((name) =>
      readFileSync(join(REPO, "specs", `${name}.task.yaml`), "utf8"),
    );
    const edit = fc.tuple(
      fc.nat(20_000),
      fc.nat(3),
      fc.constantFrom("", " ", "  ", "\n", ":", "- ", "#", "'", '"', "[", "{", "]", ",", "|", ">", "x", "\n  ", "\n- ", ": "),
    );
    fc.assert(
      fc.property(fc.constantFrom(...bases), fc.array(edit, { minLength: 1, maxLength: 3 }), (base, edits) => {
        let text = base;
        for (const [at, del, insert] of edits) {
          const i = at % (text.length + 1);
          text = text.slice(0, i) + insert + text.slice(i + del);
        }
        agrees(text);
      }),
      fcRuns(1500),
    );
  });
});
