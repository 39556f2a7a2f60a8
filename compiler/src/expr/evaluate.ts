/**
 * The interpreter: a tree walk over the AST, no eval, no Function. It is total
 * over JSON-like environments: a missing root, field or element is null, and
 * reading on past null stays null; every other misuse (a field of a string,
 * `null > 3`, `1 / 0`, a non-boolean for `&&`) throws ExprEvalError with the
 * offending node's span. Only own properties are read, so `constructor` or
 * `__proto__` are just missing fields.
 *
 * Operators: `&&` `||` need booleans and short-circuit; `==` `!=` compare by
 * value (deep for lists and objects); `< <= > >=` need two numbers or two
 * strings; `+` adds numbers or joins strings; `- * /` need numbers; a result
 * that is not finite (overflow, division by zero) is an error.
 */
import type { Span } from "../diagnostics/types.js";
import type { ExprNode } from "../plan/schema.js";
import { article, FUNCTIONS, typeOfValue } from "./functions.js";
import { formatExpression } from "./print.js";

export class ExprEvalError extends Error {
  override readonly name = "ExprEvalError";
  constructor(
    message: string,
    /** Where in the expression's source the failing node is. */
    readonly span: Span,
  ) {
    super(message);
  }
}

const describe = (value: unknown) => article(typeOfValue(value));

export function evaluate(ast: ExprNode, env: Record<string, unknown>): unknown {
  function fail(node: ExprNode, message: string): never {
    throw new ExprEvalError(message, node.span);
  }

  function boolean(node: ExprNode, op: string): boolean {
    const value = run(node);
    if (typeof value !== "boolean") fail(node, `'${op}' needs a boolean, but ${formatExpression(node)} is ${describe(value)}`);
    return value;
  }

  function number(node: ExprNode, op: string): number {
    const value = run(node);
    if (typeof value !== "number") fail(node, `'${op}' needs a number, but ${formatExpression(node)} is ${describe(value)}`);
    return value;
  }

  function finite(node: ExprNode, value: number): number {
    if (!Number.isFinite(value)) fail(node, `${formatExpression(node)} has no finite value (division by zero or overflow)`);
    return value;
  }

  function run(node: ExprNode): unknown {
    switch (node.type) {
      case "literal":
        return node.value;
      case "path":
        return readPath(node);
      case "unary":
        return node.op === "!" ? !boolean(node.operand, "!") : finite(node, -number(node.operand, "-"));
      case "call": {
        const spec = FUNCTIONS[node.fn];
        return spec.apply(
          node.args.map((arg) => () => run(arg)),
          (message) => fail(node, message),
        );
      }
      case "binary":
        return binary(node);
    }
  }

  function binary(node: Extract<ExprNode, { type: "binary" }>): unknown {
    switch (node.op) {
      case "&&":
        return boolean(node.left, "&&") && boolean(node.right, "&&");
      case "||":
        return boolean(node.left, "||") || boolean(node.right, "||");
      case "==":
        return deepEqual(run(node.left), run(node.right));
      case "!=":
        return !deepEqual(run(node.left), run(node.right));
      case "+": {
        const left = run(node.left);
        const right = run(node.right);
        if (typeof left === "number" && typeof right === "number") return finite(node, left + right);
        if (typeof left === "string" && typeof right === "string") return left + right;
        return fail(node, `'+' adds two numbers or joins two strings, but got ${describe(left)} and ${describe(right)}`);
      }
      case "-":
        return finite(node, number(node.left, "-") - number(node.right, "-"));
      case "*":
        return finite(node, number(node.left, "*") * number(node.right, "*"));
      case "/": {
        const left = number(node.left, "/");
        const right = number(node.right, "/");
        if (right === 0) fail(node, `division by zero in ${formatExpression(node)}`);
        return finite(node, left / right);
      }
      default: {
        const left = run(node.left);
        const right = run(node.right);
        const comparable =
          (typeof left === "number" && typeof right === "number") || (typeof left === "string" && typeof right === "string");
        if (!comparable) fail(node, `'${node.op}' compares two numbers or two strings, but got ${describe(left)} and ${describe(right)}`);
        const [l, r] = [left as number | string, right as number | string];
        return node.op === "<" ? l < r : node.op === "<=" ? l <= r : node.op === ">" ? l > r : l >= r;
      }
    }
  }

  function readPath(node: Extract<ExprNode, { type: "path" }>): unknown {
    let value: unknown = Object.hasOwn(env, node.root) ? env[node.root] : null;
    for (const segment of node.segments) {
      if (value === null || value === undefined) return null;
      if (segment.kind === "prop") {
        if (Array.isArray(value) || typeof value !== "object") {
          fail(node, `cannot read field '${segment.name}' of ${describe(value)} in ${formatExpression(node)}`);
        }
        value = Object.hasOwn(value, segment.name) ? (value as Record<string, unknown>)[segment.name] : null;
        continue;
      }
      const index = run(segment.index);
      if (Array.isArray(value)) {
        if (typeof index !== "number" || !Number.isInteger(index)) {
          fail(
            segment.index,
            `a list index must be a whole number, but ${formatExpression(segment.index)} is ${typeof index === "number" ? index : describe(index)}`,
          );
        }
        value = index >= 0 && index < value.length ? value[index] : null;
      } else if (typeof value === "object") {
        if (typeof index !== "string")
          fail(segment.index, `an object is indexed by a field name, but ${formatExpression(segment.index)} is ${describe(index)}`);
        value = Object.hasOwn(value, index) ? (value as Record<string, unknown>)[index] : null;
      } else {
        fail(node, `cannot index ${describe(value)} in ${formatExpression(node)}`);
      }
    }
    return value === undefined ? null : value;
  }

  return run(ast);
}

/** Structural equality over JSON-like values; undefined and null are the same (missing). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((x, i) => deepEqual(x, other[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra).filter((k) => ra[k] !== undefined);
  const otherKeys = Object.keys(rb).filter((k) => rb[k] !== undefined);
  return keys.length === otherKeys.length && keys.every((k) => Object.hasOwn(rb, k) && deepEqual(ra[k], rb[k]));
}
