/**
 * What the impact view shows, independent of where it came from (a code lens,
 * the preview command, or the unsaved-changes command).
 */
import type { ChangeKinds, InvalidatedUnit } from "../protocol.js";

export interface ImpactChange {
  node: string;
  kinds: ChangeKinds;
}

export interface ImpactViewModel {
  /** File name of the contract, for the heading. */
  contractName: string;
  changes: ImpactChange[];
  /** The first invalidated units (the server lists at most 1,000). */
  invalidated: InvalidatedUnit[];
  /** How many units are invalidated, listed or not; absent: as many as are listed. */
  total?: number;
  /** Units the change leaves alone (only the unsaved-changes view knows them). */
  kept?: string[];
  added?: string[];
  removed?: string[];
  /** Why the answer is incomplete, e.g. the saved file does not compile. */
  note?: string;
  /** The graph as the CLI's `taskspec graph --format svg` draws it. */
  svg?: string;
}

export function describeChange(change: ImpactChange): string {
  const kinds = change.kinds === "all" ? "any kind" : change.kinds.join(", ");
  return `${change.node} (${kinds})`;
}

export function summary(model: ImpactViewModel): string {
  const n = model.total ?? model.invalidated.length;
  const what = model.changes.length === 0 ? "no change" : model.changes.map(describeChange).join("; ");
  return `${what}: ${n} ${n === 1 ? "unit" : "units"} invalidated`;
}
