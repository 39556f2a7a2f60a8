/**
 * The layout check that lets formatting skip the `yaml` library for text it
 * would give back unchanged (format-layout.ts): a table of layouts it proves
 * and layouts it must refuse, a property that every "yes" is what
 * format-yaml.ts gives back on generated and mutated layouts, and the count of
 * yaml runs for an already formatted contract, which is zero only with the
 * check in place.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateContract } from "../../bench/lsp/generate-contract.mjs";
import { alreadyFormatted } from "../src/service/format-layout.js";
import { formatInPieces, scalarSpans } from "../src/service/format-pieces.js";
import { formatYaml } from "../src/service/format-yaml.js";
import { fcRuns } from "../../test/fc-runs.js";
import { analyzeText } from "./helpers.js";
import { extras, mutated, treeWithBlocks, written } from "./yaml-layouts.js";

/** Layouts the check proves: each is exactly what formatting gives back. */
const PROVED: [name: string, text: string, indent?: number][] = [
  ["a scalar entry", "a: 1\n"],
  ["nested mappings", "a:\n  b: 1\n  c:\n    d: x y z\n"],
  ["a sequence one level below its key", "a:\n  - x\n  - -5\n"],
  ["mappings in a sequence", "a:\n  - b: 1\n    c: 2\n  - b:\n      - x\n"],
  ["four spaces per level, a sequence item's mapping at the dash plus two", "a:\n    - b: 1\n      c:\n          d: 2\n", 4],
  ["flow collections, nested and empty", "a: [{ a: 1 }, [b, c], {}]\nb: { a: [x, y], b: { c: d } }\nc: []\n"],
  ["quoted scalars, with `#` and `: ` inside", "a: \"x # y: z\" # c\nb: 'it''s'\nc: { k: \"x, y\", j: 'z' }\nd: \"\"\n"],
  ["a trailing comment one space after a value", "a: [x] # c\nb: { x: 1 } #d\nc:\n  - x # e\n"],
  ["comment lines above an entry, also after a `key:` and before a shallower entry", "# c\na:\n  # d\n  b: 1\n# e\nf: 2\n"],
  ["single blank lines, also after a comment", "# top\n\na: 1\n\nb:\n  c: 1\n\n  d: 2\n\ne:\n  - x\n\n  - y\n"],
  [
    "a piece of `units` between its made-up siblings",
    "units:\n  tsfmt0sp: 0\n  U1:\n    phase: p\n    needs: { U0: [content, policy] }\n  tsfmt0sn: 0\n",
  ],
  ["plain scalars with colons, brackets and hashes inside", "a: http://x/y#z\nb: x[1]\nc: ~\n"],
  ["literal and folded block scalars, each chomping", "a: |\n  x\nb: |-\n  x\nc: |+\n  x\nd: >\n  x\n  y\ne: >-\n  x\nf: >+\n  x\n"],
  ["a block scalar's blank lines inside, before its first line and one after it", "a: |\n\n  x\n\n\n  y\n\nb: |-\n  x\n\n# c\nc: 1\n"],
  ["a block scalar's deeper lines and lines that look like YAML", "a: >\n  x\n    y\n  # z\n  - k: v\nb: 1\n"],
  ["a kept block's trailing blank line before the next entry", "a: |+\n  x\n\nb: 1\n"],
  ["block scalars two columns past a lone dash and one step past a key", "a:\n    - |\n      x\n    - b: >-\n          y\n      c: 1\n", 4],
  ["a block scalar ending at a shallower entry and a comment", "a:\n  b: |-\n    x\n  # c\n  d: 1\ne: 2\n"],
];

/** Layouts formatting changes: the check must refuse them. */
const CHANGED: [name: string, text: string, indent?: number][] = [
  ["two spaces after a colon", "a:  1\n"],
  ["four spaces per level at two", "a:\n    b: 1\n"],
  ["a sequence at its key's column", "a:\n- x\n"],
  ["an unpadded flow mapping", "a: {x: 1}\n"],
  ["a padded flow sequence", "a: [ x ]\n"],
  ["a space before a flow comma", "a: [x , y]\n"],
  ["two spaces before a flow mapping's brace", "a: { x: 1  }\n"],
  ["spaces before a trailing comment", "a: x   # c\n"],
  ["two blank lines", "a: 1\n\n\nb: 2\n"],
  ["a comment at the end of the text", "a: 1\n# c\n"],
  ["a comment after `key:` on its line", "a: # c\n  b: 1\n"],
  ["a comment shallower than the entry below it", "a:\n  b: 1\n# c\n  d: 2\n"],
  ["spaces after a sequence dash", "a:\n    -   b: 1\n        c: 2\n", 4],
  ["a sequence item's nested block one level below the dash", "a:\n    - b:\n        c: 2\n", 4],
  ["no final newline", "a: 1"],
  ["a trailing blank line", "a: 1\n\n"],
  ["a trailing space", "a: 1 \n"],
  ["a block scalar's first line deeper than one step", "a: |\n   x\n"],
  ["a block scalar's first line shallower than one step", "a: |\n x\n"],
  ["a block scalar four columns past a lone dash at four per level", "a:\n    - |\n        x\n", 4],
  ["a line of spaces inside a block scalar", "a: |\n  x\n  \n  y\n"],
  ["a line of spaces before a block scalar's first line", "a: |\n  \n  x\n"],
  ["two blank lines after a block scalar", "a: |\n  x\n\n\nb: 1\n"],
  ["a blank line after a block scalar at the end", "a: >-\n  x\n\n"],
  ["a line after a block scalar between its key and its content", "a:\n  b: |\n    x\n   c: 1\n"],
];

/** Layouts outside what the check knows: refused though formatting may keep them. */
const OUTSIDE: [name: string, text: string][] = [
  ["a block scalar with an indentation indicator", "a: |2\n   x\n"],
  ["a block scalar with a comment on its header", "a: | # c\n  x\n"],
  ["a block scalar without content", "a: |\nb: 1\n"],
  ["a block scalar with a trailing space", "a: |\n  x \n"],
  ["a kept block scalar's blank lines before the next entry", "a: |+\n  x\n\n\nb: 1\n"],
  ["a block scalar as a value without a key", "a: 1\n|\n  x\n"],
  ["an anchor and an alias", "a: &x 1\nb: *x\n"],
  ["a tag", "a: !!str 1\n"],
  ["a quoted key", '"a": 1\n'],
  ["CRLF line ends", "a: 1\r\n"],
  ["a tab", "a: x\ty\n"],
  ["flow collections four deep", "a: [[[[x]]]]\n"],
  ["a blank line after `key:`", "a:\n\n  b: 1\n"],
  ["an empty value", "a:\n"],
  ["a plain scalar over two lines", "a: x\n  y\n"],
  ["a document marker", "---\na: 1\n"],
  ["a sequence at the top level", "- a\n"],
  ["a doubled space inside a plain scalar", "a: x  y\n"],
];

describe("alreadyFormatted", () => {
  it.each(PROVED)("proves %s", (_, text, indent = 2) => {
    expect(formatYaml(text, { indent })).toBe(text);
    expect(alreadyFormatted(text, indent)).toBe(true);
  });

  it.each(CHANGED)("refuses %s, which formatting changes", (_, text, indent = 2) => {
    expect(formatYaml(text, { indent })).not.toBe(text);
    expect(alreadyFormatted(text, indent)).toBe(false);
  });

  it.each(OUTSIDE)("refuses %s", (_, text) => {
    expect(alreadyFormatted(text, 2)).toBe(false);
  });

  it("uses the client's indentation width", () => {
    expect(alreadyFormatted("a:\n  b: 1\n", 2)).toBe(true);
    expect(alreadyFormatted("a:\n  b: 1\n", 4)).toBe(false);
    expect(alreadyFormatted("a:\n    b: 1\n", 4)).toBe(true);
  });
});

describe("a proof is always what formatting gives back", () => {
  it("on generated layouts, each with one change or none", () => {
    let proved = 0;
    let provedBlocks = 0;
    let refused = 0;
    const runs = fcRuns(300);
    fc.assert(
      fc.property(
        treeWithBlocks,
        fc.integer({ min: 1, max: 4 }),
        extras,
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (root, step, extra, at, kind, change) => {
          const clean = written(root, step, extra);
          const text = change ? mutated(clean, at, kind) : clean;
          if (!alreadyFormatted(text, step)) {
            refused++;
            return;
          }
          proved++;
          if (/[|>][-+]?\n/.test(text)) provedBlocks++;
          expect(formatYaml(text, { indent: step })).toBe(text);
        },
      ),
      runs,
    );
    // The property says something only if many layouts were proved, and some
    // refused. CI draws a fresh seed each time, so each floor sits about five
    // standard deviations below what the generators give over 300 runs
    // (proved: mean 70, sd 7, 48 at the lowest of 60 seeds; blocks: mean 43,
    // sd 7): a floor of a sixth failed by chance once (49 < 50).
    expect(proved).toBeGreaterThanOrEqual(Math.ceil(runs.numRuns / 10));
    expect(refused).toBeGreaterThanOrEqual(Math.ceil(runs.numRuns / 10));
    expect(provedBlocks).toBeGreaterThanOrEqual(Math.ceil(runs.numRuns / 30));
  });
});

describe("formatting an already formatted contract", () => {
  it("runs no yaml: every piece is proved, and an edit that unformats one unit runs yaml for that unit only", () => {
    const text = generateContract(300) as string;
    const doc = analyzeText(text).parsed.doc!;
    const shapes = { scalars: () => scalarSpans(doc), memo: new Map() };
    const memo = new Map<string, string>();
    const first = formatInPieces(text, 2, true, memo, shapes);
    expect(first).toEqual({ formatted: text, formattedPieces: 0 });
    // nothing was remembered, so the whole text was proved in one pass: no pieces to remember
    expect(memo.size).toBe(0);
    // (a comment that ends in spaces, which yaml keeps and neither the check nor the re-layout takes)
    const edited = text.replace("    phase: extract\n", "    phase: extract # why  \n");
    const second = formatInPieces(edited, 2, true, memo);
    expect(second).toEqual({ formatted: edited, formattedPieces: 1 });
    expect(memo.size).toBe(301);
    // with pieces remembered, the text goes by pieces again (the edited one is no longer among them)
    expect(formatInPieces(text, 2, true, memo)).toEqual({ formatted: text, formattedPieces: 0 });
    expect(memo.size).toBe(301);
  });

  it("runs no yaml when each unit has a block scalar (`phase: |-`, the value on the next line)", () => {
    const text = (generateContract(300) as string).replace(/^( +)phase: (.*)$/gm, "$1phase: |-\n$1  $2");
    const doc = analyzeText(text).parsed.doc!;
    expect(formatYaml(text, { indent: 2 })).toBe(text);
    expect(formatInPieces(text, 2, true, new Map(), { scalars: () => scalarSpans(doc), memo: new Map() })).toEqual({
      formatted: text,
      formattedPieces: 0,
    });
  });

  it("runs no yaml on a small contract formatted whole", () => {
    const text = "contract: 1\ntask:\n  id: t\n  goal: g\nunits:\n  a:\n    phase: p\n";
    expect(formatInPieces(text, 2, false, new Map())).toEqual({ formatted: text, formattedPieces: 0 });
    expect(formatInPieces(text.replace("id: t", "id: t # why  "), 2, false, new Map()).formattedPieces).toBe(1);
  });

  it("at another indentation width, lays every piece out without yaml (format-relayout.ts)", () => {
    const text = generateContract(30) as string;
    const result = formatInPieces(text, 4, true, new Map());
    expect(result.formattedPieces).toBe(0);
    expect(result.formatted).toBe(formatYaml(text, { indent: 4 }));
  });
});
