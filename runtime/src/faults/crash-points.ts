/**
 * Named crash points for fault drills. Armed from outside with
 * `TASKSPEC_CRASH_AT=<point>[@<unit>[/<tool>]]` (comma-separated for several);
 * when the worker reaches an armed point it SIGKILLs itself, so recovery is
 * exercised exactly as after a real crash: no finally blocks, no flushes.
 */

export const CRASH_POINTS = [
  "before-effect",
  "after-effect-before-receipt",
  "after-artifact-before-commit",
  "mid-checkpoint",
  "after-commit-before-ack",
  "during-compensation",
  "during-reconciliation",
  "during-approval-wait",
] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number];

export interface CrashSpec {
  point: CrashPoint;
  unit?: string;
  tool?: string;
}

export function parseCrashSpecs(value: string | undefined): CrashSpec[] {
  if (!value) return [];
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .map((spec) => {
      const [point, target] = spec.split("@", 2) as [string, string | undefined];
      if (!(CRASH_POINTS as readonly string[]).includes(point)) {
        throw new Error(`TASKSPEC_CRASH_AT: unknown crash point ${JSON.stringify(point)}; known: ${CRASH_POINTS.join(", ")}`);
      }
      const [unit, tool] = target ? (target.split("/", 2) as [string, string | undefined]) : [undefined, undefined];
      return { point: point as CrashPoint, ...(unit ? { unit } : {}), ...(tool ? { tool } : {}) };
    });
}

export type CrashHook = (point: CrashPoint, where?: { unit?: string; tool?: string }) => void;

/** The hook the engine calls at every named point; kills the process where armed. */
export function crashHookFromEnv(env: NodeJS.ProcessEnv = process.env): CrashHook {
  const specs = parseCrashSpecs(env.TASKSPEC_CRASH_AT);
  if (specs.length === 0) return () => {};
  return (point, where = {}) => {
    const hit = specs.some(
      (s) => s.point === point && (s.unit === undefined || s.unit === where.unit) && (s.tool === undefined || s.tool === where.tool),
    );
    if (hit) {
      process.stderr.write(
        `taskspec: crash point ${point}${where.unit ? `@${where.unit}` : ""}${where.tool ? `/${where.tool}` : ""} reached: SIGKILL\n`,
      );
      process.kill(process.pid, "SIGKILL");
    }
  };
}
