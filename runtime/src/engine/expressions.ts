/**
 * The runtime's use of the compiler's expression interpreter for checks and
 * `until` conditions: they pass only when exactly `true`. (Templates, the
 * ledger's keys and compensation arguments, render with the compiler's
 * renderTemplate directly.) The runtime never evaluates anything the compiler
 * did not compile.
 */
import { evaluate, explainValues, type CompiledExpr } from "@taskspec/compiler";

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
