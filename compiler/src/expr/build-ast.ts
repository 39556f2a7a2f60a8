/**
 * The visitor: a syntax-error-free CST -> the typed AST of the plan schema,
 * with spans. It also reports what the grammar cannot: unknown functions,
 * fields of a call result, bad string escapes, numbers too large to represent.
 * Path segments carry no span in the plan, so their spans are kept on the side
 * (a WeakMap) for the checker's messages.
 */
import type { CstNode, IToken } from "chevrotain";
import type { Span } from "../diagnostics/types.js";
import type { BinaryOp, ExprNode } from "../plan/schema.js";
import { closest } from "../source/suggest.js";
import { FUNCTION_NAMES, isFunctionName } from "./functions.js";
import type { ExprError } from "./types.js";

export type PathSegment = Extract<ExprNode, { type: "path" }>["segments"][number];

export interface BuildResult {
  ast: ExprNode;
  errors: ExprError[];
  /** Span of each path segment: the field name after '.', or the whole `[...]`. */
  segmentSpans: WeakMap<PathSegment, Span>;
}

function nodes(node: CstNode, key: string): CstNode[] {
  return (node.children[key] ?? []) as CstNode[];
}
function tokens(node: CstNode, key: string): IToken[] {
  return (node.children[key] ?? []) as IToken[];
}
function tokenSpan(token: IToken): Span {
  return { start: token.startOffset, end: token.startOffset + token.image.length };
}

/** Binding strength of binary operators, loosest first; all are left-associative. */
export const PRECEDENCE: Record<BinaryOp, number> = {
  "||": 1,
  "&&": 2,
  "==": 3,
  "!=": 3,
  "<": 4,
  "<=": 4,
  ">": 4,
  ">=": 4,
  "+": 5,
  "-": 5,
  "*": 6,
  "/": 6,
};

const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"' };

export function buildAst(cst: CstNode): BuildResult {
  const errors: ExprError[] = [];
  const segmentSpans = new WeakMap<PathSegment, Span>();

  function visit(node: CstNode): ExprNode {
    switch (node.name) {
      case "expression":
        return visitChain(node);
      case "unary":
        return visitUnary(node);
      case "primary":
        return visitPrimary(node);
      case "parenExpr":
        return visitParen(node);
      case "nameExpr":
        return visitName(node);
      default:
        throw new Error(`expression visitor: unexpected rule ${node.name}`);
    }
  }

  /** `operand (op operand)*` -> a tree by precedence (operator-precedence parsing with two stacks; no recursion per operator). */
  function visitChain(node: CstNode): ExprNode {
    const operands = nodes(node, "unary");
    const operators = tokens(node, "BinaryOp").map((t) => t.image as BinaryOp);
    const values: ExprNode[] = [visit(operands[0]!)];
    const pending: BinaryOp[] = [];
    const reduce = () => {
      const right = values.pop()!;
      const left = values.pop()!;
      values.push({ type: "binary", op: pending.pop()!, left, right, span: { start: left.span.start, end: right.span.end } });
    };
    operators.forEach((op, i) => {
      while (pending.length > 0 && PRECEDENCE[pending[pending.length - 1]!] >= PRECEDENCE[op]) reduce();
      pending.push(op);
      values.push(visit(operands[i + 1]!));
    });
    while (pending.length > 0) reduce();
    return values[0]!;
  }

  function visitUnary(node: CstNode): ExprNode {
    let operand = visit(nodes(node, "primary")[0]!);
    const ops = tokens(node, "UnaryOp");
    for (let i = ops.length - 1; i >= 0; i--) {
      const op = ops[i]!;
      operand = { type: "unary", op: op.image as "!" | "-", operand, span: { start: op.startOffset, end: operand.span.end } };
    }
    return operand;
  }

  function visitPrimary(node: CstNode): ExprNode {
    const { parenExpr, nameExpr } = node.children;
    if (parenExpr) return visitParen(parenExpr[0] as CstNode);
    if (nameExpr) return visitName(nameExpr[0] as CstNode);
    const child = Object.values(node.children)[0]![0] as IToken;
    const span = tokenSpan(child);
    switch (child.tokenType.name) {
      case "NumberLiteral":
        return { type: "literal", value: numberValue(child), span };
      case "StringLiteral":
        return { type: "literal", value: stringValue(child), span };
      case "True":
        return { type: "literal", value: true, span };
      case "False":
        return { type: "literal", value: false, span };
      default:
        return { type: "literal", value: null, span };
    }
  }

  function visitParen(node: CstNode): ExprNode {
    const inner = visit(nodes(node, "expression")[0]!);
    // A node's span covers its parentheses, so messages about it underline them too.
    inner.span = { start: tokens(node, "LParen")[0]!.startOffset, end: tokenSpan(tokens(node, "RParen")[0]!).end };
    return inner;
  }

  function visitName(node: CstNode): ExprNode {
    const name = tokens(node, "Identifier")[0]!;
    const args = nodes(node, "arguments")[0];
    const segments = nodes(node, "pathSegment");
    if (args) {
      const callArgs = nodes(args, "expression").map(visit);
      const span = { start: name.startOffset, end: tokenSpan(tokens(args, "RParen")[0]!).end };
      if (segments.length > 0) {
        const first = segmentSpanOf(segments[0]!);
        errors.push({
          message: `a function result has no fields or elements: '${name.image}(...)' cannot be followed by '.' or '['`,
          ...first,
        });
      }
      if (isFunctionName(name.image)) return { type: "call", fn: name.image, args: callArgs, span };
      const unknownName: string = name.image; // not narrowed to `never` by the guard above
      const guess = closest(unknownName, FUNCTION_NAMES);
      errors.push({
        message: `unknown function '${unknownName}'${guess ? ` — did you mean '${guess}'?` : `; the functions are ${FUNCTION_NAMES.join(", ")}`}`,
        ...tokenSpan(name),
      });
      return { type: "literal", value: null, span };
    }
    let end = tokenSpan(name).end;
    const built = segments.map((segment): PathSegment => {
      const span = segmentSpanOf(segment);
      end = span.end;
      const field = tokens(segment, "Identifier")[0];
      const result: PathSegment = field
        ? { kind: "prop", name: field.image }
        : { kind: "index", index: visit(nodes(segment, "expression")[0]!) };
      segmentSpans.set(result, span);
      return result;
    });
    return { type: "path", root: name.image, segments: built, span: { start: name.startOffset, end } };
  }

  function segmentSpanOf(segment: CstNode): Span {
    const field = tokens(segment, "Identifier")[0];
    if (field) return tokenSpan(field);
    return { start: tokens(segment, "LBracket")[0]!.startOffset, end: tokenSpan(tokens(segment, "RBracket")[0]!).end };
  }

  function numberValue(token: IToken): number {
    const value = Number(token.image);
    if (!Number.isFinite(value)) errors.push({ message: `number ${token.image} is too large`, ...tokenSpan(token) });
    return value;
  }

  function stringValue(token: IToken): string {
    const raw = token.image;
    let out = "";
    for (let i = 1; i < raw.length - 1; i++) {
      const c = raw[i]!;
      if (c !== "\\") {
        out += c;
        continue;
      }
      const next = raw[++i]!;
      const escaped = ESCAPES[next];
      if (escaped === undefined) {
        const start = token.startOffset + i - 1;
        errors.push({ message: `unknown escape '\\${next}' in string: the escapes are \\n \\t \\r \\\\ \\' \\"`, start, end: start + 2 });
      } else {
        out += escaped;
      }
    }
    return out;
  }

  return { ast: visit(cst), errors, segmentSpans };
}
