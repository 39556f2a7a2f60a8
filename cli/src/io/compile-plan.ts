/**
 * compile() for a command that keeps only the plan and the diagnostics. The
 * check's result (with the parse: yaml tree, model, line index) is dropped
 * before the plan is built, so the parse can be collected meanwhile: on a
 * large contract it is most of the memory, and `impact <old> <new>` holds
 * the first plan while the second contract is compiled.
 */
import { checkContract, type CompileOptions, type Diagnostic, type Plan, type UnhashedPlan } from "@taskspec/compiler";

export function compilePlan(text: string, options: CompileOptions): { plan?: Plan; diagnostics: Diagnostic[] } {
  const { diagnostics, buildPlan } = checkContract(text, options);
  return buildPlan ? { plan: buildPlan(), diagnostics } : { diagnostics };
}

/** compilePlan without the plan's hash, for `impact <old> <new>`: a diff never reads it. */
export function compileUnhashedPlan(text: string, options: CompileOptions): { plan?: UnhashedPlan; diagnostics: Diagnostic[] } {
  const { diagnostics, unhashedPlan } = checkContract(text, options);
  return unhashedPlan ? { plan: unhashedPlan(), diagnostics } : { diagnostics };
}
