/**
 * What a branch reuses, as a table over plain facts: a result is reused only
 * when it is current, succeeded, has no corrupt file, was committed at or
 * before the branch point and everything it needs is reused too; what runs
 * again says why, and an effect of a unit that runs again is named as one
 * that could fire again.
 */
import { describe, expect, it } from "vitest";
import type { ArtifactManifest, EffectRecord, UnitRecord, UnitStateRow } from "../src/model/facts.js";
import { branchIdOf, planBranch, versionAtEvent, type BranchFacts } from "../src/operator/branch-plan.js";

const PLAN = [
  { id: "a", needs: [] },
  { id: "b", needs: ["a"] },
  { id: "c", needs: ["b"] },
  { id: "d", needs: [] },
];
const row = (unit: string, state: UnitStateRow["state"], currentRecord?: number): UnitStateRow => ({
  unit,
  state,
  attempts: 1,
  failures: 0,
  version: 1,
  ...(currentRecord !== undefined ? { currentRecord } : {}),
});
const rec = (id: number, unit: string, committedVersion: number): UnitRecord => ({
  id,
  run: "R",
  unit,
  attempt: 1,
  planVersion: "p@v1",
  status: "current",
  result: { value: unit },
  sources: {},
  committedVersion,
  createdAt: "t",
});
const file = (recordId: number, unit: string, status: ArtifactManifest["status"] = "committed"): ArtifactManifest => ({
  run: "R",
  unit,
  attempt: 1,
  name: `${unit}-out`,
  path: `runs/R/${unit}/a1/${unit}-out`,
  sha256: "0".repeat(64),
  size: 3,
  mediaType: "application/json",
  planVersion: "p@v1",
  verifierResults: [],
  status,
  recordId,
  createdAt: "t",
});
const effect = (unit: string, state: EffectRecord["state"]): EffectRecord =>
  ({
    id: `e-${unit}`,
    run: "R",
    unit,
    attempt: 1,
    seq: 1,
    tool: "post",
    toolClass: "irreversible",
    intent: `post(${unit})`,
    argsDigest: "x",
    state,
  }) as EffectRecord;

const ALL_DONE: BranchFacts = {
  run: "R",
  branch: "R.b1",
  plan: PLAN,
  units: [row("a", "succeeded", 1), row("b", "succeeded", 2), row("c", "succeeded", 3), row("d", "succeeded", 4)],
  records: [rec(1, "a", 1), rec(2, "b", 2), rec(3, "c", 3), rec(4, "d", 4)],
  artifacts: [file(1, "a"), file(2, "b"), file(3, "c"), file(4, "d")],
  effects: [],
};

describe("planBranch", () => {
  const cases: Array<[string, Partial<BranchFacts>, string[], Record<string, string>]> = [
    ["every succeeded unit is reused from the latest baseline", {}, ["a", "b", "c", "d"], {}],
    [
      "a unit that has not succeeded runs in the branch, and so does what needs it",
      { units: [row("a", "succeeded", 1), row("b", "failed"), row("c", "pending"), row("d", "succeeded", 4)] },
      ["a", "d"],
      { b: "not succeeded in R (failed): runs in the branch", c: "not succeeded in R (pending): runs in the branch" },
    ],
    [
      "a result committed after the branch point runs again, and what needs it too",
      { at: { event: 9, version: 2 } },
      ["a", "b"],
      {
        c: "committed at v3, after the branch point (event #9, v2): runs again",
        d: "committed at v4, after the branch point (event #9, v2): runs again",
      },
    ],
    [
      "a result with a corrupt file runs again; a later unit that needs it is not reused though its own record is fine",
      { artifacts: [file(1, "a", "corrupt"), file(2, "b"), file(3, "c"), file(4, "d")] },
      ["d"],
      {
        a: "a file of its result is corrupt in R: runs again",
        b: "needs a, which the branch runs again",
        c: "needs b, which the branch runs again",
      },
    ],
  ];
  it.each(cases)("%s", (_name, over, reuse, why) => {
    const made = planBranch({ ...ALL_DONE, ...over });
    expect(made.preview.reuse).toEqual(reuse);
    expect(Object.fromEntries(made.preview.invalidate.map((i) => [i.unit, i.why]))).toEqual(why);
    expect(made.copies.map((c) => c.unit)).toEqual(reuse);
  });

  it("copies a reused result with its files, which keep their paths and hashes under the new run", () => {
    const [a] = planBranch(ALL_DONE).copies;
    const { status: _status, recordId: _record, ...manifest } = file(1, "a");
    expect(a).toEqual({
      kind: "complete",
      unit: "a",
      attempt: 1,
      result: { value: "a" },
      sources: {},
      artifacts: [{ ...manifest, run: "R.b1" }],
    });
  });

  it("names the effects of units that run again as ones that could fire again, and leaves the ledger with the original", () => {
    const made = planBranch({
      ...ALL_DONE,
      units: [row("a", "succeeded", 1), row("b", "pending"), row("c", "pending"), row("d", "succeeded", 4)],
      effects: [effect("a", "COMMITTED"), effect("b", "UNKNOWN"), effect("c", "PREPARED")],
    });
    expect(made.preview.notes.filter((n) => n.startsWith("could fire again"))).toEqual([
      "could fire again in R.b1: effect e-b of b (post(b), UNKNOWN in R); the branch has its own ledger and does not know it was sent",
    ]);
    expect(made.preview.notes).toContain("the 3 effect(s) of R stay in its ledger: any compensation owed is owed there");
  });
});

describe("branch numbers and branch points", () => {
  it.each([
    [[], "R.b1"],
    [["R", "R.b1", "R.b2", "Rx.b9", "R.b1.b1"], "R.b3"],
  ])("the next branch of R among %j is %s", (existing, id) => expect(branchIdOf("R", existing)).toBe(id));

  const log = [
    { seq: 1, type: "run-created" },
    { seq: 2, type: "checkpoint-committed", data: { version: 1 } },
    { seq: 3, type: "lease-taken" },
    { seq: 4, type: "checkpoint-committed", data: { version: 2 } },
  ];
  it.each([
    [1, 0],
    [2, 1],
    [3, 1],
    [4, 2],
    [5, undefined],
  ])("event #%d is at checkpoint v%s", (seq, version) => expect(versionAtEvent(log, seq)).toBe(version));
});
