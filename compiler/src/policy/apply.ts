/**
 * A team's policy over the compiler's findings, applied in one place so the
 * CLI, `compile` and the language server agree: per-code severity from the
 * configuration (`off`, `warning`, `error`), then the inline suppressions of
 * the contract (suppressions.ts), then C090 for each suppression that
 * suppressed nothing and C091 for each malformed one.
 *
 * Errors stay errors: only a warning's severity can be changed or turned off,
 * because the plan is built only from a contract with no error. Raising a
 * warning to an error is always allowed (it then blocks the plan too).
 * Unused suppressions are reported only when the semantic checks ran: after a
 * C001 or C002 nothing else was looked for, so nothing could have been found.
 */
import { DiagnosticCodes, type Diagnostic, type DiagnosticCode, type Range, type Severity } from "../diagnostics/types.js";
import type { ParsedContract } from "../parse/index.js";
import { makeDiagnostic } from "../source/diagnostic.js";
import { findSuppressions, isAdjustable, type Suppression } from "./suppressions.js";

export type RuleSetting = "off" | "warning" | "error";
/** Severity per code, from the configuration file; codes not named keep the catalog's. */
export type Rules = Partial<Record<DiagnosticCode, RuleSetting>>;

/** A diagnostic an inline comment accepted, with the comment's reason (SARIF `suppressions`, JSON `suppressed`). */
export interface SuppressedDiagnostic {
  diagnostic: Diagnostic;
  reason: string;
  /** Where the suppression comment is. */
  comment: Range;
}

export interface PolicyResult {
  diagnostics: Diagnostic[];
  suppressed: SuppressedDiagnostic[];
}

/** The setting that applies to `code`: the configured one when it may change it, else the catalog's. */
export function severityOf(code: DiagnosticCode, rules: Rules): Severity | "off" {
  const configured = rules[code];
  if (configured !== undefined && (configured === "error" || isAdjustable(code))) return configured;
  return DiagnosticCodes[code].severity;
}

export function applyPolicy(parsed: ParsedContract, found: Diagnostic[], rules: Rules, checked: boolean): PolicyResult {
  const adjust = (d: Diagnostic): Diagnostic | undefined => {
    const setting = severityOf(d.code, rules);
    if (setting === "off") return undefined;
    return setting === d.severity ? d : { ...d, severity: setting };
  };
  const kept = found.flatMap((d) => adjust(d) ?? []);
  const { suppressions, problems } = findSuppressions(parsed);
  const diagnostics: Diagnostic[] = [];
  const suppressed: SuppressedDiagnostic[] = [];
  const used = new Map<Suppression, Set<DiagnosticCode>>(suppressions.map((s) => [s, new Set()]));
  for (const d of kept) {
    const by = suppressions.find((s) => s.codes.includes(d.code) && s.covers.start <= d.span.start && d.span.start <= s.covers.end);
    if (!by) {
      diagnostics.push(d);
      continue;
    }
    used.get(by)!.add(d.code);
    suppressed.push({ diagnostic: d, reason: by.reason, comment: parsed.lines.rangeOf(by.span) });
  }
  for (const p of problems) diagnostics.push(makeDiagnostic(parsed.lines, "C091", p.span, p.message));
  if (checked) {
    for (const [s, codes] of used) {
      const unused = s.codes.filter((c) => !codes.has(c));
      if (unused.length === 0) continue;
      const d = adjust(unusedDiagnostic(parsed, s, unused, rules));
      if (d) diagnostics.push(d);
    }
  }
  return { diagnostics, suppressed };
}

function unusedDiagnostic(parsed: ParsedContract, s: Suppression, unused: DiagnosticCode[], rules: Rules): Diagnostic {
  const { start, end } = parsed.lines.rangeOf(s.covers);
  // a cover that ends at a line break ends on the line before it
  const last = end.character === 0 && end.line > start.line ? end.line - 1 : end.line;
  const where = start.line === last ? `line ${start.line + 1}` : `lines ${start.line + 1}-${last + 1}`;
  const why = unused.map((c) =>
    severityOf(c, rules) === "off" ? `${c} is turned off by the configuration` : `no ${c} is reported in ${where}`,
  );
  const whole = unused.length === s.codes.length;
  return makeDiagnostic(parsed.lines, "C090", s.span, `unused suppression: ${why.join("; ")}`, {
    fixes: whole ? [{ title: "Remove the unused suppression comment", edits: [{ span: s.removal, newText: "" }], safe: true }] : [],
  });
}
