/**
 * What a picture highlights for an impact report: the change origins, the
 * invalidated units, and the hops of their explanation paths (edge hops by
 * from/to/kind, rule hops separately, since rules are not edges of the plan).
 */
import type { EdgeKind } from "../plan/schema.js";
import type { CauseTree, ImpactReport } from "../impact/types.js";

export interface RuleHop {
  from: string;
  to: string;
  on: EdgeKind;
}

export interface Highlight {
  origins: ReadonlySet<string>;
  invalidated: ReadonlySet<string>;
  /** Keys from `edgeKey`. */
  edges: ReadonlySet<string>;
  ruleHops: readonly RuleHop[];
}

export const edgeKey = (from: string, to: string, kind: EdgeKind) => `${from}\u0000${to}\u0000${kind}`;

export function highlightOf(report: ImpactReport): Highlight {
  const unmatched = new Set(report.unmatched.filter((u) => u.code !== "no-matching-edge").map((u) => u.change));
  const edges = new Set<string>();
  const ruleHops = new Map<string, RuleHop>();
  // Cause trees share their common prefixes (one object per reached state), so a
  // walk stops at a link already walked: linear in the reached part even on a
  // deep chain, where walking every unit's whole path would be quadratic.
  const walked = new Set<CauseTree>();
  for (const item of report.invalidated) {
    for (let link: CauseTree = item.cause; link.type !== "change" && !walked.has(link); link = link.because) {
      walked.add(link);
      if (link.type === "edge") edges.add(edgeKey(link.from, link.to, link.kind));
      else ruleHops.set(edgeKey(link.from, link.to, link.on), { from: link.from, to: link.to, on: link.on });
    }
  }
  return {
    origins: new Set(report.changes.filter((c) => !unmatched.has(c)).map((c) => c.origin)),
    invalidated: new Set(report.invalidated.map((i) => i.unit)),
    edges,
    ruleHops: [...ruleHops.values()],
  };
}
