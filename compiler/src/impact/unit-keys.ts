/**
 * Which keys of a unit an edit changed, for people reading `impact old new`:
 * the behavioural keys (the reason a changed unit must re-run) and the policy
 * keys (applied to future attempts, never a reason to re-run). Read from the
 * two plans, so it needs no source; expressions and templates are compared by
 * their text, tools and verifiers by their plan entries (policy fields aside).
 */
import { canonicalJson } from "../plan/canonical.js";
import type { PlanTool, PlanUnit, PlanVerifier, UnhashedPlan as Plan, VerifierUse } from "../plan/schema.js";

export interface UnitKeyChanges {
  /** Keys whose change invalidates the unit's committed result: `needs`, `tools.<name>`, ... */
  behaviour: string[];
  /** Keys whose change applies to future attempts only: `retry`, `timeout`, `cost`, `phase`. */
  policy: string[];
}

/**
 * Equal canonical JSON. Values written alike (the same keys in the same
 * order, the same primitives) are answered without writing any JSON: a diff
 * compares the policy of every unit of both plans, and nearly all are alike.
 */
const same = (a: unknown, b: unknown) => alike(a, b) || canonicalJson(a ?? null) === canonicalJson(b ?? null);

/** Whether `a` and `b` are the same plain data, key order included (a sufficient test for equal canonical JSON). */
function alike(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i++) {
    const key = keysA[i]!;
    if (key !== keysB[i] || !alike((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
const verifyText = (uses: VerifierUse[]) => uses.map((u) => ("ref" in u ? { ref: u.ref } : { check: u.check.source }));
const loopText = (loop: PlanUnit["loop"]) => loop && { max: loop.max, until: loop.until?.source };

function toolText(tool: PlanTool | undefined) {
  if (!tool) return null;
  const { cost: _cost, recovery: _recovery, key, compensate, ...rest } = tool;
  return {
    ...rest,
    key: key?.source,
    compensate: compensate && {
      tool: compensate.tool,
      with: Object.fromEntries(Object.entries(compensate.with).map(([k, t]) => [k, t.source])),
    },
  };
}

function verifierText(verifier: PlanVerifier | undefined) {
  if (!verifier) return null;
  const { describe: _describe, check, ...rest } = verifier;
  return { ...rest, check: check?.source };
}

/** The tools a unit's recovery involves: its uses plus their lookups and compensators. */
function toolsBehind(unit: PlanUnit, plan: Plan): Set<string> {
  const names = new Set(unit.uses);
  for (const name of unit.uses) {
    const tool = plan.tools.find((t) => t.name === name);
    if (tool?.lookup) names.add(tool.lookup);
    if (tool?.compensate) names.add(tool.compensate.tool);
  }
  return names;
}

export function unitKeyChanges(oldPlan: Plan, oldUnit: PlanUnit, newPlan: Plan, newUnit: PlanUnit): UnitKeyChanges {
  const behaviour: string[] = [];
  const compare = (into: string[], key: string, a: unknown, b: unknown) => !same(a, b) && into.push(key);
  compare(behaviour, "needs", oldUnit.needs, newUnit.needs);
  compare(behaviour, "uses", oldUnit.uses, newUnit.uses);
  compare(behaviour, "produces", oldUnit.produces, newUnit.produces);
  compare(behaviour, "verify", verifyText(oldUnit.verify), verifyText(newUnit.verify));
  compare(behaviour, "loop", loopText(oldUnit.loop), loopText(newUnit.loop));
  compare(behaviour, "approval", oldUnit.approval, newUnit.approval);
  const tools = new Set([...toolsBehind(oldUnit, oldPlan), ...toolsBehind(newUnit, newPlan)]);
  for (const name of [...tools].sort()) {
    compare(
      behaviour,
      `tools.${name}`,
      toolText(oldPlan.tools.find((t) => t.name === name)),
      toolText(newPlan.tools.find((t) => t.name === name)),
    );
  }
  const verifiers = new Set([...oldUnit.verify, ...newUnit.verify].flatMap((u) => ("ref" in u ? [u.ref] : [])));
  for (const name of [...verifiers].sort()) {
    compare(
      behaviour,
      `verifiers.${name}`,
      verifierText(oldPlan.verifiers.find((v) => v.name === name)),
      verifierText(newPlan.verifiers.find((v) => v.name === name)),
    );
  }
  return { behaviour, policy: policyChanges(oldUnit, newUnit) };
}

/** The policy keys an edit changed; cheap (compared field by field), since it runs for every unit of a diff. */
export function policyChanges(oldUnit: PlanUnit, newUnit: PlanUnit): string[] {
  const out: string[] = [];
  if (!same(oldUnit.retry, newUnit.retry)) out.push("retry");
  if (oldUnit.timeoutMs !== newUnit.timeoutMs) out.push("timeout");
  const a = oldUnit.cost;
  const b = newUnit.cost;
  if (a.model_calls !== b.model_calls || a.tool_calls !== b.tool_calls || a.tokens !== b.tokens) out.push("cost");
  if (oldUnit.phase !== newUnit.phase) out.push("phase");
  if (oldUnit.onCodeChange !== newUnit.onCodeChange) out.push("on_code_change");
  if (!same(oldUnit.effects, newUnit.effects)) out.push("effects");
  return out;
}
