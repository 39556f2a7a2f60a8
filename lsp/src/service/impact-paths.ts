/**
 * Impact answers for the editor, bounded. On a chain N units deep the
 * shortest paths of all invalidated units add up to N^2/2 hops, which is what
 * made one impact request take seconds and gigabytes: an editor shows a screen
 * of them, not all. So paths are built only for the first units (in plan
 * order), each keeps its origin, first hop and last hops with the middle elided
 * (boundedPath, shared with the CLI),
 * and building stops at a time budget; and the list itself names at most the
 * first `listed` units (a deep chain's full list runs to hundreds of
 * kilobytes of JSON), with `total` counting all of them. Whatever was left out is said in `partial`.
 */
import { boundedPath, PATH_HOPS, type InvalidatedUnit as ReportedUnit } from "@taskspec/compiler";
import type { InvalidatedUnit } from "../protocol.js";

export interface PathBudget {
  /** At most this many invalidated units are listed (the first, in plan order); `total` counts them all. */
  listed: number;
  /** Paths are built for at most this many units. */
  units: number;
  /** A path longer than this many hops keeps its first hop and the last `hops - 1`. */
  hops: number;
  /** Stop building paths after this long (ms of wall time). */
  ms: number;
}

export const DEFAULT_PATH_BUDGET: PathBudget = { listed: 1000, units: 200, hops: PATH_HOPS, ms: 100 };

export interface BoundedPaths {
  /** The first `budget.listed` invalidated units. */
  invalidated: InvalidatedUnit[];
  /** How many units are invalidated, listed or not. */
  total: number;
  /** Set when some path was left out or elided: what, in one sentence. */
  partial?: string;
}

export function boundedPaths(
  units: readonly ReportedUnit[],
  budget: PathBudget = DEFAULT_PATH_BUDGET,
  now: () => number = () => performance.now(),
): BoundedPaths {
  const deadline = now() + budget.ms;
  const invalidated: InvalidatedUnit[] = [];
  let explained = 0;
  let elided = 0;
  let outOfTime = false;
  const listed = Math.min(units.length, budget.listed);
  for (let i = 0; i < listed; i++) {
    const u = units[i]!;
    if (explained < budget.units && !outOfTime) {
      const { path, hops } = boundedPath(u.cause, budget.hops);
      if (hops > budget.hops) elided++;
      invalidated.push({ unit: u.unit, path });
      explained++;
      outOfTime = now() > deadline;
    } else invalidated.push({ unit: u.unit });
  }
  const notes: string[] = [];
  if (listed < units.length) notes.push(`the first ${listed} of ${units.length} invalidated units are listed (plan order)`);
  if (explained < units.length)
    notes.push(`explanation paths for the first ${explained} of ${units.length} units${outOfTime ? " (time budget reached)" : ""}`);
  if (elided > 0)
    notes.push(`${elided} ${elided === 1 ? "path is" : "paths are"} longer than ${budget.hops} hops and shown with the middle elided`);
  const total = units.length;
  return notes.length > 0 ? { invalidated, total, partial: `Partial: ${notes.join("; ")}.` } : { invalidated, total };
}
