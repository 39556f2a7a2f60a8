/**
 * "Impact of this edit": which units the open buffer's plan would invalidate
 * compared with a baseline text (the saved file or git HEAD, read by the server
 * adapter), and the graph request. Both compile what they compare; neither
 * decides anything the impact engine does not.
 */
import { compile, impactOfEdit as editImpact, impact, toDot, toMermaid, type EdgeKind } from "@taskspec/compiler";
import type { GraphResult, ImpactOfEditResult } from "../protocol.js";
import type { Analysis } from "./analysis.js";
import { boundedPaths, DEFAULT_PATH_BUDGET, type PathBudget } from "./impact-paths.js";

export type Baseline = { text: string } | { unavailable: string };

export function impactOfEdit(
  analysis: Analysis,
  against: "saved" | "head",
  baseline: Baseline,
  budget: PathBudget = DEFAULT_PATH_BUDGET,
): ImpactOfEditResult {
  const empty = (unavailable: string): ImpactOfEditResult => ({
    against,
    unavailable,
    changes: [],
    counts: { invalidated: 0, kept: 0, added: 0, removed: 0 },
    invalidated: [],
    kept: [],
    added: [],
    removed: [],
  });
  if ("unavailable" in baseline) return empty(baseline.unavailable);
  const current = analysis.good;
  if (!current) return empty("the open contract has never compiled; fix its errors first");
  const old = compile(baseline.text).plan;
  if (!old) return empty(`the ${against === "saved" ? "saved file" : "HEAD version"} does not compile`);
  const result = editImpact(old, current.plan);
  const { invalidated, total, partial } = boundedPaths(result.report.invalidated, budget);
  // the name lists are bounded like the invalidated one (an edit of a 20,000-unit contract keeps most of them)
  const lists = { kept: result.staysValid, added: result.diff.units.added, removed: result.diff.units.removed };
  const first = (names: string[]) => names.slice(0, budget.listed);
  const out: ImpactOfEditResult = {
    against,
    changes: result.diff.changes.map((c) => ({ node: c.origin, kinds: "all" })),
    counts: { invalidated: total, kept: lists.kept.length, added: lists.added.length, removed: lists.removed.length },
    invalidated,
    kept: first(lists.kept),
    added: first(lists.added),
    removed: first(lists.removed),
  };
  const cut = Object.entries(lists)
    .filter(([, names]) => names.length > budget.listed)
    .map(([name, names]) => `the first ${budget.listed} of ${names.length} ${name} units are listed`);
  const sentences = [partial, cut.length > 0 ? `Partial: ${cut.join("; ")}.` : undefined].filter(Boolean);
  if (sentences.length > 0) out.partial = sentences.join(" ");
  if (!analysis.current)
    out.unavailable = `the open buffer does not compile; compared its version ${current.version}, the last one that did`;
  return out;
}

/** Sizes above which the graph answer is a summary, or comes without SVG. */
export interface GraphLimits {
  /** Above this many units no graph is drawn (DOT and Mermaid of 20,000 units are megabytes that no view shows legibly). */
  units: number;
  /** Above this many units there is no SVG (Graphviz's layout grows faster than the graph; 300 units is what the impact view shows legibly). */
  svgUnits: number;
}

export const GRAPH_LIMITS: GraphLimits = { units: 2000, svgUnits: 500 };

/**
 * The graph request's answer: DOT and Mermaid with the changes highlighted,
 * and whether an SVG may be laid out. A plan too big to draw answers a
 * one-node summary and a `partial` sentence saying why, without building
 * the plan when the text is current (its size is in the syntax model).
 */
export function graphOf(
  analysis: Analysis,
  changes: { node: string; kinds?: EdgeKind[] | "all" }[] = [],
  limits: GraphLimits = GRAPH_LIMITS,
): { graph: GraphResult; svg: boolean } | null {
  const good = analysis.good;
  if (!good) return null;
  const units = analysis.current ? analysis.parsed.model.units.size : good.plan.units.length;
  if (units > limits.units) {
    const label = `${units} units: too many to draw (the limit is ${limits.units})`;
    return {
      graph: {
        dot: `digraph taskspec {\n  summary [shape=box, label="${label}"];\n}\n`,
        mermaid: `flowchart LR\n  summary["${label}"]\n`,
        partial: `Partial: the contract has ${units} units; graphs of more than ${limits.units} units are not drawn (the impact answer counts every unit).`,
      },
      svg: false,
    };
  }
  const plan = good.plan;
  const report =
    changes.length > 0
      ? impact(
          plan,
          changes.map((c) => ({ origin: c.node, kinds: c.kinds ?? "all" })),
        )
      : undefined;
  const graph: GraphResult = { dot: toDot(plan, report), mermaid: toMermaid(plan, report) };
  if (units <= limits.svgUnits) return { graph, svg: true };
  graph.partial = `Partial: no SVG: the graph has ${units} units, and SVG is laid out for at most ${limits.svgUnits}.`;
  return { graph, svg: false };
}
