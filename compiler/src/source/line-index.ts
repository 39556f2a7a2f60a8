/**
 * Offsets <-> LSP positions. The core computes spans (UTF-16 offsets into the
 * text, which is what JS strings index); editors and the CLI want 0-based
 * line/character. One index per text, built in one pass, answers both ways in
 * O(log lines) so converting thousands of diagnostics stays cheap.
 */
import type { Position, Range, Span } from "../diagnostics/types.js";

export class LineIndex {
  /** Offset of the first character of each line. */
  readonly lineStarts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    let at = text.indexOf("\n");
    while (at !== -1) {
      starts.push(at + 1);
      at = text.indexOf("\n", at + 1);
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** 0-based line/character of an offset (clamped into the text). */
  offsetToPosition(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: clamped - this.lineStarts[lo]! };
  }

  /** Offset of a 0-based line/character (clamped to the line's end and the text). */
  positionToOffset(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[position.line]!;
    const end = this.lineEndOffset(position.line);
    return Math.min(start + Math.max(0, position.character), end);
  }

  /** Offset just past the last character of a line, before its line break. */
  lineEndOffset(line: number): number {
    const next = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1]! - 1 : this.text.length;
    return next > 0 && this.text[next - 1] === "\r" && next - 1 >= this.lineStarts[line]! ? next - 1 : next;
  }

  /** The text of one line, without its line break. */
  lineText(line: number): string {
    return this.text.slice(this.lineStarts[line] ?? this.text.length, this.lineEndOffset(line));
  }

  rangeOf(span: Span): Range {
    return { start: this.offsetToPosition(span.start), end: this.offsetToPosition(span.end) };
  }

  spanOf(range: Range): Span {
    return { start: this.positionToOffset(range.start), end: this.positionToOffset(range.end) };
  }
}

/** 0-based line/character of `offset` in the text `index` was built from. */
export function offsetToPosition(index: LineIndex, offset: number): Position {
  return index.offsetToPosition(offset);
}

/** Offset of a 0-based line/character in the text `index` was built from. */
export function positionToOffset(index: LineIndex, position: Position): number {
  return index.positionToOffset(position);
}
