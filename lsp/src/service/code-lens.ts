/**
 * Impact lenses: above every unit and input, how many units a change there
 * invalidates (any kind, then each single edge kind). `codeLenses` only places
 * them (cheap, from the syntax model); `resolveCodeLens` runs the impact engine
 * for the one lens the editor shows, so a 10,000-unit file stays fast. The
 * numbers come from the newest plan of this document that compiled.
 */
import { EDGE_KINDS, impact, invalidatedBy, type EdgeKind } from "@taskspec/compiler";
import type { CodeLens } from "vscode-languageserver";
import type { ImpactResult } from "../protocol.js";
import type { Analysis } from "./analysis.js";
import { rangeOf } from "./lsp-ranges.js";

export const SHOW_IMPACT_COMMAND = "taskspec.showImpact";

/** What a lens carries between codeLens and codeLens/resolve (and the command's argument). */
export interface ImpactLensData {
  uri: string;
  node: string;
}

export function codeLenses(analysis: Analysis): CodeLens[] {
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
  const data = lens.data as ImpactLensData;
  const result = impactOfNode(analysis, data.node);
  const title = result
    ? `impact: ${plural(result.invalidated.length, "unit")} (${EDGE_KINDS.map((k) => `${k} ${result.byKind[k]}`).join(" · ")})`
    : "impact: not known until the contract compiles";
  return { ...lens, command: { title, command: result ? SHOW_IMPACT_COMMAND : "", arguments: [data] } };
}

/** What a change at `node` invalidates: in the given kinds (default all), with a count per single kind. */
export function impactOfNode(analysis: Analysis, node: string, kinds: EdgeKind[] | "all" = "all"): ImpactResult | null {
  const plan = analysis.good?.plan;
  if (!plan) return null;
  const report = impact(plan, [{ origin: node, kinds }]);
  if (report.unmatched.some((u) => u.code === "unknown-node")) return null;
  const byKind = Object.fromEntries(EDGE_KINDS.map((k) => [k, invalidatedBy(plan, [{ origin: node, kinds: [k] }]).length])) as Record<EdgeKind, number>;
  return { node, kinds, invalidated: report.invalidated.map((u) => ({ unit: u.unit, path: u.path })), byKind };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
