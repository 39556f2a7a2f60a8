/**
 * The values behind a failed check, for people: every path the expression
 * reads (`result.value`, `needs.a.result.count`), evaluated in the same
 * environment, as `result.value = ""`. A check that says only "is false"
 * leaves the reader to guess which operand was wrong.
 */
import type { ExprNode } from "../plan/schema.js";
import { evaluate } from "./evaluate.js";

const MAX_VALUE = 120;

function paths(node: ExprNode, out: Extract<ExprNode, { type: "path" }>[]): void {
  switch (node.type) {
    case "path":
      out.push(node);
      for (const s of node.segments) if (s.kind === "index") paths(s.index, out);
      return;
    case "unary":
      return paths(node.operand, out);
    case "binary":
      paths(node.left, out);
      return paths(node.right, out);
    case "call":
      for (const a of node.args) paths(a, out);
      return;
    case "literal":
      return;
  }
}

/** `a = 1, b.c = "x"` for the distinct paths of `ast` (as written in `source`), or "" when it reads none. */
export function explainValues(source: string, ast: ExprNode, env: Record<string, unknown>): string {
  const found: Extract<ExprNode, { type: "path" }>[] = [];
  paths(ast, found);
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const node of found) {
    const text = source.slice(node.span.start, node.span.end);
    if (seen.has(text)) continue;
    seen.add(text);
    let shown: string;
    try {
      shown = JSON.stringify(evaluate(node, env)) ?? "undefined";
    } catch (err) {
      shown = `(${err instanceof Error ? err.message : String(err)})`;
    }
    parts.push(`${text} = ${shown.length > MAX_VALUE ? `${shown.slice(0, MAX_VALUE)}…` : shown}`);
  }
  return parts.join(", ");
}
