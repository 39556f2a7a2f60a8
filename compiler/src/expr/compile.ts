/**
 * compileExpression: syntax, then names and types, then the expected result
 * type (`check` and `until` must be boolean). The compiled expression is
 * returned only when there is no error. Its AST may be shared with other
 * results for the same source: treat it as read-only.
 */
import type { CompiledExpr, ExprType } from "../plan/schema.js";
import { checkExpression } from "./check.js";
import { article } from "./functions.js";
import { MAX_ERRORS } from "./limits.js";
import { parseExpression } from "./syntax.js";
import type { ExprError, ExprScope } from "./types.js";

export function compileExpression(source: string, scope: ExprScope, expected?: ExprType): { expr?: CompiledExpr; errors: ExprError[] } {
  const parsed = parseExpression(source);
  // parse results are shared (cached by source): hand out a copy of the list
  if (!parsed.ast) return { errors: [...parsed.errors] };
  const checked = checkExpression(parsed.ast, scope, parsed.segmentSpans);
  const errors = checked.errors;
  if (expected && expected !== "any" && checked.type !== "any" && checked.type !== expected) {
    errors.push({ message: `this must be ${article(expected)}, but it is ${article(checked.type)}`, ...parsed.ast.span });
  }
  if (errors.length > 0) return { errors: errors.slice(0, MAX_ERRORS) };
  return { expr: { source, ast: parsed.ast, resultType: checked.type }, errors: [] };
}
