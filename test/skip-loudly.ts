/**
 * Suites that need a server or a program this machine may lack (PostgreSQL,
 * Neovim) skip when it is missing, and say so: a banner on stderr and a
 * skipped test whose name is the reason, so `npm run test:unit` on a laptop
 * passes while showing what it did not run. Under TASKSPEC_REQUIRE_ALL=1 (set
 * by .ci/run) the same absence is a failing test instead: CI runs everything.
 * (test/skip-guard-reporter.ts also fails such a run on any other skip.)
 */
import { describe, it } from "vitest";

export const REQUIRE_ALL = process.env["TASKSPEC_REQUIRE_ALL"] === "1";

/** Declares `suite` under `title` when `missing` is undefined, else reports it missing (below). */
export function describeIfAvailable(title: string, missing: string | undefined, suite: () => void): void {
  if (missing === undefined) describe(title, suite);
  else reportMissing(title, missing);
}

/**
 * One skipped test named after what is missing, and a banner on stderr; under
 * TASKSPEC_REQUIRE_ALL=1 one failing test saying the same instead.
 */
export function reportMissing(title: string, missing: string): void {
  if (REQUIRE_ALL) {
    describe(title, () => {
      it(`cannot run: ${missing}`, () => {
        throw new Error(`${title}: ${missing} (TASKSPEC_REQUIRE_ALL=1 turns this skip into a failure)`);
      });
    });
    return;
  }
  const bar = "!".repeat(78);
  console.error(`\n${bar}\n!! SKIPPING ${title}: ${missing}\n${bar}\n`);
  describe(title, () => {
    it.skip(`SKIPPED: ${missing}`, () => {});
  });
}

/** Why the PostgreSQL suites cannot run, or undefined when TASKSPEC_PG_URL names a server. */
export function postgresMissing(): string | undefined {
  return process.env["TASKSPEC_PG_URL"]
    ? undefined
    : "TASKSPEC_PG_URL is not set (npm test starts a throwaway server; or run scripts/with-postgres.sh npx vitest run <files>)";
}
