/**
 * Which crash points apply to a plan, and where. Pure: plan in, cases out.
 *
 * Effect points (before the call, after it but before the receipt, during the
 * reconciliation that follows) are armed at one unit/tool pair per recovery
 * class of non-read tool. Unit points (artifacts written but not committed,
 * torn checkpoint, committed but not acknowledged) are armed at one unit per
 * kind of unit: the strongest class of tool it uses, whether it also reads
 * external evidence, loops, or waits at a gate. Compensation is crashed at each
 * compensable effect of a cancelled run; the approval wait at each gate.
 */
import type { Plan, PlanUnit } from "@taskspec/compiler";
import type { CrashPoint } from "../faults/crash-points.js";
import type { CrashArm, DrillCase, SiteClass } from "./types.js";

const STRENGTH: SiteClass[] = ["none", "read", "idempotent", "dedup", "compensable", "irreversible"];

/** Points inside an attempt before its commit: the unit must run once more. */
const RERUN_POINTS: ReadonlySet<CrashPoint> = new Set([
  "before-effect",
  "after-effect-before-receipt",
  "after-artifact-before-commit",
  "mid-checkpoint",
  "during-reconciliation",
]);

const WHAT: Record<CrashPoint, string> = {
  "before-effect": "effect recorded STARTED, tool not called; recovery confirms it absent (or asks a person) and retries once",
  "after-effect-before-receipt":
    "the remote did it, the receipt was lost; recovery looks it up by key and adopts it, never calls again blindly",
  "after-artifact-before-commit": "artifacts written, checkpoint not committed; the files are orphans, the unit re-runs in a new attempt",
  "mid-checkpoint": "torn checkpoint transaction; nothing of it is visible, the unit re-runs",
  "after-commit-before-ack": "committed but the worker never heard; resume reads the commit and re-runs nothing",
  "during-compensation": "cancel killed between marking and calling a compensator; the next cancel finishes the saga once",
  "during-reconciliation": "recovery killed while looking up an unknown effect; the next recovery looks it up again",
  "during-approval-wait": "killed while blocked at a gate; the approval and resume still release it once",
};

function toolClass(plan: Plan, name: string): SiteClass {
  return (plan.tools.find((t) => t.name === name)?.class ?? "none") as SiteClass;
}

/** The strongest class among the tools a unit uses (`none` when it uses none). */
export function unitClass(plan: Plan, unit: PlanUnit): SiteClass {
  let best: SiteClass = "none";
  for (const t of unit.uses) {
    const c = toolClass(plan, t);
    if (STRENGTH.indexOf(c) > STRENGTH.indexOf(best)) best = c;
  }
  return best;
}

function unitKind(plan: Plan, unit: PlanUnit): string {
  const cls = unitClass(plan, unit);
  const reads = cls !== "read" && unit.uses.some((t) => toolClass(plan, t) === "read");
  return [cls, reads ? "reads" : "", unit.loop ? "loop" : "", unit.approval ? "gate" : ""].filter(Boolean).join("+");
}

function arm(point: CrashPoint, unit: string, tool?: string): CrashArm {
  return { point, unit, ...(tool ? { tool } : {}) };
}

export function armText(a: CrashArm): string {
  return `${a.point}@${a.unit}${a.tool ? `/${a.tool}` : ""}`;
}

function makeCase(
  contract: string,
  crashes: CrashArm[],
  siteClass: SiteClass,
  scenario: DrillCase["scenario"] = "complete",
  kind?: string,
): DrillCase {
  const last = crashes[crashes.length - 1]!;
  return {
    id: `${contract}/${armText(last).replace("@", "/")}`,
    contract,
    scenario,
    crashes,
    siteClass,
    expectedReruns: RERUN_POINTS.has(last.point) ? [last.unit] : [],
    description: `${kind ? `${kind}: ` : ""}${WHAT[last.point]}`,
  };
}

export function enumerateCases(plan: Plan, contract: string = plan.task.id): DrillCase[] {
  const cases: DrillCase[] = [];
  // Effect points: one unit/tool pair per class of non-read tool, first in plan order.
  const effectSites = new Map<SiteClass, { unit: string; tool: string }>();
  for (const u of plan.units) {
    for (const t of u.uses) {
      const cls = toolClass(plan, t);
      if (cls === "read" || effectSites.has(cls)) continue;
      effectSites.set(cls, { unit: u.id, tool: t });
    }
  }
  for (const [cls, site] of effectSites) {
    cases.push(makeCase(contract, [arm("before-effect", site.unit, site.tool)], cls));
    cases.push(makeCase(contract, [arm("after-effect-before-receipt", site.unit, site.tool)], cls));
    // Recovery itself dies: first lose a receipt, then crash the recovery that looks it up.
    cases.push(
      makeCase(
        contract,
        [arm("after-effect-before-receipt", site.unit, site.tool), arm("during-reconciliation", site.unit, site.tool)],
        cls,
      ),
    );
  }
  // Unit points: one unit per kind.
  const kinds = new Map<string, PlanUnit>();
  for (const u of plan.units) {
    const k = unitKind(plan, u);
    if (!kinds.has(k)) kinds.set(k, u);
  }
  for (const [k, u] of kinds) {
    for (const point of ["after-artifact-before-commit", "mid-checkpoint", "after-commit-before-ack"] as const) {
      cases.push(makeCase(contract, [arm(point, u.id)], unitClass(plan, u), "complete", k));
    }
  }
  // Compensation: each compensable effect, undone by a cancel that dies before calling its compensator.
  for (const u of plan.units) {
    for (const t of u.uses) {
      const tool = plan.tools.find((x) => x.name === t);
      if (tool?.class !== "compensable" || !tool.compensate) continue;
      cases.push(makeCase(contract, [arm("during-compensation", u.id, tool.compensate.tool)], "compensable", "cancel"));
    }
  }
  // Gates: killed while waiting for a person.
  for (const u of plan.units) {
    if (u.approval) cases.push(makeCase(contract, [arm("during-approval-wait", u.id)], unitClass(plan, u), "complete", "gate"));
  }
  return cases;
}
