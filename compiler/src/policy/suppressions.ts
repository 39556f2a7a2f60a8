/**
 * Inline suppressions: a YAML comment `# taskspec-ignore C080: kept for the
 * audit` accepts one warning where it is intended, with the reason next to it.
 *
 * What a comment covers: written on a line of its own, the entry (mapping key
 * or list item) that starts on the next line that is not blank or a comment,
 * whole, so a comment above a unit covers the unit; written at the end of a
 * line, the entry that starts on that line. A diagnostic whose start lies in
 * the covered text, and whose code the comment names, is suppressed.
 *
 * Only warnings can be suppressed: an error means the plan would be unsound.
 * A comment with no reason, an unknown code or an error's code is C091 and
 * suppresses nothing. `#` inside a quoted or block scalar is text, not a
 * comment, so candidates inside scalars are dropped.
 */
import { isMap, isPair, isScalar, isSeq, type Node } from "yaml";
import { DiagnosticCodes, type DiagnosticCode, type Span } from "../diagnostics/types.js";
import type { ParsedContract } from "../parse/index.js";

/** One well-formed suppression comment. */
export interface Suppression {
  codes: DiagnosticCode[];
  reason: string;
  /** The comment, from `#` to the end of its line. */
  span: Span;
  /** Text whose diagnostics it suppresses. */
  covers: Span;
  /** What deleting the comment removes (its whole line when it stands alone). */
  removal: Span;
}

/** A comment that looks like a suppression but is not a valid one (C091). */
export interface SuppressionProblem {
  span: Span;
  message: string;
}

export const SUPPRESSION_WORD = "taskspec-ignore";
const CANDIDATE = /#[ \t]*taskspec-ignore\b[^\r\n]*/g;
const FORM = /^#[ \t]*taskspec-ignore\b[ \t]*([^:]*?)[ \t]*(?::[ \t]*(.*?))?[ \t]*$/;
const EXAMPLE = "`# taskspec-ignore C080: why this is intended`";

/** Codes an inline comment (or the configuration) may silence or lower: the catalog's warnings. */
export function isAdjustable(code: DiagnosticCode): boolean {
  return DiagnosticCodes[code].severity !== "error";
}

export function findSuppressions(parsed: ParsedContract): { suppressions: Suppression[]; problems: SuppressionProblem[] } {
  const text = parsed.lines.text;
  const suppressions: Suppression[] = [];
  const problems: SuppressionProblem[] = [];
  const candidates = [...text.matchAll(CANDIDATE)].filter((m) => m.index === 0 || /[ \t\n]/.test(text[m.index - 1]!));
  if (candidates.length === 0 || !parsed.doc) return { suppressions, problems };
  const { scalars, entries } = collectSpans(parsed.doc.contents);
  for (const m of candidates) {
    const start = m.index;
    if (scalars.some((s) => s.start < start && start < s.end)) continue;
    const span = { start, end: start + m[0].length };
    const parsedComment = parseComment(m[0].replace(/\r$/, ""));
    if ("problem" in parsedComment) {
      problems.push({ span, message: parsedComment.problem });
      continue;
    }
    const lineStart = text.lastIndexOf("\n", start - 1) + 1;
    const alone = text.slice(lineStart, start).trim() === "";
    const target = alone ? nextContentLine(text, span.end) : lineStart;
    if (target === undefined) {
      problems.push({ span, message: "suppression comment at the end of the file covers nothing: put it above the entry it is for" });
      continue;
    }
    const targetEnd = lineEnd(text, target);
    let coverEnd = targetEnd;
    for (const e of entries) if (e.start >= target && e.start <= targetEnd && e.end > coverEnd) coverEnd = e.end;
    const removal = alone
      ? { start: lineStart, end: Math.min(text.length, span.end + (text.startsWith("\r\n", span.end) ? 2 : 1)) }
      : { start: start - (text.slice(lineStart, start).length - text.slice(lineStart, start).trimEnd().length), end: span.end };
    suppressions.push({ ...parsedComment, span, covers: { start: target, end: coverEnd }, removal });
  }
  return { suppressions, problems };
}

function parseComment(comment: string): { codes: DiagnosticCode[]; reason: string } | { problem: string } {
  const m = FORM.exec(comment);
  const list = m?.[1] ?? "";
  const reason = m?.[2] ?? "";
  const names = list.split(/[ \t]*,[ \t]*|[ \t]+/).filter((n) => n !== "");
  if (names.length === 0) return { problem: `a suppression names the codes it accepts: ${EXAMPLE}` };
  const codes: DiagnosticCode[] = [];
  for (const name of names) {
    if (!Object.hasOwn(DiagnosticCodes, name)) return { problem: `'${name}' is not a diagnostic code (see docs/diagnostics.md)` };
    const code = name as DiagnosticCode;
    if (!isAdjustable(code))
      return { problem: `${code} is an error and cannot be suppressed: only warnings can, since a plan with an error would not be sound` };
    if (code === "C090") return { problem: "C090 (unused suppression) cannot itself be suppressed: delete the unused comment" };
    codes.push(code);
  }
  if (reason === "") return { problem: `a suppression needs a reason after a colon: ${EXAMPLE}` };
  return { codes, reason };
}

/** Start of the first line after `from` that holds something other than blanks or a comment. */
function nextContentLine(text: string, from: number): number | undefined {
  let at = text.indexOf("\n", from);
  while (at !== -1) {
    const start = at + 1;
    const line = text.slice(start, lineEnd(text, start)).trim();
    if (line !== "" && !line.startsWith("#")) return start;
    at = text.indexOf("\n", start);
  }
  return undefined;
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf("\n", from);
  return end === -1 ? text.length : end;
}

/** Ranges of scalars (where `#` is text) and of every mapping entry and list item (what a comment can cover). */
function collectSpans(root: unknown): { scalars: Span[]; entries: Span[] } {
  const scalars: Span[] = [];
  const entries: Span[] = [];
  const endOf = (node: unknown, fallback: number) => (node as Node | null)?.range?.[1] ?? fallback;
  const visit = (node: unknown, depth: number): void => {
    if (depth > 64) return;
    if (isScalar(node) && node.range) scalars.push({ start: node.range[0], end: node.range[1] });
    else if (isMap(node) || isSeq(node)) {
      for (const item of node.items) {
        if (isPair(item)) {
          const key = item.key as Node | null;
          const start = key?.range?.[0];
          if (start !== undefined) entries.push({ start, end: endOf(item.value, key!.range![1]) });
          visit(item.key, depth + 1);
          visit(item.value, depth + 1);
        } else {
          const range = (item as Node | null)?.range;
          if (range) entries.push({ start: range[0], end: range[1] });
          visit(item, depth + 1);
        }
      }
    }
  };
  visit(root, 0);
  return { scalars, entries };
}
