/** Spans (compiler offsets) <-> LSP ranges and locations for one analysed document. */
import type { Span } from "@taskspec/compiler";
import type { Location, Position, Range } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";

export function offsetAt(analysis: Analysis, position: Position): number {
  return analysis.parsed.lines.positionToOffset(position);
}

export function rangeOf(analysis: Analysis, span: Span): Range {
  return analysis.parsed.lines.rangeOf(span);
}

export function locationOf(analysis: Analysis, span: Span): Location {
  return { uri: analysis.uri, range: rangeOf(analysis, span) };
}
