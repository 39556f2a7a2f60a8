/**
 * The source line under a diagnostic, with carets under its range. Bounded:
 * a line longer than FRAME_WIDTH is shown as a window around the caret
 * (`…` marks what was cut), so thousands of errors on one long line print
 * as many short frames, not as many copies of the line; control characters
 * are shown escaped.
 */
import type { Diagnostic, LineIndex } from "@taskspec/compiler";
import { visible } from "./visible.js";

/** Widest source excerpt a frame shows, in characters. */
export const FRAME_WIDTH = 120;
/** How much of the line before the caret a clipped frame keeps. */
const BEFORE_CARET = 40;
const CUT = "…";

export function codeFrame(lines: LineIndex, d: Diagnostic, paint: (s: string) => string): string {
  const { start, end } = d.range;
  if (start.line >= lines.lineCount) return "";
  const source = lines.lineText(start.line);
  const caretAt = Math.min(start.character, source.length);
  const caretEnd = end.line === start.line ? Math.min(Math.max(end.character, caretAt), source.length) : source.length;
  const from = source.length <= FRAME_WIDTH ? 0 : Math.max(0, Math.min(caretAt - BEFORE_CARET, source.length - FRAME_WIDTH));
  const to = Math.min(source.length, from + FRAME_WIDTH);
  const head = from > 0 ? CUT : "";
  const tail = to < source.length ? CUT : "";
  const gutter = String(start.line + 1);
  const pad = " ".repeat(gutter.length);
  // keep tabs in the indentation so the carets line up under them; escapes widen what they replace
  const indent = `${head}${visible(source.slice(from, caretAt))}`.replace(/[^\t]/g, " ");
  const width = Math.max(1, visible(source.slice(caretAt, Math.min(caretEnd, to))).length);
  return ` ${gutter} | ${head}${visible(source.slice(from, to))}${tail}\n ${pad} | ${indent}${paint("^".repeat(width))}\n`;
}
