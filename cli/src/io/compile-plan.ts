/**
 * compile() for a command that keeps only the plan and the diagnostics. The
 * check's result (with the parse: yaml tree, model, line index) is dropped
 * before the plan is built, so the parse can be collected meanwhile: on a
 * large contract it is most of the memory, and `impact <old> <new>` holds
 * the first plan while the second contract is compiled.
 */
import { checkContract, type CompileOptions, type Diagnostic, type Plan, type Reusable, type UnhashedPlan } from "@taskspec/compiler";
import { filesBeside, mcpLockBeside } from "@taskspec/compiler/node";
import { renderText } from "../render/diagnostics.js";
import { configLookup } from "./config.js";
import { readContractFile } from "./read-contracts.js";

export function compilePlan(text: string, options: CompileOptions): { plan?: Plan; diagnostics: Diagnostic[] } {
  const { diagnostics, buildPlan } = checkContract(text, options);
  return buildPlan ? { plan: buildPlan(), diagnostics } : { diagnostics };
}

/** compilePlan without the plan's hash, for `impact <old> <new>`: a diff never reads it. */
export function compileUnhashedPlan(text: string, options: CompileOptions): { plan?: UnhashedPlan; diagnostics: Diagnostic[] } {
  const { diagnostics, unhashedPlan } = checkContract(text, options);
  return unhashedPlan ? { plan: unhashedPlan(), diagnostics } : { diagnostics };
}

/**
 * Reads a contract file and compiles it with what lies beside it (the files
 * it names, the rules of its config and, unless `mcpLock` is false, its MCP
 * lock). With errors, prints them as `check` does and gives undefined; an
 * unreadable file is a UserError (exit 2). The one way every command compiles
 * a contract file; `loadPlanToRun` (run-support.ts) adds compiled plans and
 * refuses what does not compile.
 */
export function compileContractFile<P>(
  compiler: (text: string, options: CompileOptions) => { plan?: P; diagnostics: Diagnostic[] },
  file: string,
  options: { color: boolean; mcpLock: boolean },
): P | undefined {
  return compileContractResult(compiler, file, options).plan;
}

/**
 * compileContractFile's whole result (what `compiler` gives beside the plan),
 * `previous` (the tree of an earlier version of the same contract, consumed:
 * CompileOptions.previous) passed on.
 */
export function compileContractResult<R extends { plan?: unknown; diagnostics: Diagnostic[] }>(
  compiler: (text: string, options: CompileOptions) => R,
  file: string,
  options: { color: boolean; mcpLock: boolean; previous?: Reusable },
): R {
  const text = readContractFile(file);
  const result = compiler(text, {
    files: filesBeside(file),
    ...(options.mcpLock ? { mcp: () => mcpLockBeside(file) } : {}),
    rules: configLookup()(file).rules,
    ...(options.previous ? { previous: options.previous } : {}),
  });
  if (!result.plan) process.stderr.write(renderText({ file, text, diagnostics: result.diagnostics }, { color: options.color }));
  return result;
}

/**
 * compileUnhashedPlan that also hands back the parse's tree, for compiling
 * the next version of the same contract from it (CompileOptions.previous):
 * the only part of the parse kept.
 */
export function compileUnhashedPlanForNext(
  text: string,
  options: CompileOptions,
): { plan?: UnhashedPlan; diagnostics: Diagnostic[]; reusable?: Reusable } {
  const { diagnostics, unhashedPlan, parsed } = checkContract(text, options);
  const { reusable } = parsed;
  return { ...(unhashedPlan ? { plan: unhashedPlan() } : {}), diagnostics, ...(reusable ? { reusable } : {}) };
}
