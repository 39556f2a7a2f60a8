/**
 * What a check receives when it judges a plan instead of a contract: the
 * plan (already valid against the plan schema), its declarations by name,
 * and a report that places each finding at a JSON pointer into the plan.
 * A check module that judges both holds the rule once, as a function over
 * plain values, and one adapter per caller: `(ctx: CheckContext)` for the
 * contract (spans, fixes) and `(view: PlanView)` for the plan (paths).
 */
import type { DiagnosticCode } from "../diagnostics/types.js";
import type { Plan, PlanInput, PlanTool, PlanUnit, PlanVerifier } from "../plan/schema.js";
import type { FileProbe } from "./files.js";

/** A compiler rule broken by a plan: the compiler's code, and where in the plan (RFC 6901 pointer). */
export interface PlanDiagnostic {
  code: DiagnosticCode;
  message: string;
  /** `/units/3/verify`; `""` for the whole plan. */
  path: string;
}

export interface PlanView {
  plan: Plan;
  /** First declaration of each name (a second one is C011). */
  units: Map<string, { unit: PlanUnit; index: number }>;
  inputs: Map<string, PlanInput>;
  tools: Map<string, { tool: PlanTool; index: number }>;
  verifiers: Map<string, { verifier: PlanVerifier; index: number }>;
  /** Answers whether a file the plan names exists, beside the plan; without it C013 is not judged. */
  files?: FileProbe;
  report(code: DiagnosticCode, path: string, message: string): void;
}

export type PlanCheck = (view: PlanView) => void;

export function createPlanView(plan: Plan, files?: FileProbe): { view: PlanView; found: PlanDiagnostic[] } {
  const found: PlanDiagnostic[] = [];
  const firstByName = <T, K>(items: readonly T[], name: (t: T) => string, make: (t: T, i: number) => K): Map<string, K> => {
    const out = new Map<string, K>();
    items.forEach((item, i) => {
      if (!out.has(name(item))) out.set(name(item), make(item, i));
    });
    return out;
  };
  const view: PlanView = {
    plan,
    units: firstByName(
      plan.units,
      (u) => u.id,
      (unit, index) => ({ unit, index }),
    ),
    inputs: firstByName(
      plan.inputs,
      (i) => i.name,
      (input) => input,
    ),
    tools: firstByName(
      plan.tools,
      (t) => t.name,
      (tool, index) => ({ tool, index }),
    ),
    verifiers: firstByName(
      plan.verifiers,
      (v) => v.name,
      (verifier, index) => ({ verifier, index }),
    ),
    ...(files ? { files } : {}),
    report: (code, path, message) => found.push({ code, message, path }),
  };
  return { view, found };
}

/** The recovery class of a declared tool, or undefined for a name the plan does not declare (C010 says so). */
export function classIn(view: PlanView, tool: string): PlanTool["class"] | undefined {
  return view.tools.get(tool)?.tool.class;
}

/** A name as one token of a JSON pointer (RFC 6901). */
export function pointerToken(name: string): string {
  return name.replace(/~/g, "~0").replace(/\//g, "~1");
}
