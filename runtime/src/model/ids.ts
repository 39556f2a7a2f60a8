/**
 * The name pattern run ids and unit ids must match wherever they enter (the
 * CLI, a plan read from JSON, the API), because both become directory
 * names under the artifact root (`runs/<run>/<unit>/a<n>/`). A run id with
 * `../` created folders outside the root, one with `/` nested inside
 * another run's folder (whose committed artifact then showed as an orphan
 * of that run), and ids with escapes, quotes or 300 characters were taken.
 *
 * Run id: a letter or digit, then letters, digits, `.`, `_`, `-`; at most
 * 128 characters (`ME-042`, `trip-booking-20261201T2233`).
 * Unit id: the contract's name pattern (letters, digits, `_`, `-`, not
 * starting with `-`), at most 128 characters.
 */
import { RuntimeError } from "../errors.js";

export const RUN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
export const UNIT_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,127}$/;

/** An id that does not match its documented pattern. */
export class BadIdError extends RuntimeError {
  override readonly name = "BadIdError";
}

/** Why `run` is not a valid run id, or undefined. */
export function runIdProblem(run: string): string | undefined {
  if (typeof run !== "string" || !RUN_ID_PATTERN.test(run)) {
    return `run id ${JSON.stringify(clipped(run))} is not valid: use 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or digit (e.g. ME-042)`;
  }
  return undefined;
}

/** Why `unit` is not a valid unit id, or undefined. */
export function unitIdProblem(unit: string): string | undefined {
  if (typeof unit !== "string" || !UNIT_ID_PATTERN.test(unit)) {
    return `unit id ${JSON.stringify(clipped(unit))} is not valid: use 1 to 128 letters, digits, '_' or '-', not starting with '-'`;
  }
  return undefined;
}

export function assertRunId(run: string): void {
  const problem = runIdProblem(run);
  if (problem) throw new BadIdError(problem);
}

/** Every unit id of a plan (one read from JSON is not checked by the compiler). */
export function assertPlanIds(plan: { units: readonly { id: string }[] }): void {
  for (const unit of plan.units) {
    const problem = unitIdProblem(unit.id);
    if (problem) throw new BadIdError(`the plan's ${problem}`);
  }
}

function clipped(value: unknown): string {
  const text = String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}
