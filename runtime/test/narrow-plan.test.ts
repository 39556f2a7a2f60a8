/**
 * What narrowing keeps, drops and gives up, as a table over plain facts:
 * the named units and outputs are kept with everything they need; the rest
 * that has not succeeded is dropped; outputs only dropped units produce are
 * given up, with their verifiers and then task.done; bad names and a narrow
 * that drops nothing are refused.
 */
import { describe, expect, it } from "vitest";
import type { UnitStateRow } from "../src/model/facts.js";
import { planNarrow, type NarrowFacts } from "../src/operator/narrow-plan.js";

const row = (unit: string, state: UnitStateRow["state"], out = false): UnitStateRow => ({
  unit,
  state,
  attempts: 0,
  failures: 0,
  version: 1,
  ...(out ? { hold: { reason: "out-of-scope" as const, detail: "d", at: "t" } } : {}),
});
// a -> b -> report, and a -> appendix
const FACTS: NarrowFacts = {
  run: "R",
  to: ["report"],
  plan: {
    units: [
      { id: "a", needs: [], produces: ["a-out"], verify: ["has_value"] },
      { id: "b", needs: ["a"], produces: ["b-out"], verify: [] },
      { id: "report", needs: ["b"], produces: ["report.md"], verify: ["cites"] },
      { id: "appendix", needs: ["a"], produces: ["appendix.md"], verify: ["tables"] },
    ],
    outputs: ["report.md", "appendix.md"],
    done: ["pack_complete"],
  },
  units: [row("a", "succeeded"), row("b", "pending"), row("report", "pending"), row("appendix", "pending")],
  effects: [],
  leases: [],
};

describe("planNarrow", () => {
  it("keeps a unit and what it needs, drops the rest, and gives up the outputs, verifiers and task.done that go with them", () => {
    const made = planNarrow(FACTS);
    expect(made.drop).toEqual(["appendix"]);
    expect(made.preview.invalidate).toEqual([{ unit: "appendix", why: "dropped from the goal: report does not need it" }]);
    expect(made.preview.notes.slice(0, 3)).toEqual([
      "keeps a b report (what report needs)",
      "gives up the outputs appendix.md",
      "gives up the verifiers appendix: tables; task.done: pack_complete",
    ]);
  });

  it("takes an output name for the unit that produces it", () => {
    expect(planNarrow({ ...FACTS, to: ["appendix.md"] }).drop).toEqual(["b", "report"]);
  });

  it("keeps a succeeded result outside the scope as it is, and gives up no output it produced", () => {
    const made = planNarrow({ ...FACTS, to: ["b"], units: [...FACTS.units.slice(0, 3), row("appendix", "succeeded")] });
    expect(made.drop).toEqual(["report"]);
    expect(made.preview.notes[1]).toBe("gives up the outputs report.md");
    expect(made.preview.reuse).toEqual(["a", "appendix"]);
  });

  it("names a committed effect of a dropped unit as one it does not undo", () => {
    const effect = { id: "e1", unit: "appendix", intent: "post(x)", state: "COMMITTED" } as NarrowFacts["effects"][number];
    expect(planNarrow({ ...FACTS, effects: [effect] }).preview.notes).toContain(
      "effect e1 of appendix (post(x)) stays committed: narrowing undoes nothing (`taskspec cancel` compensates)",
    );
  });

  it.each([
    ["a name that is neither a unit nor an output", { to: ["nope"] }, /"nope" is neither a unit nor an output/],
    ["nothing to drop", { to: ["report", "appendix"] }, /drops nothing/],
    [
      "keeping a unit an earlier narrow dropped",
      { to: ["report"], units: [row("a", "succeeded"), row("b", "pending", true), row("report", "pending"), row("appendix", "pending")] },
      /needs b, which an earlier narrow dropped; `taskspec rerun R b` brings it back/,
    ],
  ] as const)("refuses %s", (_name, over, message) => {
    expect(() => planNarrow({ ...FACTS, ...over })).toThrow(message);
  });
});
