/** What every extra case gets: the example setups and their uninterrupted baselines; small helpers for steps. */
import { drill } from "@taskspec/runtime";
import type { Example } from "../support.js";

export interface ExtraContext {
  setups: Record<Example, drill.DrillSetup>;
  baselines: Record<Example, { complete: drill.Baseline; cancel?: drill.Baseline }>;
}

export type ExtraCase = (x: ExtraContext) => Promise<drill.CaseResult>;

export function caseOf(
  id: string,
  contract: string,
  siteClass: drill.SiteClass,
  expectedReruns: string[],
  description: string,
  injection: string,
  crashes: drill.CrashArm[] = [],
  scenario: drill.Scenario = "complete",
): drill.DrillCase {
  return { id, contract, scenario, crashes, siteClass, expectedReruns, description, injection };
}

/** Starts a drill step: a real worker process on the sandbox (or a variant of it). */
export function stepHandle(
  sb: drill.Sandbox,
  mode: "run" | "cancel",
  extra: Partial<drill.ChildArgs> = {},
  variant: Partial<drill.Sandbox> = {},
): drill.ChildHandle {
  return drill.startChild(drill.childArgs({ ...sb, ...variant }, mode, extra), sb.env);
}

/** Runs a drill step to its end. */
export function step(
  sb: drill.Sandbox,
  mode: "run" | "cancel",
  extra: Partial<drill.ChildArgs> = {},
  variant: Partial<drill.Sandbox> = {},
): Promise<drill.ChildResult> {
  return stepHandle(sb, mode, extra, variant).done;
}

/** The step as a report line. */
export const record = (action: drill.StepRecord["action"], r: drill.ChildResult): drill.StepRecord => drill.stepOf(action, r);

/** A drive made of hand-run steps. */
export function manual(steps: drill.StepRecord[], finalStatus: string): drill.DriveResult {
  return { steps, fired: [], unfired: [], finalStatus };
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  return (await res.json()) as T;
}

export async function postJson(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}`);
}

/** Service URLs of an example world (test/drills/worlds/example-world.mjs exposes them). */
export function servicesOf(world: drill.RunningWorld): Record<string, string> {
  return (world as drill.RunningWorld & { services?: Record<string, string> }).services ?? {};
}

export const blockedAt = (r: drill.ChildResult, unit: string, reason: string) =>
  r.outcome?.status === "blocked" && (r.outcome.blocked ?? []).some((b) => b.unit === unit && b.reason === reason);
