/**
 * Seeded fuzzing over the example contracts, in-process: every mutant goes
 * through check, compile, impact and format (test/hostile/exercise.ts), and
 * none may throw (the compiler answers with diagnostics), take more than a
 * bounded time, or write output out of proportion to its input.
 */
import fc from "fast-check";
import { compile } from "@taskspec/compiler";
import { describe, expect, it } from "vitest";
import { fcRuns } from "../fc-runs.js";
import { seedContracts } from "./corpus.js";
import { exercise, MAX_MESSAGE, timeBound, type Figures } from "./exercise.js";
import { mutant, mutantText } from "./mutate.js";

const seeds = seedContracts();
const originals = new Map(seeds.map((s) => [s.name, compile(s.text).plan]));

describe("seeded fuzzing over the example contracts", () => {
  it(`${seeds.length} contracts, mutated in bytes, lines and YAML structure: no throw, bounded time and output`, () => {
    const worst: Partial<Record<keyof Figures, number>> = {};
    let runs = 0;
    let closest = 0;
    fc.assert(
      fc.property(mutant(seeds), (m) => {
        const text = mutantText(seeds, m);
        const f = exercise(text, originals.get(m.seed));
        runs++;
        for (const k of ["ms", "parseMs", "diagnostics", "longestMessage", "impactOut", "formatOut"] as const)
          worst[k] = Math.max(worst[k] ?? 0, f[k]);
        closest = Math.max(closest, f.ms / timeBound(f));
        expect(f.ms).toBeLessThan(timeBound(f));
        expect(f.longestMessage).toBeLessThanOrEqual(MAX_MESSAGE);
        // linear in the input: a diagnostic per two characters at most (`[x, x, …]` can be wrong
        // item by item; aliases repeat a value's problems once per alias), formatting at most twice the text
        expect(f.diagnostics).toBeLessThanOrEqual(text.length / 2 + 100);
        expect(f.formatOut).toBeLessThanOrEqual(2 * text.length + 4096);
        expect(f.impactOut).toBeLessThanOrEqual(20 * (text.length + 4096));
      }),
      // no shrinking: a slow mutant is slow again on every try, and the mutations already print small
      { ...fcRuns(300), endOnFailure: true },
    );
    console.log(
      `hostile fuzz: ${runs} mutants; worst ${JSON.stringify(worst, (_, v: unknown) => (typeof v === "number" ? Math.round(v) : v))}; closest to the time bound ${Math.round(closest * 100)}% of it`,
    );
  }, 600_000);
});
