/** The roots an expression reads: what it depends on (impact analysis, LSP references). */
import type { ExprNode } from "../plan/schema.js";

export type ExprPath = Extract<ExprNode, { type: "path" }>;

/** Every path in the AST (`a.b[c.d]` gives `a.b[...]` then `c.d`), in source order. */
export function pathsIn(ast: ExprNode): ExprPath[] {
  const paths: ExprPath[] = [];
  const visit = (node: ExprNode): void => {
    switch (node.type) {
      case "literal":
        return;
      case "path":
        paths.push(node);
        for (const s of node.segments) if (s.kind === "index") visit(s.index);
        return;
      case "unary":
        return visit(node.operand);
      case "binary":
        visit(node.left);
        return visit(node.right);
      case "call":
        return node.args.forEach(visit);
    }
  };
  visit(ast);
  return paths;
}

/** Root names referenced by the AST, each once, in order of first appearance. */
export function namesIn(ast: ExprNode): string[] {
  return [...new Set(pathsIn(ast).map((path) => path.root))];
}
