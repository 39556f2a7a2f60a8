/**
 * Document and range formatting: the formatted text (format-yaml.ts) as edits
 * for the lines that change. Range formatting formats the whole document (a
 * YAML node's layout depends on its parents) and keeps the changes whose
 * lines touch the range. Broken YAML answers no edits.
 */
import type { FormattingOptions, Range, TextEdit } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { formatInPieces, scalarSpans } from "./format-pieces.js";
import { lineHunks, type LineHunk } from "./line-diff.js";

export function formatDocument(analysis: Analysis, options: FormattingOptions): TextEdit[] {
  return formattingEdits(analysis, options, () => true);
}

export function formatRange(analysis: Analysis, range: Range, options: FormattingOptions): TextEdit[] {
  // a range that ends at column 0 of a line does not take in that line
  const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
  return formattingEdits(analysis, options, (h) => h.fromStart <= last && Math.max(h.fromEnd - 1, h.fromStart) >= range.start.line);
}

function formattingEdits(analysis: Analysis, options: FormattingOptions, keep: (hunk: LineHunk) => boolean): TextEdit[] {
  if (analysis.parsed.syntaxBroken) return [];
  // the fast path's subset (a `reusable` tree) has every entry of `units` on lines of its own
  const cuttable = analysis.parsed.reusable !== undefined;
  // pieces that differ only in scalars format once: the scalars are where this version's parse found them
  const doc = analysis.parsed.doc;
  const shapes = doc ? { scalars: () => scalarSpans(doc), memo: analysis.memo.formatShapes } : undefined;
  const { formatted } = formatInPieces(analysis.text, options.tabSize, cuttable, analysis.memo.formatPieces, shapes);
  if (formatted === undefined || formatted === analysis.text) return [];
  const eol = analysis.text.includes("\r\n") ? "\r\n" : "\n";
  const from = analysis.text.split(eol);
  const to = formatted.split(eol);
  return lineHunks(from, to)
    .flatMap((h) => byLine(h, from, to))
    .filter(keep)
    .map((h) => edit(h, from, to, eol));
}

/**
 * A hunk that changes lines one for one, as one hunk per changed line: a range then takes in only
 * its own lines, and a line the hunk keeps as it is (a diff past its bound answers one hunk for a
 * text re-indented throughout, top-level keys and all) gets no edit.
 */
function byLine(h: LineHunk, from: string[], to: string[]): LineHunk[] {
  const n = h.fromEnd - h.fromStart;
  if (n <= 1 || n !== h.toEnd - h.toStart) return [h];
  const hunks: LineHunk[] = [];
  for (let i = 0; i < n; i++)
    if (from[h.fromStart + i] !== to[h.toStart + i])
      hunks.push({ fromStart: h.fromStart + i, fromEnd: h.fromStart + i + 1, toStart: h.toStart + i, toEnd: h.toStart + i + 1 });
  return hunks;
}

function edit(h: LineHunk, from: string[], to: string[], eol: string): TextEdit {
  const lines = to.slice(h.toStart, h.toEnd);
  if (h.fromEnd < from.length) {
    // whole lines with their line ends, up to the start of the next kept line
    return {
      range: { start: { line: h.fromStart, character: 0 }, end: { line: h.fromEnd, character: 0 } },
      newText: lines.map((l) => l + eol).join(""),
    };
  }
  // at the end of a text without a final line end: take in the line end before the hunk instead
  const lastLine = from.length - 1;
  const end = { line: lastLine, character: from[lastLine]!.length };
  if (h.fromStart === 0) return { range: { start: { line: 0, character: 0 }, end }, newText: lines.join(eol) };
  const start = { line: h.fromStart - 1, character: from[h.fromStart - 1]!.length };
  return { range: { start, end }, newText: lines.length > 0 ? eol + lines.join(eol) : "" };
}
