/**
 * What every extra case gets: the example setups, their uninterrupted
 * baselines and, when repeated, a timing seed; small helpers for steps that
 * honour the seed the way `drill --repeat` does for a matrix case.
 */
import { drill } from "@taskspec/runtime";
import type { Example } from "../support.js";

export interface ExtraContext {
  setups: Record<Example, drill.DrillSetup>;
  baselines: Record<Example, { complete: drill.Baseline; cancel?: drill.Baseline }>;
  /**
   * Timing seed of this run of the case (repeatExtra gives 1..K). extraCase
   * puts it in the sandbox's env (TASKSPEC_DRILL_SEED, as drill.drive gives
   * the workers); step, stepHandle and drive below then pause each process
   * start by drill.seededPauseMs, so each seed meets the services, the
   * leases and the other racer at different moments. Absent: no pauses (the
   * single CI run, like a matrix case without --repeat).
   */
  seed?: number;
}

export type ExtraCase = (x: ExtraContext) => Promise<drill.CaseResult>;

const SEED_ENV = "TASKSPEC_DRILL_SEED";

/** The sandbox with the seed in its env (variants and reference sandboxes copy the env, so they carry it too). */
export function seededSandbox(sb: drill.Sandbox, seed: number | undefined): drill.Sandbox {
  if (seed !== undefined) sb.env = { ...sb.env, [SEED_ENV]: String(seed) };
  return sb;
}

export function seedOf(sb: Pick<drill.Sandbox, "env">): number | undefined {
  const s = sb.env[SEED_ENV];
  return s === undefined ? undefined : Number(s);
}

/** Process starts so far per sandbox directory (variants share the directory, so one sequence per case run). */
const starts = new Map<string, number>();

/**
 * The pause before the next process start in this sandbox: 0 without a seed,
 * else drill.seededPauseMs(seed, n) for the n-th start. Taken synchronously,
 * so two racers started together draw different pauses and their start order
 * and gap vary with the seed.
 */
export function nextStartPauseMs(sb: Pick<drill.Sandbox, "env" | "dir">): number {
  const seed = seedOf(sb);
  if (seed === undefined) return 0;
  const n = starts.get(sb.dir) ?? 0;
  starts.set(sb.dir, n + 1);
  return drill.seededPauseMs(seed, n);
}

/** Forgets a finished case run's start count. */
export function forgetStarts(sb: Pick<drill.Sandbox, "dir">): void {
  starts.delete(sb.dir);
}

const pause = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * TASKSPEC_DRILL_REPEAT as a K: unset (undefined) is the CI run; K = 1 is one
 * run of each case without a seed, as `taskspec drill --repeat 1`
 * (scripts/drill-repeat.sh passes whatever K it is given to every group).
 */
export function repeatSetting(setting: string | undefined): number | undefined {
  if (setting === undefined || setting === "") return undefined;
  const k = Number(setting);
  if (!Number.isInteger(k) || k < 1) throw new Error(`TASKSPEC_DRILL_REPEAT must be an integer >= 1, not ${JSON.stringify(setting)}`);
  return k;
}

/**
 * Runs each case `k` times with timing seeds 1..k, one after another (each
 * run has its own sandbox and world), and combines them as `drill --repeat`
 * does: PASS only if every run passed, failing seeds listed. k <= 1: once,
 * without a seed.
 */
export async function repeatExtra(e: ExtraCase, x: ExtraContext, k: number): Promise<drill.CaseResult> {
  if (k <= 1) return e(x);
  const runs: drill.CaseResult[] = [];
  for (let seed = 1; seed <= k; seed++) runs.push(await e({ ...x, seed }));
  return drill.combineRepeats(runs);
}

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

/** Starts a drill step (after the seed's pause): a real worker process on the sandbox (or a variant of it). */
export async function stepHandle(
  sb: drill.Sandbox,
  mode: "run" | "cancel",
  extra: Partial<drill.ChildArgs> = {},
  variant: Partial<drill.Sandbox> = {},
): Promise<drill.ChildHandle> {
  await pause(nextStartPauseMs(sb));
  return drill.startChild(drill.childArgs({ ...sb, ...variant }, mode, extra), sb.env);
}

/** Runs a drill step to its end. */
export async function step(
  sb: drill.Sandbox,
  mode: "run" | "cancel",
  extra: Partial<drill.ChildArgs> = {},
  variant: Partial<drill.Sandbox> = {},
): Promise<drill.ChildResult> {
  return (await stepHandle(sb, mode, extra, variant)).done;
}

/**
 * drill.drive with the sandbox's seed, as a matrix case under --repeat: a
 * seeded pause before each of its steps, the seed passed to the workers.
 */
export function drive(sb: drill.Sandbox, o: drill.DriveOptions): Promise<drill.DriveResult> {
  const seed = seedOf(sb);
  return drill.drive(sb, seed === undefined ? o : { ...o, seed });
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
