/**
 * The drill's artifact comparison (drill/artifacts.ts, verdict.ts): a case's
 * final artifacts, per unit, from the current records' committed manifests,
 * compared with the uninterrupted run's; a difference fails the case, naming
 * the unit and artifact; units a person's record reached are left out.
 */
import { describe, expect, it } from "vitest";
import { artifactDifferences, finalArtifacts, personSettledUnits } from "../src/drill/artifacts.js";
import type { CaseObservation, DrillCase } from "../src/drill/types.js";
import { judge } from "../src/drill/verdict.js";

const A = "a".repeat(64);
const B = "b".repeat(64);

describe("final artifacts of a run", () => {
  it("only the committed artifacts of current records, by unit and name", () => {
    const records = [
      { id: 1, unit: "open", status: "superseded" as const },
      { id: 2, unit: "open", status: "current" as const },
      { id: 3, unit: "check", status: "current" as const },
    ];
    const artifacts = [
      { unit: "open", name: "pr", sha256: B, status: "committed" as const, recordId: 1 },
      { unit: "open", name: "pr", sha256: A, status: "committed" as const, recordId: 2 },
      { unit: "check", name: "checked", sha256: A, status: "committed" as const, recordId: 3 },
      { unit: "check", name: "draft", sha256: B, status: "staged" as const, recordId: 3 },
      { unit: "check", name: "orphan", sha256: B, status: "committed" as const },
    ];
    expect(finalArtifacts(records, artifacts as never)).toEqual({ open: { pr: A }, check: { checked: A } });
  });

  it.each<[string, Record<string, Record<string, string>>, Record<string, Record<string, string>>, string[], string[]]>([
    ["the same", { u: { x: A } }, { u: { x: A } }, [], []],
    ["other bytes", { u: { x: A } }, { u: { x: B } }, [], [`u/x sha256 ${B.slice(0, 12)}, the uninterrupted run's ${A.slice(0, 12)}`]],
    ["missing", { u: { x: A } }, {}, [], [`u/x missing (the uninterrupted run has sha256 ${A.slice(0, 12)})`]],
    ["one more", {}, { v: { y: B } }, [], [`v/y sha256 ${B.slice(0, 12)} is not in the uninterrupted run`]],
    ["a unit left out", { u: { x: A } }, { u: { x: B } }, ["u"], []],
  ])("%s", (_name, expected, found, skip, diffs) => {
    expect(artifactDifferences(expected, found, skip)).toEqual(diffs);
  });

  it("units a person's record reached, and the units downstream of them", () => {
    const plan = {
      units: [
        { id: "book", needs: [] },
        { id: "confirm", needs: [{ node: "book", nodeType: "unit" as const, kinds: [] }] },
        { id: "notify", needs: [{ node: "confirm", nodeType: "unit" as const, kinds: [] }] },
        { id: "other", needs: [{ node: "book", nodeType: "input" as const, kinds: [] }] },
      ],
    };
    const effects = [
      { unit: "book", state: "COMMITTED" as const, receipt: { id: "b1" } },
      { unit: "confirm", state: "COMMITTED" as const, receipt: { confirmed_by_person: "drill" } },
    ];
    expect(personSettledUnits(plan as never, effects)).toEqual(["confirm", "notify"]);
    expect(personSettledUnits(plan as never, effects.slice(0, 1))).toEqual([]);
  });
});

describe("the verdict", () => {
  const c: DrillCase = {
    id: "x",
    contract: "c",
    scenario: "complete",
    crashes: [],
    siteClass: "none",
    expectedReruns: [],
    description: "",
  };
  const o: CaseObservation = {
    steps: [],
    fired: [],
    finalStatus: "done",
    invocations: {},
    reruns: [],
    rerunCommitted: [],
    duplicateEffects: 0,
    duplicates: [],
    worldMatches: true,
    artifactsMatch: true,
    artifactDiffs: [],
    fencingRefused: 0,
    orphansReported: 0,
    orphansAdopted: [],
    unexplained: [],
  };
  it("fails a case whose artifacts differ, naming them", () => {
    expect(judge(c, o, "done")).toEqual({ verdict: "PASS", reasons: [] });
    expect(judge(c, { ...o, artifactsMatch: false, artifactDiffs: ["u/x sha256 1, the uninterrupted run's 2"] }, "done")).toEqual({
      verdict: "FAIL",
      reasons: ["final artifacts differ from an uninterrupted run: u/x sha256 1, the uninterrupted run's 2"],
    });
  });
});
