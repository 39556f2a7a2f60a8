/**
 * The unit dependency graph, built once per compile and shared by the cycle,
 * dead-work and budget checks and the plan: upstream/downstream adjacency over
 * units (inputs are roots, not graph nodes here), Kahn levels, and the units
 * left over when the graph has a cycle. Linear in units + edges.
 */
import type { ContractSpec } from "../schema/contract.js";

export interface UnitGraph {
  /** Unit ids in declaration order. */
  units: string[];
  /** unit -> units it needs (declaration order, deduplicated). */
  upstream: Map<string, string[]>;
  /** unit -> units that need it. */
  downstream: Map<string, string[]>;
  /** unit -> parallel level; units on or behind a cycle have none. */
  level: Map<string, number>;
  /** Units that could not be levelled: they are on a cycle or downstream of one. */
  blocked: string[];
}

export function buildGraph(contract: ContractSpec): UnitGraph {
  const units = Object.keys(contract.units);
  const upstream = new Map<string, string[]>();
  const downstream = new Map<string, string[]>();
  for (const id of units) downstream.set(id, []);
  for (const id of units) {
    const ups = Object.keys(contract.units[id]!.needs ?? {}).filter((n) => downstream.has(n));
    upstream.set(id, ups);
    for (const up of ups) downstream.get(up)!.push(id);
  }
  const level = new Map<string, number>();
  const pending = new Map<string, number>();
  const queue: string[] = [];
  for (const id of units) {
    const count = upstream.get(id)!.length;
    pending.set(id, count);
    if (count === 0) {
      level.set(id, 0);
      queue.push(id);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head]!;
    const next = level.get(id)! + 1;
    for (const down of downstream.get(id)!) {
      if (next > (level.get(down) ?? -1)) level.set(down, next);
      const left = pending.get(down)! - 1;
      pending.set(down, left);
      if (left === 0) queue.push(down);
    }
  }
  const blocked = units.filter((id) => pending.get(id)! > 0);
  for (const id of blocked) level.delete(id);
  return { units, upstream, downstream, level, blocked };
}
