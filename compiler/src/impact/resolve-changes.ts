/**
 * Checks each change against the plan before anything propagates, so a typo'd
 * origin or kind becomes an `Unmatched` entry with a did-you-mean instead of an
 * empty answer.
 */
import { EDGE_KINDS, type EdgeKind } from "../plan/schema.js";
import { isEdgeKind, maskOf } from "../plan/kinds.js";
import type { PlanIndex } from "./plan-index.js";
import { closest, didYouMean } from "../source/suggest.js";
import type { ChangeInput, Unmatched } from "./types.js";

export interface ResolvedChange {
  /** Index into the changes as given. */
  change: number;
  node: number;
  mask: number;
}

export function resolveChanges(index: PlanIndex, changes: readonly ChangeInput[]): { resolved: ResolvedChange[]; unmatched: Unmatched[] } {
  const resolved: ResolvedChange[] = [];
  const unmatched: Unmatched[] = [];
  changes.forEach((change, i) => {
    const node = index.indexOf.get(change.origin);
    if (node === undefined) {
      const hint = closest(change.origin, index.ids);
      unmatched.push({
        change,
        code: "unknown-node",
        reason: `'${change.origin}' is neither a unit nor an input${didYouMean(hint)}`,
        ...(hint ? { didYouMean: hint } : {}),
      });
      return;
    }
    if (change.kinds !== "all") {
      const bad = change.kinds.find((k) => !isEdgeKind(k));
      if (bad !== undefined || change.kinds.length === 0) {
        const hint = bad === undefined ? undefined : closest(bad, [...EDGE_KINDS, "all"]);
        unmatched.push({
          change,
          code: "unknown-kind",
          reason:
            bad === undefined
              ? `change at '${change.origin}' names no kind; use one of ${EDGE_KINDS.join(", ")} or all`
              : `'${bad}' is not an edge kind (${EDGE_KINDS.join(", ")} or all)${didYouMean(hint)}`,
          ...(hint ? { didYouMean: hint } : {}),
        });
        return;
      }
    }
    const mask = maskOf(change.kinds as readonly EdgeKind[] | "all");
    if (!meetsAnything(index, node, mask)) {
      unmatched.push({
        change,
        code: "no-matching-edge",
        reason: `nothing depends on '${change.origin}' in ${change.kinds === "all" ? "any kind" : change.kinds.join(", ")}${describeOutKinds(index, node)}`,
      });
    }
    resolved.push({ change: i, node, mask });
  });
  return { resolved, unmatched };
}

function meetsAnything(index: PlanIndex, node: number, mask: number): boolean {
  for (let e = index.outStart[node]!; e < index.outStart[node + 1]!; e++) if (index.outMask[e]! & mask) return true;
  const fires = (r: number) => (index.ruleMask[r]! & mask) !== 0 && index.ruleTargets[r]!.length > 0;
  return (index.rulesAt.get(node) ?? []).some(fires) || index.rulesAnywhere.some(fires);
}

function describeOutKinds(index: PlanIndex, node: number): string {
  let mask = 0;
  for (let e = index.outStart[node]!; e < index.outStart[node + 1]!; e++) mask |= index.outMask[e]!;
  const kinds = EDGE_KINDS.filter((_, i) => mask & (1 << i));
  return kinds.length === 0 ? " (no unit needs it)" : ` (its dependents need it as ${kinds.join(", ")})`;
}
