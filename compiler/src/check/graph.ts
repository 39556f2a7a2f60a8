/**
 * The unit dependency graph, built once per compile and shared by the cycle,
 * dead-work and budget checks and the plan: upstream adjacency over units
 * (inputs are roots, not graph nodes here), Kahn levels, and the units left
 * over when the graph has a cycle. Linear in units + edges. Downstream lists
 * are only needed inside a cycle, so the cycle check builds those itself.
 */
import type { ContractSpec } from "../schema/contract.js";
import { needListOf, type NeedList } from "../plan/need-list.js";

export interface UnitGraph {
  /** Unit ids in declaration order. */
  units: string[];
  /** unit -> units it needs (declaration order, deduplicated). */
  upstream: Map<string, string[]>;
  /** Each unit's needs (units and inputs), parallel to `units`. */
  needs: NeedList[];
  /** unit -> parallel level; units on or behind a cycle have none. */
  level: Map<string, number>;
  /** Units that could not be levelled: they are on a cycle or downstream of one. */
  blocked: string[];
}

export function buildGraph(contract: ContractSpec): UnitGraph {
  const units = Object.keys(contract.units);
  const needs: NeedList[] = [];
  for (let i = 0; i < units.length; i++) needs.push(needListOf(contract.units[units[i]!]!));
  return { ...levelGraph(units, (i) => needs[i]!.names), needs };
}

/**
 * Upstream lists, Kahn levels and the units left over by a cycle, for units
 * and the names each needs (names that are not units, inputs, are roots).
 * The contract's graph and a plan's (check/plan-rules.ts) are both made here.
 */
export function levelGraph(units: string[], needNames: (i: number) => readonly string[]): Omit<UnitGraph, "needs"> {
  // Kahn's algorithm runs on unit indexes and typed arrays; the maps are filled once at the end
  const index = new Map<string, number>();
  for (let i = 0; i < units.length; i++) index.set(units[i]!, i);
  const upstream = new Map<string, string[]>();
  const downIndexes: number[][] = [];
  const pending = new Int32Array(units.length);
  for (let i = 0; i < units.length; i++) downIndexes.push([]);
  for (let i = 0; i < units.length; i++) {
    const id = units[i]!;
    const ups: string[] = [];
    for (const need of needNames(i)) {
      const up = index.get(need);
      if (up === undefined) continue;
      ups.push(need);
      downIndexes[up]!.push(i);
    }
    upstream.set(id, ups);
    pending[i] = ups.length;
  }
  const levelOf = new Int32Array(units.length);
  const queue: number[] = [];
  for (let i = 0; i < units.length; i++) if (pending[i] === 0) queue.push(i);
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head]!;
    const next = levelOf[i]! + 1;
    for (const down of downIndexes[i]!) {
      if (next > levelOf[down]!) levelOf[down] = next;
      if (--pending[down]! === 0) queue.push(down);
    }
  }
  const level = new Map<string, number>();
  const blocked: string[] = [];
  for (let i = 0; i < units.length; i++) {
    if (pending[i]! > 0) blocked.push(units[i]!);
    else level.set(units[i]!, levelOf[i]!);
  }
  return { units, upstream, level, blocked };
}
