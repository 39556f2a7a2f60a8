/**
 * A cause tree as JSON text, the same text `JSON.stringify(cause)` gives, in
 * a loop: JSON.stringify recurses once per hop and overflows the stack on a
 * chain some thousands of units deep. Every link's `because` is its last key.
 * Given `max`, a chain longer than that keeps its `max` hops nearest the unit
 * and then the change itself with `elidedHops`: how many hops were left out
 * between them (one cause per unit of a long chain would otherwise add up to
 * N^2/2 hops).
 */
import type { CauseTree } from "./types.js";

export function causeJson(cause: CauseTree, max = Infinity): string {
  const parts: string[] = [];
  let depth = 0;
  let link: CauseTree = cause;
  let elided = 0;
  while (link.type !== "change") {
    if (depth < max) {
      const { because, ...rest } = link;
      parts.push(`${JSON.stringify(rest).slice(0, -1)},"because":`);
      depth++;
    } else elided++;
    link = link.because;
  }
  parts.push(JSON.stringify(elided > 0 ? { ...link, elidedHops: elided } : link), "}".repeat(depth));
  return parts.join("");
}
