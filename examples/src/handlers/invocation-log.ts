/**
 * Counts handler invocations per unit in a file outside the runtime's store,
 * so the demo and the tests can prove which units re-ran (and that none
 * before a change point did) without trusting the runtime's own account.
 * Enabled by env TASKSPEC_INVOCATION_LOG=<file>; one JSON line per call.
 * A handler process (the default isolation) may write only inside its attempt
 * directory, so with TASKSPEC_INVOCATION_LOG=stderr (passed on with
 * `--handler-env`) each call is a line `INVOCATION_LINE_PREFIX<json>` on the
 * handler's stderr instead, which the worker passes on as its own stderr and
 * whoever ran the command files (the demo: taskspec-cli.ts).
 */
import fs from "node:fs";
import type { UnitContext, UnitHandler } from "@taskspec/runtime";

export const INVOCATION_LOG_ENV = "TASKSPEC_INVOCATION_LOG";
export const INVOCATION_LINE_PREFIX = "taskspec-invocation ";

export interface Invocation {
  run: string;
  unit: string;
  attempt: string;
  iteration: number;
  pid: number;
}

function record(ctx: UnitContext): void {
  const file = process.env[INVOCATION_LOG_ENV];
  if (!file) return;
  const line: Invocation = { run: ctx.run.id, unit: ctx.unit.id, attempt: ctx.attempt.id, iteration: ctx.iteration, pid: process.pid };
  // one write of one short line: whole on the pipe even beside other handler processes
  if (file === "stderr") fs.writeSync(2, `${INVOCATION_LINE_PREFIX}${JSON.stringify(line)}\n`);
  else fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
}

/** Wraps every unit handler so each invocation is logged before it runs. */
export function withInvocationLog(units: Record<string, UnitHandler>): Record<string, UnitHandler> {
  return Object.fromEntries(
    Object.entries(units).map(([id, handler]) => [
      id,
      (ctx: UnitContext) => {
        record(ctx);
        return handler(ctx);
      },
    ]),
  );
}

export function readInvocations(file: string): Invocation[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Invocation);
}

/** Invocations per unit (loop iterations of one attempt count once). */
export function countPerUnit(invocations: readonly Invocation[]): Map<string, number> {
  const seen = new Set<string>();
  const counts = new Map<string, number>();
  for (const call of invocations) {
    const attempt = `${call.run}/${call.unit}/${call.attempt}`;
    if (seen.has(attempt)) continue;
    seen.add(attempt);
    counts.set(call.unit, (counts.get(call.unit) ?? 0) + 1);
  }
  return counts;
}
