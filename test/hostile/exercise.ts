/**
 * One hostile text through every in-process entry point a reader reaches:
 * check, compile, the impact of a change at every input and at the first
 * unit (text, and the cause trees as `impact --format json` writes them), the impact of the edit against the original, the
 * language server's analysis and formatting. Returns what the suite bounds.
 */
import {
  causeJson,
  checkContract,
  compile,
  formatEditImpact,
  formatImpact,
  impact,
  impactOfEdit,
  PATH_HOPS,
  type Plan,
} from "@taskspec/compiler";
import { analyze } from "../../lsp/src/service/analysis.js";
import { formatDocument } from "../../lsp/src/service/formatting.js";

/** Per input: far above what the slowest mutant takes on a loaded 2-core machine; exponential work would take far longer. */
export const PER_INPUT_MS = 10_000;
/** A message names a thing and says what to do; it never carries a whole line or value. */
export const MAX_MESSAGE = 1_000;

export interface Figures {
  ms: number;
  diagnostics: number;
  /** The longest diagnostic message. */
  longestMessage: number;
  /** Characters of impact text and JSON written. */
  impactOut: number;
  /** Characters of formatting edits. */
  formatOut: number;
  codes: string[];
}

export function exercise(text: string, original?: Plan): Figures {
  const started = performance.now();
  const checked = checkContract(text);
  const compiled = compile(text);
  for (const d of compiled.diagnostics) {
    if (d.span.start < 0 || d.span.end > text.length || d.span.start > d.span.end)
      throw new Error(`${d.code} span ${d.span.start}-${d.span.end} outside the text`);
  }
  if (checked.diagnostics.length !== compiled.diagnostics.length) throw new Error("check and compile disagree on the diagnostics");
  let impactOut = 0;
  const plan = compiled.plan;
  if (plan) {
    const origins = [...plan.inputs.map((i) => i.name), ...plan.units.slice(0, 1).map((u) => u.id)];
    for (const origin of origins) {
      const report = impact(plan, [{ origin, kinds: "all" }]);
      impactOut += formatImpact(plan, report).length;
      for (const unit of report.invalidated) impactOut += causeJson(unit.cause, PATH_HOPS).length;
    }
    if (original) impactOut += formatEditImpact(plan, impactOfEdit(original, plan)).length;
  }
  const analysis = analyze("file:///hostile/x.task.yaml", 1, text);
  const formatOut = formatDocument(analysis, { tabSize: 2, insertSpaces: true }).reduce((n, e) => n + e.newText.length, 0);
  return {
    ms: performance.now() - started,
    diagnostics: compiled.diagnostics.length,
    longestMessage: Math.max(0, ...compiled.diagnostics.map((d) => d.message.length)),
    impactOut,
    formatOut,
    codes: [...new Set(compiled.diagnostics.map((d) => d.code))].sort(),
  };
}
