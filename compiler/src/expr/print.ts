/**
 * AST -> source text with the fewest parentheses that keep its meaning.
 * Used for messages and hovers, and by the round-trip property test
 * (print, re-parse, same AST).
 */
import type { ExprNode } from "../plan/schema.js";
import { PRECEDENCE, type PathSegment } from "./build-ast.js";

const UNARY_PRECEDENCE = 7;

export function formatExpression(node: ExprNode): string {
  return print(node, 0);
}

function print(node: ExprNode, minPrecedence: number): string {
  switch (node.type) {
    case "literal":
      return typeof node.value === "string" ? quote(node.value) : String(node.value);
    case "path":
      return node.root + formatSegments(node.segments);
    case "call":
      return `${node.fn}(${node.args.map((a) => print(a, 0)).join(", ")})`;
    case "unary":
      return node.op + print(node.operand, UNARY_PRECEDENCE);
    case "binary": {
      const p = PRECEDENCE[node.op];
      // Left-associative: a right operand of equal precedence needs parentheses.
      const text = `${print(node.left, p)} ${node.op} ${print(node.right, p + 1)}`;
      return p < minPrecedence ? `(${text})` : text;
    }
  }
}

export function formatSegments(segments: readonly PathSegment[]): string {
  return segments.map((s) => (s.kind === "prop" ? `.${s.name}` : `[${print(s.index, 0)}]`)).join("");
}

function quote(value: string): string {
  return `"${value.replace(/[\\"\n\r\t]/g, (c) => ({ "\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c]!)}"`;
}
