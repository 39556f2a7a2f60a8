/**
 * Incremental re-parse against a fresh compile: after every edit in a random
 * sequence (typing, deleting, pasting lines, inside units and elsewhere), the
 * result of checkContract(text, { previous }) equals checkContract(text) in
 * everything an editor or the plan reads: the YAML tree with its ranges, the
 * model's spans, the diagnostics and the plan. The sequence chains each
 * result's `reusable` into the next edit, as the language server does.
 */
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkContract, type CheckResult } from "../src/index.js";
import { fcRuns } from "../../test/fc-runs.js";
import { definitionPairs, observable } from "./check-observable.js";

const REPO = join(import.meta.dirname, "..", "..");
const MARKET = readFileSync(join(REPO, "specs", "market-entry-pack.task.yaml"), "utf8");
const TRIP = readFileSync(join(REPO, "specs", "trip-booking.task.yaml"), "utf8");

/** The units map's pairs, to tell whether a result reused the previous tree. */
const unitPairs = (result: CheckResult) => definitionPairs(result, "units");

const SNIPPETS = [
  "",
  "x",
  "3",
  " ",
  ":",
  "\n",
  "\n    ",
  "- ",
  "#",
  "content",
  "audience",
  ", S01",
  "{ }",
  "[a]",
  '"',
  "'",
  "  timeout: 5m\n",
  "    phase: draft\n",
  "  NEW:\n    phase: x\n",
];

describe("incremental re-parse", () => {
  for (const [name, base] of [
    ["market-entry-pack", MARKET],
    ["trip-booking", TRIP],
  ] as const) {
    it(`equals a fresh check after every edit of a random sequence (${name}), and is taken for edits inside a unit`, () => {
      let reused = 0;
      let edits = 0;
      const unitsStart = base.indexOf("\nunits:");
      fc.assert(
        fc.property(
          fc.array(
            fc.record({
              // mostly inside the units section, where an editor's keystrokes go
              at: fc.oneof(
                { weight: 4, arbitrary: fc.integer({ min: unitsStart, max: base.length }) },
                { weight: 1, arbitrary: fc.nat(base.length) },
              ),
              remove: fc.oneof(
                { weight: 3, arbitrary: fc.constant(0) },
                { weight: 2, arbitrary: fc.nat(4) },
                { weight: 1, arbitrary: fc.nat(80) },
              ),
              insert: fc.constantFrom(...SNIPPETS),
            }),
            { minLength: 1, maxLength: 6 },
          ),
          (steps) => {
            let text = base;
            let previous = checkContract(text);
            for (const { at, remove, insert } of steps) {
              const i = Math.min(at, text.length);
              text = text.slice(0, i) + insert + text.slice(i + remove);
              const before = unitPairs(previous);
              const incremental = checkContract(text, previous.parsed.reusable ? { previous: previous.parsed.reusable } : {});
              const fresh = checkContract(text);
              expect(observable(incremental)).toEqual(observable(fresh));
              edits++;
              if ([...unitPairs(incremental)].some((p) => before.has(p))) reused++;
              previous = incremental;
            }
          },
        ),
        fcRuns(name === "market-entry-pack" ? 80 : 150),
      );
      // random edits often break the YAML (then the next edit starts afresh) or
      // land outside a unit; the rest must take the incremental path
      expect(reused).toBeGreaterThan(edits / 20);
    });
  }

  it("a one-character edit in the middle of a unit keeps every other unit's nodes", () => {
    const first = checkContract(MARKET);
    const at = MARKET.indexOf("model_calls: ", MARKET.indexOf("  S02:")) + "model_calls: ".length;
    const text = MARKET.slice(0, at) + "9" + MARKET.slice(at);
    const before = unitPairs(first);
    const next = checkContract(text, { previous: first.parsed.reusable! });
    const after = [...unitPairs(next)];
    expect(after.filter((p) => before.has(p))).toHaveLength(after.length - 1);
    expect(observable(next)).toEqual(observable(checkContract(text)));
  });
});
