/**
 * The compiler's checks, judged again on a plan. A plan is data anyone can
 * edit and hash again (`planHash` is a checksum, not a signature), so what the
 * compiler refuses in a contract is refused in a plan too, under the same
 * code: a unit with side effects and no verifier, an empty `task.done`, an
 * irreversible tool without a gate, and every other error the plan holds
 * enough to judge. Each entry of PLAN_RULES is the plan adapter of one check
 * module (compiler/src/check), which holds the rule once for both callers.
 *
 * Every compiler code is accounted for exactly once: judged by a rule here,
 * by the plan schema (SCHEMA_CODES, plan-check.ts reports those schema
 * errors under the rule's code), or listed in NOT_JUDGED with the reason.
 * A test holds the catalog to that, so a new code is placed when it is added.
 */
import type { DiagnosticCode } from "../diagnostics/types.js";
import { planApprovalGates } from "./approval.js";
import { planArtifacts } from "./artifacts.js";
import { planBounds } from "./bounds.js";
import { planCompensation } from "./compensation.js";
import { planCycles } from "./cycles.js";
import { planDedup } from "./dedup.js";
import { planEdgeKinds } from "./edge-kinds.js";
import { planExpressions } from "./expressions.js";
import type { FileProbe } from "./files.js";
import { planFiles } from "./files.js";
import { planKeyBounds } from "./key-bounds.js";
import { planMcp } from "./mcp.js";
import { planMcpLock } from "./mcp-lock.js";
import { createPlanView, type PlanCheck, type PlanDiagnostic } from "./plan-view.js";
import { planRanges } from "./ranges.js";
import { planReferences } from "./references.js";
import { planSecrets } from "./secrets.js";
import { planVerification } from "./verification.js";
import type { Plan } from "../plan/schema.js";

export type { PlanDiagnostic } from "./plan-view.js";

export interface PlanRule {
  /** The compiler codes this check may report. */
  codes: readonly DiagnosticCode[];
  check: PlanCheck;
}

/** One entry per check, in the order of the codes' bands. */
export const PLAN_RULES: readonly PlanRule[] = [
  { codes: ["C002"], check: planRanges },
  { codes: ["C010", "C011"], check: planReferences },
  { codes: ["C012"], check: planArtifacts },
  { codes: ["C013", "C014"], check: planFiles },
  { codes: ["C020"], check: planCycles },
  { codes: ["C021"], check: planBounds },
  { codes: ["C030", "C031"], check: planCompensation },
  { codes: ["C033"], check: planDedup },
  { codes: ["C034"], check: planApprovalGates },
  { codes: ["C037"], check: planSecrets },
  { codes: ["C010", "C039"], check: planKeyBounds },
  { codes: ["C050", "C051"], check: planVerification },
  { codes: ["C032", "C060"], check: planExpressions },
  { codes: ["C070"], check: planEdgeKinds },
  { codes: ["C100", "C101", "C102"], check: planMcp },
  { codes: ["C103", "C104", "C105", "C106", "C107"], check: planMcpLock },
];

/**
 * Plan-schema errors that are a compiler rule's business: the places where
 * the compiler reports an absence or a bad value under that rule's code
 * rather than as C002 (a loop without `max` is C021, no `budgets` is C041).
 * `at` matches the JSON pointer of the missing or offending value.
 */
export const SCHEMA_CODES: readonly { code: DiagnosticCode; at: RegExp }[] = [
  { code: "C021", at: /^\/units\/\d+\/(loop|retry)\/max$/ },
  { code: "C041", at: /^\/budgets$/ },
  { code: "C051", at: /^\/task\/done$/ },
  { code: "C070", at: /^(\/units\/\d+\/needs\/\d+\/kinds\/\d+|\/edges\/\d+\/kinds\/\d+|\/impactRules\/\d+\/on)$/ },
];

/** Compiler codes a plan is not judged on, and why. */
export const NOT_JUDGED: Readonly<Partial<Record<DiagnosticCode, string>>> = {
  C001: "a plan is JSON, not YAML: broken JSON is refused at its line and column before any check",
  C022: "a warning: warnings never stop a compile, so a plan may carry them",
  C035: "a warning: warnings never stop a compile, so a plan may carry them",
  C036: "a warning: warnings never stop a compile, so a plan may carry them",
  C038: "a warning: warnings never stop a compile, so a plan may carry them",
  C040: "a warning: warnings never stop a compile, so a plan may carry them",
  C052: "a warning: warnings never stop a compile, so a plan may carry them",
  C080: "a warning: warnings never stop a compile, so a plan may carry them",
  C090: "about suppression comments, which a plan does not have (and a warning)",
  C091: "about suppression comments, which a plan does not have",
};

/**
 * Every compiler error a plan holds enough to judge, in plan order. The plan
 * must be valid against the plan schema already (plan-check.ts validates it
 * first). With `files`, schema verifiers' files are probed (C013), as the
 * compiler does with the same probe.
 */
export function checkPlan(plan: Plan, options: { files?: FileProbe } = {}): PlanDiagnostic[] {
  const { view, found } = createPlanView(plan, options.files);
  for (const rule of PLAN_RULES) rule.check(view);
  return found;
}
