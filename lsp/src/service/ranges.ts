/**
 * Folding ranges (every block mapping or sequence that spans lines: a unit, a
 * section, a `needs` written as a block) and selection ranges (expand from
 * the word to its key or value, the pair, the enclosing mapping, ... up to the
 * document), both read from the YAML tree.
 */
import type { Span } from "@taskspec/compiler";
import type { FoldingRange, Position, SelectionRange } from "vscode-languageserver";
import { isMap, isSeq } from "yaml";
import type { Analysis } from "./analysis.js";
import { offsetAt, rangeOf } from "./lsp-ranges.js";
import { pairSpan, pathAt, spanOf } from "./yaml-path.js";

export function foldingRanges(analysis: Analysis): FoldingRange[] {
  const out: FoldingRange[] = [];
  const lines = analysis.parsed.lines;
  // An explicit stack, not recursion: nesting depth is bounded by the parser, but a loop never risks the stack.
  const stack: unknown[] = [analysis.parsed.doc?.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      for (const pair of node.items) {
        const span = pairSpan(pair);
        if (span && (isMap(pair.value) || isSeq(pair.value))) fold(span);
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        if (isMap(item) || isSeq(item)) {
          const span = spanOf(item);
          if (span) fold(span);
        }
        stack.push(item);
      }
    }
  }
  function fold(span: Span): void {
    const start = lines.offsetToPosition(span.start).line;
    // a block node's range ends at the start of the next line: fold up to the last line with content
    let endOffset = span.end;
    while (endOffset > span.start && /\s/.test(analysis.text[endOffset - 1]!)) endOffset--;
    const end = lines.offsetToPosition(endOffset).line;
    if (end > start) out.push({ startLine: start, endLine: end });
  }
  out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  return dedupe(out);
}

function dedupe(ranges: FoldingRange[]): FoldingRange[] {
  return ranges.filter((r, i) => i === 0 || r.startLine !== ranges[i - 1]!.startLine);
}

export function selectionRanges(analysis: Analysis, positions: Position[]): SelectionRange[] {
  return positions.map((position) => {
    const offset = offsetAt(analysis, position);
    const spans: Span[] = [{ start: 0, end: analysis.text.length }];
    for (const step of pathAt(analysis.parsed.doc, offset)) spans.push(trimmed(analysis.text, step.span));
    const word = wordAt(analysis.text, offset);
    if (word) spans.push(word);
    let parent: SelectionRange | undefined;
    let last: Span | undefined;
    for (const span of spans) {
      // each range must contain the next one; skip repeats
      if (last && (span.start < last.start || span.end > last.end || (span.start === last.start && span.end === last.end))) continue;
      parent = parent ? { range: rangeOf(analysis, span), parent } : { range: rangeOf(analysis, span) };
      last = span;
    }
    return parent ?? { range: rangeOf(analysis, { start: offset, end: offset }) };
  });
}

/** A node's span without the trailing whitespace and newline a block node includes. */
function trimmed(text: string, span: Span): Span {
  let end = span.end;
  while (end > span.start && /\s/.test(text[end - 1]!)) end--;
  return { start: span.start, end };
}

function wordAt(text: string, offset: number): Span | undefined {
  let start = offset;
  let end = offset;
  while (start > 0 && /[\w-]/.test(text[start - 1]!)) start--;
  while (end < text.length && /[\w-]/.test(text[end]!)) end++;
  return end > start ? { start, end } : undefined;
}
