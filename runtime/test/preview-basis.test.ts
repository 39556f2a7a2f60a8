/**
 * A decision is checked against the preview a person confirmed: the same
 * preview at the same checkpoint passes; any change of what it shows, or of
 * the checkpoint, is refused with the changes listed and the fresh preview.
 */
import { describe, expect, it } from "vitest";
import { StalePreviewError } from "../src/errors.js";
import { basisOf, basisVersion, checkBasis, previewChanges } from "../src/operator/basis.js";
import type { Preview } from "../src/operator/preview.js";

const seen: Preview = {
  action: "rerun b",
  reuse: ["a"],
  invalidate: [{ unit: "b", why: "b (operator re-run)" }],
  notes: ["no attempt is in flight"],
};

describe("preview basis", () => {
  it("is v<checkpoint>-<16 hex> and names its checkpoint", () => {
    const b = basisOf(seen, 7);
    expect(b).toMatch(/^v7-[0-9a-f]{16}$/);
    expect(basisVersion(b)).toBe(7);
    expect(basisVersion("v7")).toBeUndefined();
  });

  it("passes the same preview at the same checkpoint, and a decision made without one", () => {
    expect(() => checkBasis("rerun R b", { basis: basisOf(seen, 7), seen }, { ...seen }, 7)).not.toThrow();
    expect(() => checkBasis("rerun R b", undefined, seen, 9)).not.toThrow();
  });

  const cases: Array<[string, Preview, number, string[]]> = [
    ["a commit moved the checkpoint only", seen, 8, ["checkpoint v7 -> v8"]],
    [
      "another unit is reused and one more invalidated",
      { ...seen, reuse: ["a", "x"], invalidate: [...seen.invalidate, { unit: "c", why: "b --content--> c" }] },
      7,
      ["reuses now also x", "invalidates now also c"],
    ],
    [
      "a note changed",
      { ...seen, notes: ["attempts in flight finish and commit: b (w1, attempt 2)"] },
      7,
      ["now: attempts in flight finish and commit: b (w1, attempt 2)", "no longer: no attempt is in flight"],
    ],
    [
      "a unit is invalidated for another reason",
      { ...seen, invalidate: [{ unit: "b", why: "reset: attempts and failures cleared" }] },
      7,
      ["b: b (operator re-run) -> reset: attempts and failures cleared"],
    ],
    [
      "an effect would now be undone",
      { ...seen, undo: [{ effect: "R/b/a1/1", intent: "post", compensator: "unpost" }] },
      7,
      ["undoes now also R/b/a1/1"],
    ],
  ];
  for (const [name, fresh, version, changed] of cases) {
    it(`refuses when ${name}, listing what changed`, () => {
      let err: unknown;
      try {
        checkBasis("rerun R b", { basis: basisOf(seen, 7), seen }, fresh, version);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StalePreviewError);
      const stale = err as StalePreviewError;
      expect(stale.changed.filter((c) => !c.startsWith("checkpoint"))).toEqual(changed.filter((c) => !c.startsWith("checkpoint")));
      if (version !== 7) expect(stale.changed[0]).toBe("checkpoint v7 -> v8");
      expect(stale.fresh).toBe(fresh);
      expect(stale.message).toMatch(/^rerun R b refused: the run changed since its preview \(v7-[0-9a-f]{16}, now v\d+-[0-9a-f]{16}\): /);
      expect(stale.message).toMatch(/nothing was changed/);
    });
  }

  it("without the preview seen, the basis alone still refuses and says the run changed", () => {
    expect(() => checkBasis("flag R", { basis: basisOf(seen, 7) }, { ...seen, reuse: [] }, 7)).toThrow(
      /the run changed in what this decision would do/,
    );
    expect(() => checkBasis("flag R", { basis: "yesterday" }, seen, 7)).toThrow(/"yesterday" is not a preview basis/);
  });

  it("previewChanges is empty for equal previews", () => {
    expect(previewChanges(seen, structuredClone(seen))).toEqual([]);
  });
});
