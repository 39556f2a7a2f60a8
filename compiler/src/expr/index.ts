/**
 * The expression language: `check`/`until` expressions and `${...}` templates.
 * Compile (syntax, names, types) here; evaluate with the interpreter; complete
 * names for editors. Offsets in errors and AST spans are relative to the
 * expression's (or the template's) own source text: the contract compiler adds
 * the YAML scalar's offset.
 */
export type { ExprError, ExprScope, ScopeEntry } from "./types.js";
export { compileExpression } from "./compile.js";
export { compileTemplate, renderTemplate } from "./template.js";
export { evaluate, ExprEvalError } from "./evaluate.js";
export { explainValues } from "./explain-values.js";
export { completeAt, completeTemplateAt, type Completion as ExprCompletion } from "./complete.js";
export { namesIn, pathsIn, type ExprPath } from "./names.js";
export { formatExpression } from "./print.js";
export { FUNCTIONS as EXPR_FUNCTIONS, type FunctionSpec as ExprFunctionSpec } from "./functions.js";
export { highlight, HIGHLIGHT_KINDS, type Highlight, type HighlightKind } from "./highlight.js";
