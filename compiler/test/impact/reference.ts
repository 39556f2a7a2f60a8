/**
 * A deliberately naive reading of the invalidation semantics, the oracle of
 * the property tests: relax every edge and every rule until nothing changes,
 * tracking for each (node, kind) the fewest hops by which a change can reach
 * it. Quadratic, but obviously the rules of contract-v1.md as written.
 */
import { EDGE_KINDS, type EdgeKind, type Plan } from "../../src/plan/schema.js";
import type { Change } from "../../src/impact/types.js";

/** Unit id -> length of its shortest explanation path, for every invalidated unit. */
export function referenceImpact(plan: Plan, changes: readonly Change[]): Map<string, number> {
  const nodes = [...plan.units.map((u) => u.id), ...plan.inputs.map((i) => i.name)];
  const dist = new Map<string, number>(); // `${node} ${kind}` -> hops
  const unitDist = new Map<string, number>();
  const key = (node: string, kind: EdgeKind) => `${node} ${kind}`;
  for (const c of changes) {
    if (!nodes.includes(c.origin)) continue;
    for (const k of c.kinds === "all" ? EDGE_KINDS : c.kinds) dist.set(key(c.origin, k), 0);
  }
  let changed = true;
  const relax = (to: string, kind: EdgeKind, hops: number) => {
    for (const k of new Set<EdgeKind>([kind, "content"])) {
      if ((dist.get(key(to, k)) ?? Infinity) > hops) {
        dist.set(key(to, k), hops);
        changed = true;
      }
    }
    if ((unitDist.get(to) ?? Infinity) > hops) unitDist.set(to, hops);
  };
  while (changed) {
    changed = false;
    for (const e of plan.edges) {
      for (const k of e.kinds) {
        const d = dist.get(key(e.from, k));
        if (d !== undefined) relax(e.to, k, d + 1);
      }
    }
    for (const rule of plan.impactRules) {
      for (const from of rule.at === undefined ? nodes : [rule.at]) {
        const d = dist.get(key(from, rule.on));
        if (d !== undefined) for (const u of rule.invalidate) relax(u, rule.on, d + 1);
      }
    }
  }
  return unitDist;
}
