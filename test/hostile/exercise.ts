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
import { parseAllDocuments } from "yaml";
import { analyze } from "../../lsp/src/service/analysis.js";
import { formatDocument } from "../../lsp/src/service/formatting.js";

/**
 * The time bound is relative to a bare YAML parse of the same text, timed in the same call: the
 * exercise parses the text three times (check, compile, the language server), so linear work stays
 * within a small multiple of one parse however loaded the machine is, while super-linear or exponential
 * work in our code outgrows any multiple. A fixed bound in milliseconds failed CI on a large mutant of
 * deeply nested flow maps that the `yaml` library itself parses slowly.
 */
export const PARSE_MULTIPLE = 20;
/** What a small input may take whatever its parse time: start-up of a first call and GC pauses. */
export const FLOOR_MS = 2_000;
/** A message names a thing and says what to do; it never carries a whole line or value. */
export const MAX_MESSAGE = 1_000;

export interface Figures {
  ms: number;
  /** A bare `yaml` parse of the text, the yardstick of `ms`. */
  parseMs: number;
  diagnostics: number;
  /** The longest diagnostic message. */
  longestMessage: number;
  /** Characters of impact text and JSON written. */
  impactOut: number;
  /** Characters of formatting edits. */
  formatOut: number;
  codes: string[];
}

/** The bound `ms` must stay under. */
export function timeBound(f: Figures): number {
  return FLOOR_MS + PARSE_MULTIPLE * f.parseMs;
}

export function exercise(text: string, original?: Plan): Figures {
  const parseStarted = performance.now();
  try {
    parseAllDocuments(text);
  } catch {
    // nesting deep enough to overflow `yaml`'s stack, which the compiler refuses before parsing
  }
  const parseMs = performance.now() - parseStarted;
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
    parseMs,
    diagnostics: compiled.diagnostics.length,
    longestMessage: Math.max(0, ...compiled.diagnostics.map((d) => d.message.length)),
    impactOut,
    formatOut,
    codes: [...new Set(compiled.diagnostics.map((d) => d.code))].sort(),
  };
}
