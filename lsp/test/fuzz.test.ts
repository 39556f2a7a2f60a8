/**
 * Robustness: random edits to the example contracts (half-typed lines,
 * unbalanced brackets, stray quotes, anchors, deletions) and every service on
 * every intermediate state. Nothing may throw; every answer has its LSP shape.
 * A hang fails through the test timeout.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineIndex } from "@taskspec/compiler";
import type { Analysis } from "../src/service/analysis.js";
import { codeActions } from "../src/service/code-actions.js";
import { codeLenses, impactOfNode, resolveCodeLens } from "../src/service/code-lens.js";
import { foldingRanges, selectionRanges } from "../src/service/ranges.js";
import { signatureHelp } from "../src/service/signature-help.js";
import { documentLinks } from "../src/service/document-links.js";
import { inlayHints } from "../src/service/inlay-hints.js";
import { complete } from "../src/service/complete.js";
import { definition } from "../src/service/definition.js";
import { toLspDiagnostics } from "../src/service/diagnostics.js";
import { hover } from "../src/service/hover.js";
import { graphOf, impactOfEdit } from "../src/service/impact-edit.js";
import { references } from "../src/service/references.js";
import { prepareRename, rename } from "../src/service/rename.js";
import { documentSymbols, workspaceSymbols } from "../src/service/symbols.js";
import { analyzeText, exampleSpecs, invalidSpecs, spec } from "./helpers.js";
import { fcRuns } from "../../test/fc-runs.js";

const FRAGMENTS = [
  "\n    nee",
  "\n    needs: { ",
  "\n  X9:\n    ph",
  ": ",
  ":",
  "{",
  "}",
  "[",
  "]",
  ",",
  "${",
  "${unit.",
  '"',
  "'",
  "- ",
  "\n- ",
  "  ",
  "\t",
  "\n",
  "#",
  "&a ",
  "*a",
  "<<: *a",
  "S04",
  "content",
  "structure",
  "cla",
  "class: ",
  'check: "count(',
  "result.",
  "!!",
  "|\n  ",
  ">-\n",
  "---\n",
  "...",
  "\u0000",
  "é",
  "🙂",
  "\r\n",
  "%YAML 1.2\n",
  "? ",
  "null",
  "~",
  "1e9",
  "-1",
];

const edit = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  remove: fc.nat({ max: 12 }),
  insert: fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 6 })),
});

function apply(text: string, e: { at: number; remove: number; insert: string }): string {
  const at = Math.floor(e.at * text.length);
  return text.slice(0, at) + e.insert + text.slice(at + e.remove);
}

/** Every service at a few places; returns nothing, throws on any failure. */
function exercise(analysis: Analysis, samples: number[]): void {
  const lines = new LineIndex(analysis.text);
  expect(Array.isArray(toLspDiagnostics(analysis, { relatedInformation: true, codeDescription: true }))).toBe(true);
  expect(Array.isArray(documentSymbols(analysis))).toBe(true);
  expect(Array.isArray(documentSymbols(analysis, true))).toBe(true);
  expect(Array.isArray(workspaceSymbols([analysis], "a"))).toBe(true);
  expect(Array.isArray(foldingRanges(analysis))).toBe(true);
  expect(Array.isArray(documentLinks(analysis))).toBe(true);
  expect(
    Array.isArray(
      inlayHints(analysis, { start: { line: 0, character: 0 }, end: new LineIndex(analysis.text).offsetToPosition(analysis.text.length) }),
    ),
  ).toBe(true);
  const lenses = codeLenses(analysis);
  for (const lens of lenses.slice(0, 3)) expect(resolveCodeLens(analysis, lens).command).toBeDefined();
  const whole = { start: { line: 0, character: 0 }, end: lines.offsetToPosition(analysis.text.length) };
  expect(Array.isArray(codeActions(analysis, whole))).toBe(true);
  for (const sample of samples) {
    const position = lines.offsetToPosition(Math.floor(sample * analysis.text.length));
    hover(analysis, position);
    expect(Array.isArray(complete(analysis, position))).toBe(true);
    expect(Array.isArray(definition(analysis, position))).toBe(true);
    expect(Array.isArray(references(analysis, position, true))).toBe(true);
    prepareRename(analysis, position);
    signatureHelp(analysis, position);
    expect(selectionRanges(analysis, [position])).toHaveLength(1);
    const renamed = rename(analysis, position, "renamed_x");
    expect("edit" in renamed || "refused" in renamed).toBe(true);
  }
  const unit = analysis.parsed.model.units.keys().next();
  if (!unit.done) impactOfNode(analysis, unit.value);
}

/** The requests that compile or render the whole contract: once per sequence of edits. */
function exerciseWhole(analysis: Analysis, original: string): void {
  graphOf(analysis, [{ node: "S04" }]);
  expect(impactOfEdit(analysis, "saved", { text: original }).against).toBe("saved");
}

describe("robustness under random edits", () => {
  for (const file of exampleSpecs()) {
    it(`never throws on edits of ${file}`, () => {
      const original = spec(file);
      fc.assert(
        fc.property(
          fc.array(edit, { minLength: 1, maxLength: 6 }),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
          (edits, samples) => {
            let text = original;
            let analysis = analyzeText(text, 0);
            edits.forEach((e, i) => {
              text = apply(text, e);
              analysis = analyzeText(text, i + 1, analysis);
              exercise(analysis, samples);
            });
            exerciseWhole(analysis, original);
          },
        ),
        // The big example compiles in tens of milliseconds per state; fewer runs keep the suite quick.
        fcRuns(original.length > 10_000 ? 20 : 40),
      );
    }, 180_000);
  }

  it("never throws on edits of the invalid contracts (one per diagnostic code)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...invalidSpecs()),
        fc.array(edit, { minLength: 0, maxLength: 4 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        (file, edits, samples) => {
          const original = spec(`invalid/${file}`);
          let text = original;
          let analysis = analyzeText(text, 0);
          exercise(analysis, samples);
          edits.forEach((e, i) => {
            text = apply(text, e);
            analysis = analyzeText(text, i + 1, analysis);
            exercise(analysis, samples);
          });
          exerciseWhole(analysis, original);
        },
      ),
      fcRuns(60),
    );
  }, 180_000);

  it("answers on degenerate documents", () => {
    for (const text of [
      "",
      "\n",
      ":",
      "- - -",
      "{",
      "units:",
      "units:\n  A:\n    needs: { A: content }\n",
      "\u0000\u0001",
      "a: *b",
      "[".repeat(200),
    ]) {
      exercise(analyzeText(text), [0, 0.5, 1]);
      exerciseWhole(analyzeText(text), text);
    }
  });
});
