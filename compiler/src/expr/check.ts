/**
 * The checker: names against the scope (with did-you-mean), fields of closed
 * entries, and operand types. `any` (unknown JSON) passes every check here;
 * the interpreter checks it at run time. A sub-expression with an error is
 * typed `any` afterwards so one mistake yields one message.
 */
import type { ExprNode, ExprType } from "../plan/schema.js";
import type { Span } from "../diagnostics/types.js";
import type { PathSegment } from "./build-ast.js";
import { closest } from "../source/suggest.js";
import { article, FUNCTIONS } from "./functions.js";
import { formatSegments } from "./print.js";
import type { ExprError, ExprScope, ScopeEntry } from "./types.js";

export interface CheckResult {
  type: ExprType;
  errors: ExprError[];
}

const isOneOf = (type: ExprType, allowed: readonly ExprType[]) => type === "any" || allowed.includes(type);
const SCALARS: readonly ExprType[] = ["boolean", "number", "string"];
/** A unit with many needs has many names; a message lists the first ones. */
const MAX_LISTED = 16;

/** Whether an entry rejects fields it does not list. */
export function isClosed(entry: ScopeEntry): boolean {
  return entry.fields !== undefined && entry.open !== true;
}

export function checkExpression(ast: ExprNode, scope: ExprScope, segmentSpans: WeakMap<PathSegment, Span>): CheckResult {
  const errors: ExprError[] = [];
  const report = (message: string, span: Span) => errors.push({ message, start: span.start, end: span.end });

  function typeOf(node: ExprNode): ExprType {
    switch (node.type) {
      case "literal":
        return node.value === null ? "null" : (typeof node.value as "string" | "number" | "boolean");
      case "path":
        return pathType(node);
      case "unary": {
        const operand = typeOf(node.operand);
        const wanted = node.op === "!" ? "boolean" : "number";
        if (!isOneOf(operand, [wanted]))
          report(`'${node.op}' needs ${article(wanted)}, but this is ${article(operand)}`, node.operand.span);
        return wanted;
      }
      case "binary":
        return binaryType(node);
      case "call":
        return callType(node);
    }
  }

  function binaryType(node: Extract<ExprNode, { type: "binary" }>): ExprType {
    const left = typeOf(node.left);
    const right = typeOf(node.right);
    const both = `${article(left)} and ${article(right)}`;
    switch (node.op) {
      case "&&":
      case "||":
        for (const [side, type, span] of [
          ["left", left, node.left.span],
          ["right", right, node.right.span],
        ] as const) {
          if (!isOneOf(type, ["boolean"])) report(`'${node.op}' needs booleans, but its ${side} side is ${article(type)}`, span);
        }
        return "boolean";
      case "==":
      case "!=":
        if (left !== right && left !== "any" && right !== "any" && left !== "null" && right !== "null") {
          report(`comparing ${both} is always ${node.op === "==" ? "false" : "true"}`, node.span);
        }
        return "boolean";
      case "<":
      case "<=":
      case ">":
      case ">=": {
        const ok = (isOneOf(left, ["number"]) && isOneOf(right, ["number"])) || (isOneOf(left, ["string"]) && isOneOf(right, ["string"]));
        if (!ok) report(`'${node.op}' compares two numbers or two strings, not ${both}`, node.span);
        return "boolean";
      }
      case "+":
        if (isOneOf(left, ["number"]) && isOneOf(right, ["number"])) return left === "any" && right === "any" ? "any" : "number";
        if (isOneOf(left, ["string"]) && isOneOf(right, ["string"])) return "string";
        report(`'+' adds two numbers or joins two strings, not ${both}`, node.span);
        return "any";
      default:
        for (const [side, type, span] of [
          ["left", left, node.left.span],
          ["right", right, node.right.span],
        ] as const) {
          if (!isOneOf(type, ["number"])) report(`'${node.op}' needs numbers, but its ${side} side is ${article(type)}`, span);
        }
        return "number";
    }
  }

  function callType(node: Extract<ExprNode, { type: "call" }>): ExprType {
    const spec = FUNCTIONS[node.fn];
    const n = node.args.length;
    if (n < spec.minArgs || n > spec.maxArgs) {
      const takes =
        spec.minArgs === spec.maxArgs
          ? `exactly ${spec.minArgs} argument${spec.minArgs === 1 ? "" : "s"}`
          : `at least ${spec.minArgs} argument${spec.minArgs === 1 ? "" : "s"}`;
      report(`${node.fn}() takes ${takes} (${spec.signature}), got ${n}`, node.span);
    }
    for (const arg of node.args) {
      const type = typeOf(arg);
      if (!isOneOf(type, spec.accepts)) report(`${node.fn}() needs ${spec.accepted}, but this is ${article(type)}`, arg.span);
    }
    return spec.returns;
  }

  function pathType(node: Extract<ExprNode, { type: "path" }>): ExprType {
    const rootSpan = { start: node.span.start, end: node.span.start + node.root.length };
    const root = Object.hasOwn(scope, node.root) ? scope[node.root] : undefined;
    if (!root) {
      const names = Object.keys(scope).sort();
      const guess = closest(node.root, names);
      const listed = names.length > MAX_LISTED ? `${names.slice(0, MAX_LISTED).join(", ")}, ...` : names.join(", ");
      const hint = guess ? ` — did you mean '${guess}'?` : names.length > 0 ? `; names here: ${listed}` : "";
      const minus = node.root.includes("-") ? " (a '-' between letters is part of a name: write 'a - b' to subtract)" : "";
      report(`unknown name '${node.root}'${minus}${hint}`, rootSpan);
      node.segments.forEach((s) => s.kind === "index" && typeOf(s.index));
      return "any";
    }
    // `entry` undefined means unknown JSON: anything goes from here on.
    let entry: ScopeEntry | undefined = root;
    for (let i = 0; i < node.segments.length; i++) {
      const segment = node.segments[i]!;
      const span = segmentSpans.get(segment) ?? node.span;
      const indexType = segment.kind === "index" ? typeOf(segment.index) : undefined;
      if (!entry) continue;
      // Only messages need the path so far; formatting it for every segment would be quadratic.
      const here = () => node.root + formatSegments(node.segments.slice(0, i));
      const name =
        segment.kind === "prop"
          ? segment.name
          : segment.index.type === "literal" && typeof segment.index.value === "string"
            ? segment.index.value
            : undefined;
      if (entry.type === "list") {
        if (segment.kind === "prop") {
          report(`'${here()}' is a list and has no field '${segment.name}': pick an element with [n], or use count(${here()})`, span);
          entry = undefined; // reported: later index expressions are still checked
          continue;
        }
        if (!isOneOf(indexType!, ["number"])) {
          report(`'${here()}' is a list: its index must be a number, not ${article(indexType!)}`, span);
          entry = undefined;
          continue;
        }
        entry = undefined; // element types are not declared
      } else if (entry.type === "object" || entry.type === "any") {
        const keys: readonly ExprType[] = entry.type === "object" ? ["string"] : ["string", "number"];
        if (segment.kind === "index" && !isOneOf(indexType!, keys)) {
          const must =
            entry.type === "object"
              ? `'${here()}' is an object: its index must be a field name (a string)`
              : "an index must be a number or a string";
          report(`${must}, not ${article(indexType!)}`, span);
          entry = undefined;
          continue;
        }
        const known: ScopeEntry | undefined =
          name !== undefined && entry.fields && Object.hasOwn(entry.fields, name) ? entry.fields[name] : undefined;
        if (known) {
          entry = known;
        } else if (name !== undefined && isClosed(entry)) {
          const fields = Object.keys(entry.fields!).sort();
          const guess = closest(name, fields);
          const hint = guess
            ? ` — did you mean '${guess}'?`
            : fields.length > 0
              ? `; its fields are ${fields.join(", ")}`
              : "; it has no fields";
          report(`unknown field '${name}' of '${here()}'${hint}`, span);
          entry = undefined;
          continue;
        } else {
          entry = undefined;
        }
      } else {
        const what = segment.kind === "prop" ? `field '${segment.name}'` : "elements";
        report(`'${here()}' is ${article(entry.type)} and has no ${what}`, span);
        entry = undefined;
        continue;
      }
    }
    return entry ? entry.type : "any";
  }

  return { type: typeOf(ast), errors };
}

/** Whether a value of this type can be written into a template's text. */
export function isTemplateType(type: ExprType): boolean {
  return isOneOf(type, SCALARS);
}
