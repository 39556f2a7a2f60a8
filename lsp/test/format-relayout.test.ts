/**
 * Laying text out without the `yaml` library when only whitespace changes
 * (format-relayout.ts): a table of re-layouts, each exactly what format-
 * yaml.ts gives and each formatted with no yaml run (with one before this
 * path existed); a table of texts it must leave to `yaml`; a property that
 * every re-layout is what format-yaml.ts gives, on generated layouts written
 * at other widths and spacings, with one mutation or none; and a contract
 * re-indented throughout (also with a block scalar per unit), formatted in
 * pieces with no yaml run.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateContract } from "../../bench/lsp/generate-contract.mjs";
import { formatInPieces } from "../src/service/format-pieces.js";
import { relaidOut } from "../src/service/format-relayout.js";
import { formatYaml } from "../src/service/format-yaml.js";
import { fcRuns } from "../../test/fc-runs.js";
import { analyzeText } from "./helpers.js";
import { extras, mutated, tree, treeWithBlocks, written } from "./yaml-layouts.js";

/** Layouts that change only in whitespace YAML reads as layout: laid out without yaml. */
const RELAID: [name: string, text: string, indent?: number][] = [
  ["four spaces per level at two", "a:\n    b: 1\n    c:\n        d: 2\n"],
  ["two spaces per level at four", "a:\n  b:\n    - c\n  d: 1\n", 4],
  ["a different width in each block", "a:\n   b: 1\nc:\n     d:\n      - x\n"],
  ["a sequence at its key's column, and after it the key's sibling", "a:\n- x\n- y:\n  - z\nb: 1\n"],
  ["spaces after a sequence dash, the item's mapping at its first key", "a:\n  -   k: 1\n      j:\n         - x\n  -  y\n"],
  ["spaces after a colon", "a:     1\nb:   [x, y]\nc:  'q'\n"],
  ["spaces before a trailing comment", "a: x     # c\nb: 1   #d\n"],
  ["trailing spaces, also after `key:`", "a: 1   \nb:   \n  c: 2  \n"],
  ["a run of blank lines, one of them spaces only", "a: 1\n\n\n   \nb: 2\n"],
  ["blank lines at the end", "a:\n  b: 1\n\n\n"],
  ["no final newline", "a:\n    b: 1"],
  [
    "comment lines above entries, after `key:` and before a shallower entry",
    "# c\n\n# d\na:\n    # e\n    b:\n        c: 1\n    # f\n    d: 1\n# g\nh: 1\n",
  ],
  ["a whole document indented", "  a: 1\n  b:\n      c: 2\n"],
  ["a mapping in a sequence item, its block deeper", "a:\n- b:\n        c: 1\n"],
  ["an unpadded flow mapping, a padded flow sequence", "a:\n    b: {x: 1, y: [ z ]}\n    c: [ {k: v} ,w ]\n"],
  ["flow collections in sequence items, empty ones spaced", "a:\n- {a: 1,b: [ x ]}\n- k: { }\n- [ ]\n"],
  ["a flow collection with quoted commas and a comment after it", "a: [ \"q, r\" , 's' ]   # c\n"],
  [
    "a piece of `units` between its made-up siblings",
    "units:\n    tsfmt0sp: 0\n    U1:\n        needs: { U0: [content] }\n    tsfmt0sn: 0\n",
  ],
  ["a block scalar, its deeper lines kept deeper", "a:\n    b: |\n        one\n          two\n"],
  ["a folded block scalar, spaces after its key's colon", "a:   >-\n      x\n      y\nb: 1\n"],
  ["a block scalar's blank lines inside kept, after it one of a run", "a: |\n\n    x\n\n\n    y\n\n\nb: 1\n"],
  ["a block scalar's line of spaces inside emptied", "a: |\n    x\n  \n    y\n"],
  ["block scalars after a lone dash and after an item's key", "a:\n- |\n  x\n-   b: >\n     y\n    c: 1\n"],
  ["a block scalar's content one column deeper than its key", "a:\n    b: |+\n     x\n    c: 1\n"],
];

/** Texts the re-layout must leave to `yaml`: outside what it reads, or where yaml moves something. */
const REFUSED: [name: string, text: string][] = [
  ["a flow mapping's colon without a space (a plain scalar `x:1` in flow)", "a:\n    b: {x:1}\n"],
  ["a space before a flow mapping's colon", "a:\n    b: {x : 1}\n"],
  ["a flow mapping's key without a value", "a:\n    b: {x}\n"],
  ["a trailing comma in a flow sequence", "a:\n    b: [x,]\n"],
  ["an empty entry in a flow sequence", "a:\n    b: [x, , y]\n"],
  ["a doubled space inside a plain scalar in flow", "a:\n    b: [x  y]\n"],
  ["flow collections four deep", "a:\n    b: [[[[x]]]]\n"],
  ["a comment right after a flow collection", "a:\n    b: {x: 1}#c\n"],
  ["a flow collection over two lines", "a:\n    b: [x,\n      y]\n"],
  ["a doubled space inside a plain scalar", "a:\n    b: x  y\n"],
  ["a block scalar with an indentation indicator", "a:\n    b: |2\n          x\n"],
  ["a block scalar with a comment on its header", "a:\n    b: | # c\n        x\n"],
  ["a block scalar's header with a trailing space (yaml keeps it)", "a:\n    b: |- \n        x\n"],
  ["a block scalar without content", "a:\n    b: |\n    c: 1\n"],
  ["a block scalar's content at its key's column", "a:\n    b: |\n    x\n"],
  ["a block scalar's content line with a trailing space (yaml keeps it)", "a:\n    b: |\n        x \n"],
  ["a block scalar's line of spaces longer than its indentation (yaml keeps it)", "a:\n    b: |\n        x\n          \n        y\n"],
  ["a kept block scalar's blank line after it (its content)", "a:\n    b: |+\n        x\n\n    c: 1\n"],
  ["a block scalar without a key or a dash", "a: 1\n|\n  x\n"],
  ["a plain scalar over two lines", "a:\n    b: x\n      y\n"],
  ["a comment after `key:` on its line", "a: # c\n    b: 1\n"],
  ["a comment shallower than the entry below it", "a:\n    b: 1\n  # c\n    d: 2\n"],
  ["a comment deeper than the entry below it", "a:\n    b: 1\n      # c\nd: 2\n"],
  ["a comment at the end of the text", "a:\n    b: 1\n# c\n"],
  ["a comment with trailing spaces (yaml keeps them)", "a:\n    b: 1 # c  \n"],
  ["a blank line after `key:`", "a:\n\n    b: 1\n"],
  ["a blank line at the start", "\na:\n    b: 1\n"],
  ["a run of blank lines below a comment line (yaml keeps it)", "a: 1\n# c\n\n\nb:\n    c: 1\n"],
  ["a line back at a column no open block has", "a:\n    b:\n        c: 1\n  d: 2\n"],
  ["an entry deeper than its sibling, not after `key:`", "a:\n    b: 1\n      c: 2\n"],
  ["a mapping entry at a sequence's column", "a:\n  - x\n  b: 1\n"],
  ["an empty value", "a:\n    b:\n"],
  ["a sequence at the top level", "- a\n"],
  ["a tab", "a:\n    b: x\ty\n"],
  ["CR line ends (the callers take them off)", "a:\r\n    b: 1\r\n"],
  ["an anchor", "a:\n    b: &x 1\n"],
  ["a quoted key", 'a:\n    "b": 1\n'],
  ["a dash with nothing after it", "a:\n    -\n        b: 1\n"],
];

describe("relaidOut", () => {
  it.each(RELAID)("lays out %s as formatting does, with no yaml run", (_, text, indent = 2) => {
    const formatted = formatYaml(text, { indent });
    expect(formatted).not.toBe(text);
    expect(relaidOut(text, indent)).toBe(formatted);
    expect(formatInPieces(text, indent, false, new Map())).toEqual({ formatted, formattedPieces: 0 });
  });

  it.each(REFUSED)("refuses %s", (_, text) => {
    expect(relaidOut(text, 2)).toBeUndefined();
  });

  it("lays out a text too small to cut, though pieces of an earlier version are remembered", () => {
    // a contract that shrank below the pieces' minimum: what is remembered is of no use, and no yaml is needed
    const text = "units:\n    a:\n        phase: p\n";
    const memo = new Map([["2\nstale", "stale"]]);
    expect(formatInPieces(text, 2, true, memo)).toEqual({ formatted: "units:\n  a:\n    phase: p\n", formattedPieces: 0 });
    expect(memo.size).toBe(0);
  });

  it("keeps CRLF line ends when it lays out a text formatted whole", () => {
    const text = "a:\r\n    b: 1\r\n";
    expect(formatInPieces(text, 2, false, new Map())).toEqual({ formatted: "a:\r\n  b: 1\r\n", formattedPieces: 0 });
  });
});

/**
 * `text` (in the formatter's layout) written again with each column
 * moved by a strictly growing map (every block keeps its nesting; a sequence
 * item's mapping keeps its column after the dash), more spaces after colons
 * and before trailing comments, flow collections spaced otherwise, trailing
 * spaces, and runs of blank lines.
 */
function rewritten(text: string, noise: number[]): string {
  let k = 0;
  const pick = (n: number) => noise[k++ % noise.length]! % n;
  const cols = [pick(2) * 2];
  const col = (c: number) => {
    while (cols.length <= c) cols.push(cols[cols.length - 1]! + 1 + pick(3));
    return cols[c]!;
  };
  return text
    .split("\n")
    .flatMap((line, i, all) => {
      if (line === "") return i === all.length - 1 ? [""] : Array.from({ length: 1 + pick(2) }, () => " ".repeat(pick(3)));
      const indent = line.length - line.trimStart().length;
      let body = line.slice(indent);
      // a dash's item mapping starts two columns on: there it must stay where its later keys are
      if (body.startsWith("- ")) body = `-${" ".repeat(col(indent + 2) - col(indent) - 1)}${body.slice(2)}`;
      body = body.replace(
        /^(-\s+)?([A-Za-z0-9_.]+): (?=\S)/,
        (_, dash: string | undefined, key: string) => `${dash ?? ""}${key}:${" ".repeat(1 + pick(3))}`,
      );
      body = body.replace(/ # why$/, `${" ".repeat(1 + pick(3))}# why`);
      // flow collections spaced otherwise (there may be none on the line, or quotes around them)
      body = [
        (b: string) => b,
        (b: string) => b.replace(/\{ /g, "{").replace(/ \}/g, "}"),
        (b: string) => b.replace(/, /g, " ,  "),
        (b: string) => b.replace(/\[/g, "[ ").replace(/, /g, ","),
      ][pick(4)]!(body);
      if (!body.includes("#")) body += " ".repeat(pick(3) === 0 ? 1 + pick(2) : 0);
      return [" ".repeat(col(indent)) + body];
    })
    .join("\n");
}

describe("a re-layout is always what formatting gives", () => {
  it("on generated layouts written at other widths and spacings, each with one change or none", () => {
    let laid = 0;
    let refused = 0;
    const runs = fcRuns(300);
    fc.assert(
      fc.property(
        tree,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        extras,
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (root, step, target, extra, noise, at, kind, change) => {
          const messy = rewritten(written(root, step, extra), noise);
          const text = change ? mutated(messy, at, kind) : messy;
          const result = relaidOut(text, target);
          if (result === undefined) {
            refused++;
            return;
          }
          laid++;
          expect(result).toBe(formatYaml(text, { indent: target }));
        },
      ),
      runs,
    );
    // the property says something only if many layouts were laid out, and some refused
    expect(laid).toBeGreaterThanOrEqual(Math.ceil(runs.numRuns / 8));
    expect(refused).toBeGreaterThanOrEqual(Math.ceil(runs.numRuns / 10));
  });

  it("on generated layouts with block scalars, written at other widths and spacings, each with one change or none", () => {
    let laid = 0;
    let laidBlocks = 0;
    const runs = fcRuns(300);
    fc.assert(
      fc.property(
        treeWithBlocks,
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        extras,
        fc.array(fc.nat(), { minLength: 1, maxLength: 30 }),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (root, step, target, extra, noise, at, kind, change) => {
          const messy = rewritten(written(root, step, extra), noise);
          const text = change ? mutated(messy, at, kind) : messy;
          const result = relaidOut(text, target);
          if (result === undefined) return;
          laid++;
          if (/[|>][-+]?\n/.test(text)) laidBlocks++;
          expect(result).toBe(formatYaml(text, { indent: target }));
        },
      ),
      runs,
    );
    // (a kept block's blank lines after it, a top-level sequence and trailing spaces in a block are refused: fewer are laid out)
    // CI draws a fresh seed each time: the floors sit well below what the
    // generators give over 300 runs (laid: mean 44, sd 5; with blocks: mean
    // 14, sd 4, 6 at the lowest of 60 seeds), so chance alone cannot fail them
    expect(laid).toBeGreaterThanOrEqual(Math.ceil(runs.numRuns / 20));
    expect(laidBlocks).toBeGreaterThanOrEqual(1);
  });
});

describe("a contract re-indented throughout", () => {
  const text = (generateContract(300) as string).replace(/^( +)/gm, (m) => m + m);

  it("is laid out whole in one pass when nothing is remembered, with no yaml run", () => {
    expect(analyzeText(text).parsed.reusable).toBeDefined();
    const memo = new Map<string, string>();
    expect(formatInPieces(text, 2, true, memo)).toEqual({ formatted: formatYaml(text, { indent: 2 }), formattedPieces: 0 });
    expect(memo.size).toBe(0);
  });

  it("with one unit that needs yaml, runs yaml for that unit only and lays out every other piece", () => {
    // a comment that ends in spaces: yaml keeps them, and the re-layout takes no line that ends in one
    const edited = text.replace("phase: extract\n", "phase: extract # why  \n");
    const memo = new Map<string, string>();
    expect(formatInPieces(edited, 2, true, memo)).toEqual({ formatted: formatYaml(edited, { indent: 2 }), formattedPieces: 1 });
    // the pieces are remembered as any others
    expect(memo.size).toBe(301);
  });

  it("with a block scalar per unit (`phase: |-`, the value on the next line), is laid out with no yaml run", () => {
    const blocks = text.replace(/^( +)phase: (.*)$/gm, "$1phase: |-\n$1    $2");
    expect(formatInPieces(blocks, 2, true, new Map())).toEqual({ formatted: formatYaml(blocks, { indent: 2 }), formattedPieces: 0 });
  });
});
