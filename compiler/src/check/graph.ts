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
  // Kahn's algorithm runs on unit indexes and typed arrays (the downstream lists packed into one
  // array, not an array per unit); the maps are filled once at the end
  const count = units.length;
  const index = new Map<string, number>();
  for (let i = 0; i < count; i++) index.set(units[i]!, i);
  const upstream = new Map<string, string[]>();
  const pending = new Int32Array(count);
  // each edge's upstream index, in unit order (unit i's pending[i] edges follow those of the units before it)
  const edgeUp: number[] = [];
  const downCount = new Int32Array(count + 1);
  for (let i = 0; i < count; i++) {
    const ups: string[] = [];
    for (const need of needNames(i)) {
      const up = index.get(need);
      if (up === undefined) continue;
      ups.push(need);
      edgeUp.push(up);
      downCount[up + 1]!++;
    }
    upstream.set(units[i]!, ups);
    pending[i] = ups.length;
  }
  // unit u's downstream units are downTarget[downStart[u] .. downStart[u + 1]), in increasing order
  const downStart = downCount;
  for (let u = 0; u < count; u++) downStart[u + 1]! += downStart[u]!;
  const downTarget = new Int32Array(edgeUp.length);
  const fill = downStart.slice(0, count);
  for (let i = 0, e = 0; i < count; i++) for (let k = 0; k < pending[i]!; k++, e++) downTarget[fill[edgeUp[e]!]!++] = i;
  const levelOf = new Int32Array(count);
  const queue: number[] = [];
  for (let i = 0; i < count; i++) if (pending[i] === 0) queue.push(i);
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head]!;
    const next = levelOf[i]! + 1;
    for (let d = downStart[i]!; d < downStart[i + 1]!; d++) {
      const down = downTarget[d]!;
      if (next > levelOf[down]!) levelOf[down] = next;
      if (--pending[down]! === 0) queue.push(down);
    }
  }
  const level = new Map<string, number>();
  const blocked: string[] = [];
  for (let i = 0; i < count; i++) {
    if (pending[i]! > 0) blocked.push(units[i]!);
    else level.set(units[i]!, levelOf[i]!);
  }
  return { units, upstream, level, blocked };
}
