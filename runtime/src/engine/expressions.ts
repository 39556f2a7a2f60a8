/**
 * The runtime's use of the compiler's expression interpreter: checks and
 * `until` conditions must be exactly `true`; templates render to strings. The
 * runtime never evaluates anything the compiler did not compile.
 */
import { evaluate, renderTemplate, type CompiledExpr, type CompiledTemplate } from "@taskspec/compiler";

export function checkPasses(expr: CompiledExpr, env: Record<string, unknown>): { passed: boolean; reason?: string } {
  try {
    const value = evaluate(expr.ast, env);
    return value === true ? { passed: true } : { passed: false, reason: `${expr.source} is ${JSON.stringify(value)}` };
  } catch (err) {
    return { passed: false, reason: `${expr.source}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

export function render(template: CompiledTemplate, env: Record<string, unknown>): string {
  return renderTemplate(template, env);
}
