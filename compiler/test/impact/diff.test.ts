/** Contract diffs: definition hashes in, changes and a must-re-run / stays-valid split out. */
import { describe, expect, it } from "vitest";
import { diffPlans, formatEditImpact, formatImpact, impact, impactOfEdit } from "../../src/impact/index.js";
import { buildPlan, type PlanSketch } from "./plan-builder.js";

const before: PlanSketch = {
  inputs: { audience: {}, sources: {} },
  units: {
    E01: { phase: "extract", needs: { sources: "content" } },
    S04: { phase: "synthesize", needs: { E01: "content" } },
    A01: { phase: "assemble", needs: { S04: ["content", "structure"] } },
    A03: { phase: "assemble", needs: { S04: "content" } },
    U27: { phase: "frame", needs: { audience: "audience" } },
    F01: { phase: "audit", needs: { A01: "content", A03: "content" } },
    X09: { phase: "audit" },
  },
};

describe("diffPlans", () => {
  it("finds nothing when every definition hash is the same", () => {
    const edit = impactOfEdit(buildPlan(before), buildPlan(before));
    expect(edit.diff).toEqual({
      changes: [],
      units: { added: [], removed: [], changed: [] },
      inputs: { added: [], removed: [], changed: [] },
      keys: {},
    });
    expect(edit.mustRerun).toEqual([]);
    expect(edit.staysValid).toEqual(["E01", "U27", "X09", "S04", "A01", "A03", "F01"]);
  });

  it("turns changed units and inputs into `all` changes and added units into new work", () => {
    const { X09: _removed, ...units } = before.units;
    const after: PlanSketch = {
      inputs: { ...before.inputs, audience: { hash: "investment-committee" } },
      units: {
        ...units,
        A01: { ...units.A01, hash: "edited" },
        N01: { phase: "assemble", needs: { S04: "content" } },
        N02: { phase: "audit", needs: { N01: "content" } },
      },
    };
    const diff = diffPlans(buildPlan(before), buildPlan(after));
    expect(diff).toEqual({
      changes: [
        { origin: "audience", kinds: "all" },
        { origin: "A01", kinds: "all" },
        { origin: "N01", kinds: "all" },
        { origin: "N02", kinds: "all" },
      ],
      units: { added: ["N01", "N02"], removed: ["X09"], changed: ["A01"] },
      inputs: { added: [], removed: [], changed: ["audience"] },
      // a sketch's edit changes only the hash, so no key the plan shows: named "definition"
      keys: { A01: { behaviour: ["definition"], policy: [] } },
    });
    const edit = impactOfEdit(buildPlan(before), buildPlan(after));
    expect(edit.mustRerun).toEqual(["U27", "A01", "N01", "F01", "N02"]);
    expect(edit.staysValid).toEqual(["E01", "S04", "A03"]);
    expect(formatEditImpact(buildPlan(after), edit)).toBe(
      [
        "changed units: A01",
        "added units: N01, N02",
        "removed units: X09",
        "changed inputs: audience",
        "",
        "must re-run (5):",
        "",
        "frame",
        "  U27  audience --audience--> U27",
        "",
        "assemble",
        "  A01  changed: definition",
        "  N01  added",
        "",
        "audit",
        "  F01  A01 --content--> F01",
        "  N02  added; N01 --content--> N02",
        "",
        "stays valid (3): E01 S04 A03",
        "",
        "5 of 8 units must re-run; 3 stay valid; 1 removed",
        "",
      ].join("\n"),
    );
  });
});

describe("formatImpact", () => {
  it("prints one line per invalidated unit with its path, by phase, and a summary", () => {
    const plan = buildPlan(before);
    expect(
      formatImpact(
        plan,
        impact(plan, [
          { origin: "S04", kinds: ["structure"] },
          { origin: "audience", kinds: "all" },
        ]),
      ),
    ).toBe(
      [
        "change S04:structure + audience (all kinds)",
        "",
        "frame",
        "  U27  audience --audience--> U27",
        "",
        "assemble",
        "  A01  S04 --structure--> A01",
        "",
        "audit",
        "  F01  S04 --structure--> A01 --content--> F01",
        "",
        "3 of 7 units invalidated; 3 kept; 1 changed at the origin (S04)",
        "",
      ].join("\n"),
    );
  });

  it('gives units without a phase ("" in the plan) no header line', () => {
    const plan = buildPlan({
      inputs: { readers: {} },
      units: { write: { phase: "", needs: { readers: "audience" } }, publish: { phase: "", needs: { write: "content" } } },
    });
    expect(formatImpact(plan, impact(plan, [{ origin: "readers", kinds: "all" }]))).toBe(
      [
        "change readers (all kinds)",
        "",
        "  write    readers --audience--> write",
        "  publish  readers --audience--> write --content--> publish",
        "",
        "2 of 2 units invalidated; 0 kept",
        "",
      ].join("\n"),
    );
  });
});
