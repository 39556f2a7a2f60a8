/**
 * The expression module's own interface types. The AST and the compiled forms
 * (ExprNode, ExprType, CompiledExpr, CompiledTemplate) live in the plan schema,
 * because they are part of the emitted plan.
 */
import type { ExprType } from "../plan/schema.js";

/** A problem in an expression; offsets are relative to the expression's source text. */
export interface ExprError {
  message: string;
  start: number;
  end: number;
}

/**
 * What a name (or a field of it) holds. `fields` lists known fields; `open`
 * allows any other field too (unknown JSON, typed `any`). An entry without
 * `fields` whose type is `object` or `any` is open as well: nothing is known
 * about its fields, so none can be rejected.
 */
export interface ScopeEntry {
  type: ExprType;
  fields?: Record<string, ScopeEntry>;
  open?: boolean;
}

/** The names an expression may start with, e.g. `task run unit attempt result inputs` and the unit's needs. */
export type ExprScope = Record<string, ScopeEntry>;
