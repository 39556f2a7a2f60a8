/**
 * The runtime's use of the compiler's expression interpreter: checks and
 * `until` conditions must be exactly `true`; templates render to strings. The
 * runtime never evaluates anything the compiler did not compile.
 */
import { evaluate, explainValues, renderTemplate, type CompiledExpr, type CompiledTemplate } from "@taskspec/compiler";

export function checkPasses(expr: CompiledExpr, env: Record<string, unknown>): { passed: boolean; reason?: string } {
  try {
    const value = evaluate(expr.ast, env);
    if (value === true) return { passed: true };
    // the values it read, so a person sees which operand was wrong
    const values = explainValues(expr.source, expr.ast, env);
    return { passed: false, reason: `${expr.source} is ${JSON.stringify(value)}${values ? ` (${values})` : ""}` };
  } catch (err) {
    return { passed: false, reason: `${expr.source}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function render(template: CompiledTemplate, env: Record<string, unknown>): string {
  return renderTemplate(template, env);
}
