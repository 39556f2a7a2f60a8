/** Turns a cause chain into the explanation path people read: `S04 --structure--> A01 --content--> F01`. */
import type { CauseTree } from "./types.js";

export function describeCause(cause: CauseTree): { path: string; pathNodes: string[] } {
  const hops: string[] = [];
  const nodes: string[] = [];
  let link: CauseTree = cause;
  while (link.type !== "change") {
    nodes.push(link.to);
    hops.push(link.type === "edge" ? ` --${link.kind}--> ${link.to}` : ` ==${link.on} rule==> ${link.to}`);
    link = link.because;
  }
  nodes.push(link.origin);
  nodes.reverse();
  return { path: link.origin + hops.reverse().join(""), pathNodes: nodes };
}
