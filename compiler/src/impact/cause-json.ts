/**
 * A cause tree as JSON text, the same text `JSON.stringify(cause)` gives, in
 * a loop: JSON.stringify recurses once per hop and overflows the stack on a
 * chain some thousands of units deep. Every link's `because` is its last key.
 */
import type { CauseTree } from "./types.js";

export function causeJson(cause: CauseTree): string {
  const parts: string[] = [];
  let depth = 0;
  let link: CauseTree = cause;
  while (link.type !== "change") {
    const { because, ...rest } = link;
    parts.push(`${JSON.stringify(rest).slice(0, -1)},"because":`);
    depth++;
    link = because;
  }
  parts.push(JSON.stringify(link), "}".repeat(depth));
  return parts.join("");
}
