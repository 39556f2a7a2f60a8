/**
 * The strength of a long property test. The inner loop (`npm run test:unit`)
 * makes a tenth of the test's full count of runs (at least 5) from a fixed
 * seed, so it is quick and deterministic; `npm test`, and so .ci/run, sets
 * FC_RUNS=full: the count each test names, from a fresh seed each time
 * (fast-check prints the seed of a failure; `seed` in fc.assert replays it).
 * FC_RUNS=N makes N runs from a fresh seed (a deeper soak, or a quicker look).
 */
export function fcRuns(full: number): { numRuns: number; seed?: number } {
  const setting = process.env["FC_RUNS"];
  if (setting === "full") return { numRuns: full };
  if (setting !== undefined && setting !== "") {
    const n = Number(setting);
    if (!Number.isInteger(n) || n < 1) throw new Error(`FC_RUNS must be "full" or a positive integer, not ${JSON.stringify(setting)}`);
    return { numRuns: n };
  }
  return { numRuns: Math.max(5, Math.ceil(full / 10)), seed: 20261202 };
}
