/**
 * compile() for a command that keeps only the plan and the diagnostics. The
 * check's result (with the parse: yaml tree, model, line index) is dropped
 * before the plan is built, so the parse can be collected meanwhile: on a
 * large contract it is most of the memory, and `impact <old> <new>` holds
 * the first plan while the second contract is compiled.
 */
import { checkContract, type CompileOptions, type Diagnostic, type Plan } from "@taskspec/compiler";

export function compilePlan(text: string, options: CompileOptions): { plan?: Plan; diagnostics: Diagnostic[] } {
  const { diagnostics, buildPlan } = checkContract(text, options);
  return buildPlan ? { plan: buildPlan(), diagnostics } : { diagnostics };
}
