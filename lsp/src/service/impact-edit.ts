/**
 * "Impact of this edit": which units the open buffer's plan would invalidate
 * compared with a baseline text (the saved file or git HEAD, read by the server
 * adapter), and the graph request. Both compile what they compare; neither
 * decides anything the impact engine does not.
 */
import { compile, impactOfEdit as editImpact, impact, toDot, toMermaid, type EdgeKind } from "@taskspec/compiler";
import type { GraphResult, ImpactOfEditResult } from "../protocol.js";
import type { Analysis } from "./analysis.js";
import { boundedPaths } from "./impact-paths.js";

export type Baseline = { text: string } | { unavailable: string };

export function impactOfEdit(analysis: Analysis, against: "saved" | "head", baseline: Baseline): ImpactOfEditResult {
  const empty = (unavailable: string): ImpactOfEditResult => ({
    against,
    unavailable,
    changes: [],
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
  const { invalidated, partial } = boundedPaths(result.report.invalidated);
  const out: ImpactOfEditResult = {
    against,
    changes: result.diff.changes.map((c) => ({ node: c.origin, kinds: "all" })),
    invalidated,
    kept: result.staysValid,
    added: result.diff.units.added,
    removed: result.diff.units.removed,
  };
  if (partial) out.partial = partial;
  if (!analysis.current)
    out.unavailable = `the open buffer does not compile; compared its version ${current.version}, the last one that did`;
  return out;
}

export function graphOf(analysis: Analysis, changes: { node: string; kinds?: EdgeKind[] | "all" }[] = []): GraphResult | null {
  const plan = analysis.good?.plan;
  if (!plan) return null;
  const report =
    changes.length > 0
      ? impact(
          plan,
          changes.map((c) => ({ origin: c.node, kinds: c.kinds ?? "all" })),
        )
      : undefined;
  return { dot: toDot(plan, report), mermaid: toMermaid(plan, report) };
}
