/**
 * The drill table, one row per case: scenario, crash point, expected
 * re-runs, observed re-runs, duplicate effects, verdict. Markdown for
 * docs/reliability.md, aligned text for a terminal. Pure.
 */
import type { CaseResult } from "./types.js";

export const COLUMNS = ["#", "scenario", "crash point", "expected re-runs", "observed re-runs", "duplicate effects", "verdict"] as const;

const list = (xs: readonly string[]) => (xs.length ? xs.join(", ") : "none");

/** The row cells of one case (the scenario names the contract, the unit kind and what is proved). */
export function rowOf(r: CaseResult, i: number): string[] {
  const armed = r.case.crashes.map((c) => `${c.point}@${c.unit}${c.tool ? `/${c.tool}` : ""}`).join(" then ");
  const injected = [armed, r.case.injection].filter(Boolean).join(", then ");
  return [
    String(i + 1),
    `${r.case.contract} (${r.case.siteClass}): ${r.case.description}`,
    injected || "none",
    list(r.case.expectedReruns),
    list(r.observation.reruns),
    String(r.observation.duplicateEffects),
    verdictCell(r),
  ];
}

/** `PASS`, or with repeats `PASS (pass^3: 3/3)` / `FAIL (pass^3: 2/3)`. */
export function verdictCell(r: CaseResult): string {
  return r.repeats ? `${r.verdict} (pass^${r.repeats.k}: ${r.repeats.passed}/${r.repeats.k})` : r.verdict;
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function markdownTable(results: readonly CaseResult[]): string {
  const rows = results.map((r, i) => rowOf(r, i));
  return [
    `| ${COLUMNS.join(" | ")} |`,
    `|${COLUMNS.map((c) => (c === "#" || c === "duplicate effects" ? "--:" : "---")).join("|")}|`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");
}

/** Why each failing case failed, for under the table. */
export function failureNotes(results: readonly CaseResult[]): string[] {
  return results.flatMap((r, i) => (r.verdict === "FAIL" ? [`${i + 1}. ${r.case.id}: ${r.reasons.join("; ")}`] : []));
}

export function textTable(results: readonly CaseResult[]): string {
  const short = results.map((r, i) => {
    const row = rowOf(r, i);
    return [row[0]!, r.case.id, row[3]!, row[4]!, row[5]!, row[6]!];
  });
  const head = ["#", "case (contract/point/unit[/tool])", "expected re-runs", "observed re-runs", "dup effects", "verdict"];
  const widths = head.map((h, c) => Math.max(h.length, ...short.map((r) => r[c]!.length)));
  const line = (r: string[]) =>
    r
      .map((v, c) => v.padEnd(widths[c]!))
      .join("  ")
      .trimEnd();
  return [line(head), ...short.map(line)].join("\n");
}

export function summaryLine(results: readonly CaseResult[]): string {
  const failed = results.filter((r) => r.verdict === "FAIL").length;
  const dups = results.reduce((s, r) => s + r.observation.duplicateEffects, 0);
  const extra = results.reduce((s, r) => s + r.observation.reruns.filter((u) => !r.case.expectedReruns.includes(u)).length, 0);
  const ks = [...new Set(results.flatMap((r) => (r.repeats ? [r.repeats.k] : [])))];
  const passK =
    ks.length === 1
      ? `; pass^${ks[0]} (every one of ${ks[0]} timing seeds passed) for ${results.length - failed} of ${results.length} cases`
      : "";
  return `${results.length} cases: ${results.length - failed} PASS, ${failed} FAIL; duplicate effects ${dups}; unnecessary re-runs ${extra}${passK}`;
}
