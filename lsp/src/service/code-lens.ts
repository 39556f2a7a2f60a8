/**
 * Impact lenses: above every unit and input, how many units a change there
 * invalidates (any kind, then each single edge kind that is not zero).
 * `codeLenses` only places them (cheap, from the syntax model);
 * `resolveCodeLens` runs the impact engine for the one lens the editor shows
 * and only counts: it never reads an explanation path, so a lens costs one
 * linear search (all kinds at once) however deep the chain below it. The
 * numbers come from the count index of the newest version of this document
 * that compiled (its needs and impact rules, made without building the plan
 * or its topology: a lens reads none of their hashes, levels or objects); while there is none,
 * one lens on the first line says so instead of one per unit.
 */
import { countInvalidated, EDGE_KINDS, impact, invalidatedCounts, type EdgeKind, type ImpactCounts } from "@taskspec/compiler";
import type { CodeLens } from "vscode-languageserver";
import type { ImpactResult } from "../protocol.js";
import type { Analysis } from "./analysis.js";
import { boundedPaths, DEFAULT_PATH_BUDGET, type PathBudget } from "./impact-paths.js";
import { rangeOf } from "./lsp-ranges.js";

export const SHOW_IMPACT_COMMAND = "taskspec.showImpact";
export const NEVER_COMPILED_TITLE = "impact: not known until the contract compiles";

/** What a lens carries between codeLens and codeLens/resolve (and the command's argument). */
export interface ImpactLensData {
  uri: string;
  node: string;
}

export function codeLenses(analysis: Analysis): CodeLens[] {
  if (!analysis.good) {
    const zero = { line: 0, character: 0 };
    return [{ range: { start: zero, end: zero }, command: { title: NEVER_COMPILED_TITLE, command: "" } }];
  }
  const { model } = analysis.parsed;
  const lenses: CodeLens[] = [];
  for (const decls of [model.inputs, model.units]) {
    for (const decl of decls.values()) {
      const data: ImpactLensData = { uri: analysis.uri, node: decl.name };
      lenses.push({ range: rangeOf(analysis, decl.keySpan), data });
    }
  }
  return lenses;
}

export function resolveCodeLens(analysis: Analysis, lens: CodeLens): CodeLens {
  const data = lens.data as ImpactLensData | undefined;
  // the never-compiled lens comes resolved and carries no node
  if (!data) return lens;
  const counts = impactCounts(analysis, data.node);
  if (!counts) return { ...lens, command: { title: NEVER_COMPILED_TITLE, command: "", arguments: [data] } };
  const kinds = EDGE_KINDS.filter((k) => counts.byKind[k] > 0).map((k) => `${k} ${counts.byKind[k]}`);
  const title = `impact: ${plural(counts.total, "unit")}${kinds.length > 0 ? ` (${kinds.join(" · ")})` : ""}`;
  return { ...lens, command: { title, command: SHOW_IMPACT_COMMAND, arguments: [data] } };
}

/** How many units a change at `node` invalidates, in all kinds and per single kind; null if unknown. */
export function impactCounts(analysis: Analysis, node: string): ImpactCounts | null {
  const good = analysis.good;
  return (good && countInvalidated(good.counts, node)) ?? null;
}

/**
 * What a change at `node` invalidates: in the given kinds (default all), with
 * the total and a count per single kind, the units listed and explained within
 * `budget` (`partial` says what was left out).
 */
export function impactOfNode(
  analysis: Analysis,
  node: string,
  kinds: EdgeKind[] | "all" = "all",
  budget: PathBudget = DEFAULT_PATH_BUDGET,
): ImpactResult | null {
  const plan = analysis.good?.plan;
  if (!plan) return null;
  const report = impact(plan, [{ origin: node, kinds }]);
  if (report.unmatched.some((u) => u.code === "unknown-node")) return null;
  const { invalidated, total, partial } = boundedPaths(report.invalidated, budget);
  const result: ImpactResult = { node, kinds, total, invalidated, byKind: invalidatedCounts(plan, node)!.byKind };
  if (partial) result.partial = partial;
  return result;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
