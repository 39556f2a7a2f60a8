/** The roots an expression reads: what it depends on (impact analysis, LSP references). */
import type { ExprNode } from "../plan/schema.js";

/** Root names referenced by the AST, each once, in order of first appearance. */
export function namesIn(ast: ExprNode): string[] {
  const seen = new Set<string>();
  const visit = (node: ExprNode): void => {
    switch (node.type) {
      case "literal":
        return;
      case "path":
        seen.add(node.root);
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
  return [...seen];
}
