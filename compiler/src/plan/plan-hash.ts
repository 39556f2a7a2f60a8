/**
 * The plan hash: sha256 of the canonical JSON of a plan without `planHash`.
 * build-plan.ts computes it this way, a plan read back from JSON is checked
 * against it (plan-check.ts), and a test or tool that edits a plan on purpose
 * recomputes it with this function.
 */
import { hashOf } from "./canonical.js";
import type { Plan } from "./schema.js";

export function planHashOf(plan: Omit<Plan, "planHash"> & { planHash?: unknown }): string {
  const { planHash: _ignored, ...rest } = plan;
  return hashOf(rest);
}
