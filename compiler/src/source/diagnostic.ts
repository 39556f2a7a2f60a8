/**
 * One way to make a diagnostic: checks give a code, a span and a message; the
 * builder fills the severity from the catalog and the LSP-style range from the
 * span, for the diagnostic, its related locations and its fix edits alike.
 */
import {
  DiagnosticCodes,
  type Diagnostic,
  type DiagnosticCode,
  type Fix,
  type RelatedInformation,
  type Severity,
  type Span,
} from "../diagnostics/types.js";
import type { LineIndex } from "./line-index.js";

/** A fix before ranges are filled in: edits are spans plus replacement text. */
export interface FixSpec {
  title: string;
  edits: { span: Span; newText: string }[];
  safe: boolean;
}

export interface DiagnosticExtras {
  severity?: Severity;
  related?: { message: string; span: Span }[];
  fixes?: FixSpec[];
}

/** A name quoted in a message longer than this is clipped (…). */
const QUOTED_MAX = 60;
/** The longest message; messages name things and say what to do, they never carry a pasted page. */
export const MESSAGE_MAX = 1000;
// a name has no spaces, so the prose between two quoted names never matches
const LONG_QUOTED = new RegExp(`'([^'\\s]{${QUOTED_MAX + 1},})'`, "g");

/**
 * Messages quote the names a contract uses ('E01', 'fetch_page'). A hostile
 * contract's name can be 5,000 characters, and one message per use would
 * repeat it: every quoted name past QUOTED_MAX keeps its first 40 characters
 * and an ellipsis, and the whole message stops at MESSAGE_MAX.
 */
export function boundedMessage(message: string): string {
  if (message.length <= QUOTED_MAX) return message;
  const clipped = message.replace(LONG_QUOTED, (_, name: string) => `'${name.slice(0, 40)}…'`);
  return clipped.length > MESSAGE_MAX ? `${clipped.slice(0, MESSAGE_MAX - 1)}…` : clipped;
}

/** Builds a complete Diagnostic (span and range, related and fix ranges). */
export function makeDiagnostic(
  lines: LineIndex,
  code: DiagnosticCode,
  span: Span,
  message: string,
  extras: DiagnosticExtras = {},
): Diagnostic {
  const clamped = clampSpan(lines, span);
  const diagnostic: Diagnostic = {
    code,
    severity: extras.severity ?? DiagnosticCodes[code].severity,
    message: boundedMessage(message),
    span: clamped,
    range: lines.rangeOf(clamped),
  };
  if (extras.related && extras.related.length > 0) {
    diagnostic.related = extras.related.map((r): RelatedInformation => ({
      message: boundedMessage(r.message),
      span: r.span,
      range: lines.rangeOf(r.span),
    }));
  }
  if (extras.fixes && extras.fixes.length > 0) {
    diagnostic.fixes = extras.fixes.map((f): Fix => ({
      title: f.title,
      safe: f.safe,
      edits: f.edits.map((e) => ({ span: e.span, range: lines.rangeOf(e.span), newText: withLineEnds(lines, e.newText) })),
    }));
  }
  return diagnostic;
}

/** Fixes are written with LF; in a CRLF document they insert CRLF, so a quick fix never mixes line ends. */
function withLineEnds(lines: LineIndex, newText: string): string {
  if (!newText.includes("\n")) return newText;
  const firstEnd = lines.text.indexOf("\n");
  return firstEnd > 0 && lines.text[firstEnd - 1] === "\r" ? newText.replace(/\r?\n/g, "\r\n") : newText;
}

/** Keeps spans inside the text (the YAML parser may point one past the end). */
function clampSpan(lines: LineIndex, span: Span): Span {
  const max = lines.text.length;
  const start = Math.max(0, Math.min(span.start, max));
  return { start, end: Math.max(start, Math.min(span.end, max)) };
}

/** Collects diagnostics for one text; checks call `report`. */
export class DiagnosticSink {
  readonly diagnostics: Diagnostic[] = [];
  constructor(readonly lines: LineIndex) {}

  report(code: DiagnosticCode, span: Span, message: string, extras?: DiagnosticExtras): void {
    this.diagnostics.push(makeDiagnostic(this.lines, code, span, message, extras));
  }

  has(predicate: (d: Diagnostic) => boolean): boolean {
    return this.diagnostics.some(predicate);
  }
}

/** Stable output order: by position, then code. */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics.sort(
    (a, b) => a.span.start - b.span.start || a.span.end - b.span.end || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}
