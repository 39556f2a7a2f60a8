/**
 * Templates: text with `${expr}` parts, used by tool `key`s and compensation
 * `with` values. `$${` writes a literal `${` (like HCL); any other `$` is
 * text, read left to right, so `$` characters just before a part cannot be
 * text (`$${x}` is the escape): write them as a part, `${"$"}${x}`. A part ends at the first `}` outside a string literal, so
 * `${"}"}` works. Each part is compiled as an expression and must be a
 * string, number or boolean; AST spans and errors are relative to the
 * template's own source.
 *
 * Rendering writes strings as they are, numbers in their shortest form and
 * booleans as `true`/`false`; a part that is null (missing), a list or an
 * object is an ExprEvalError, because a key with a hole in it could collide
 * with another.
 */
import type { CompiledTemplate, ExprNode, ExprType } from "../plan/schema.js";
import { isTemplateType } from "./check.js";
import { compileExpression } from "./compile.js";
import { ExprEvalError, evaluate } from "./evaluate.js";
import { article, typeOfValue } from "./functions.js";
import { checkSourceLength, MAX_ERRORS } from "./limits.js";
import { formatExpression } from "./print.js";
import type { ExprError, ExprScope } from "./types.js";

export type TemplatePiece =
  | { kind: "text"; text: string }
  /** `start`/`end` delimit the expression text between `${` and `}`. */
  | { kind: "expr"; source: string; start: number; end: number };

/** Split a template into text and expression pieces; no expression is compiled here. */
export function splitTemplate(source: string): { pieces: TemplatePiece[]; errors: ExprError[] } {
  const pieces: TemplatePiece[] = [];
  let text = "";
  let i = 0;
  while (i < source.length) {
    if (source.startsWith("$${", i)) {
      text += "${";
      i += 3;
    } else if (source.startsWith("${", i)) {
      const end = findPartEnd(source, i + 2);
      if (end < 0)
        return { pieces, errors: [{ message: "unterminated '${': add '}' after the expression", start: i, end: source.length }] };
      if (text) pieces.push({ kind: "text", text });
      text = "";
      pieces.push({ kind: "expr", source: source.slice(i + 2, end), start: i + 2, end });
      i = end + 1;
    } else {
      text += source[i];
      i++;
    }
  }
  if (text) pieces.push({ kind: "text", text });
  return { pieces, errors: [] };
}

/** Index of the `}` closing a part whose expression starts at `from`, or -1. */
export function findPartEnd(source: string, from: number): number {
  let quote: string | undefined;
  for (let j = from; j < source.length; j++) {
    const c = source[j];
    if (quote) {
      if (c === "\\") j++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === "}") {
      return j;
    }
  }
  return -1;
}

export function compileTemplate(source: string, scope: ExprScope): { template?: CompiledTemplate; errors: ExprError[] } {
  const tooLong = checkSourceLength(source, "template");
  if (tooLong) return { errors: [tooLong] };
  const split = splitTemplate(source);
  if (split.errors.length > 0) return { errors: split.errors };
  const errors: ExprError[] = [];
  const parts: CompiledTemplate["parts"] = [];
  for (const piece of split.pieces) {
    if (piece.kind === "text") {
      parts.push({ text: piece.text });
      continue;
    }
    const whole = { start: piece.start - 2, end: piece.end + 1 };
    if (piece.source.trim() === "") {
      errors.push({ message: "empty template part '${}': put an expression inside, or write '$${' for a literal '${'", ...whole });
      continue;
    }
    const compiled = compileExpression(piece.source, scope);
    errors.push(...compiled.errors.map((e) => ({ ...e, start: e.start + piece.start, end: e.end + piece.start })));
    if (!compiled.expr) continue;
    const ast = shiftSpans(compiled.expr.ast, piece.start);
    const type = compiled.expr.resultType as ExprType;
    if (!isTemplateType(type)) {
      errors.push({
        message: `a template part must be a string, number or boolean, but ${formatExpression(ast)} is ${article(type)}`,
        ...ast.span,
      });
      continue;
    }
    parts.push({ expr: ast });
  }
  if (errors.length > 0) return { errors: errors.slice(0, MAX_ERRORS) };
  return { template: { source, parts }, errors: [] };
}

/** A copy of the AST with every span moved by `offset`. */
function shiftSpans(node: ExprNode, offset: number): ExprNode {
  const span = { start: node.span.start + offset, end: node.span.end + offset };
  switch (node.type) {
    case "literal":
      return { ...node, span };
    case "path":
      return {
        ...node,
        segments: node.segments.map((s) => (s.kind === "prop" ? s : { kind: "index", index: shiftSpans(s.index, offset) })),
        span,
      };
    case "unary":
      return { ...node, operand: shiftSpans(node.operand, offset), span };
    case "binary":
      return { ...node, left: shiftSpans(node.left, offset), right: shiftSpans(node.right, offset), span };
    case "call":
      return { ...node, args: node.args.map((a) => shiftSpans(a, offset)), span };
  }
}

export function renderTemplate(template: CompiledTemplate, env: Record<string, unknown>): string {
  return template.parts
    .map((part) => {
      if ("text" in part) return part.text;
      const value = evaluate(part.expr, env);
      if (typeof value === "string") return value;
      if (typeof value === "number" || typeof value === "boolean") return String(value);
      const what = value === null || value === undefined ? "null (missing)" : article(typeOfValue(value));
      throw new ExprEvalError(
        `template part \${${formatExpression(part.expr)}} is ${what}; a template needs a string, number or boolean`,
        part.expr.span,
      );
    })
    .join("");
}
