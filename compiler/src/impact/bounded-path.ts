/**
 * Explanation paths as people and tools read them, bounded. On a chain N
 * units deep the shortest paths of all invalidated units add up to N^2/2
 * hops: printed whole, a long chain's text report failed with "Invalid
 * string length" and its JSON ran to gigabytes. So a path longer than
 * PATH_HOPS keeps its origin, its first hop and its last hops, with the
 * middle as one marker (`u0 --content--> u1 --(9986 more hops)--> u9987 ...`),
 * and a JSON cause tree keeps the hops nearest the unit and then the change
 * itself, saying how many hops were left out. The CLI and the editor share it.
 */
import { edgeArrow, ruleArrow } from "./explain.js";
import type { CauseTree } from "./types.js";

/** Hops of a path shown in full; a longer one has its middle elided. */
export const PATH_HOPS = 12;

type Hop = Exclude<CauseTree, { type: "change" }>;

const arrow = (link: Hop): string => (link.type === "edge" ? edgeArrow(link.kind) : ruleArrow(link.on));

/**
 * The path of a cause chain with at most `max` hops of text (`max` >= 2):
 * walks the chain once (a loop, any depth) keeping the last `max - 1` hops and
 * the one nearest the origin; the hops between are one marker,
 * `S01 --content--> S02 --(9986 more hops)--> S9988 --content--> ...`.
 * `hops` is the chain's whole length.
 */
export function boundedPath(cause: CauseTree, max: number = PATH_HOPS): { path: string; hops: number } {
  const tail: Hop[] = [];
  let first: Hop | undefined;
  let hops = 0;
  let link: CauseTree = cause;
  while (link.type !== "change") {
    if (hops < max) tail.push(link);
    first = link;
    hops++;
    link = link.because;
  }
  const origin = link.origin;
  tail.reverse();
  if (hops <= max) return { path: origin + tail.map((l) => arrow(l) + l.to).join(""), hops };
  // tail holds the last `max` hops: the oldest of them becomes the marker into its node
  const [into, ...rest] = tail;
  const elided = hops - 1 - rest.length;
  const marker = ` --(${elided} more ${elided === 1 ? "hop" : "hops"})--> `;
  return { path: `${origin}${arrow(first!)}${first!.to}${marker}${into!.to}${rest.map((l) => arrow(l) + l.to).join("")}`, hops };
}

/** The number of hops of a cause chain (a loop, any depth). */
export function hopsOf(cause: CauseTree): number {
  let hops = 0;
  for (let link = cause; link.type !== "change"; link = link.because) hops++;
  return hops;
}
