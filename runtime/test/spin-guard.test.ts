/**
 * No unit is claimed again and again without progress (scheduler/spin-guard.ts):
 * what counts as progress (the mark), when the guard stops a unit, and which
 * ends of an attempt start the count afresh.
 */
import { describe, expect, it } from "vitest";
import { forget, noteClaim, progressMark, restartsCount, SPIN_LIMIT, type SpinState } from "../src/scheduler/spin-guard.js";
import type { Approval, EffectRecord, UnitStateRow } from "../src/model/facts.js";

const unitRow = (extra: Partial<UnitStateRow> = {}): UnitStateRow =>
  ({ run: "R", unit: "gate", state: "pending", attempts: 1, failures: 0, version: 3, ...extra }) as UnitStateRow;
const effect = (extra: Partial<EffectRecord> = {}): EffectRecord =>
  ({
    id: "R/gate/a1/1",
    run: "R",
    unit: "gate",
    tool: "send",
    state: "PREPARED",
    held: { changed: [] },
    ...extra,
  }) as unknown as EffectRecord;
const approval = (extra: Partial<Approval> = {}): Approval => ({ id: "ap_1", run: "R", unit: "gate", ...extra }) as Approval;
const facts = (units: UnitStateRow[] = [unitRow()], openEffects: EffectRecord[] = [], approvals: Approval[] = []) => ({
  units,
  openEffects,
  approvals,
});

describe("progressMark: what a claim could change", () => {
  const base = progressMark("gate", facts([unitRow()], [effect()], [approval()]));
  const cases: Array<[string, ReturnType<typeof facts>, boolean]> = [
    ["the same facts", facts([unitRow()], [effect()], [approval()]), true],
    ["another attempt number only (a claim is no progress)", facts([unitRow({ attempts: 9 })], [effect()], [approval()]), true],
    ["another unit's row changed", facts([unitRow(), unitRow({ unit: "other", failures: 4 })], [effect()], [approval()]), true],
    ["a counted failure", facts([unitRow({ failures: 1 })], [effect()], [approval()]), false],
    ["a commit changed the row", facts([unitRow({ version: 4 })], [effect()], [approval()]), false],
    ["a new prepared request", facts([unitRow()], [effect(), effect({ id: "R/gate/a2/1" })], [approval()]), false],
    ["an effect changed state", facts([unitRow()], [effect({ state: "STARTED" })], [approval()]), false],
    [
      "a held request now says what changed",
      facts([unitRow()], [effect({ held: { changed: ["x"] } } as Partial<EffectRecord>)], [approval()]),
      false,
    ],
    ["a new approval", facts([unitRow()], [effect()], [approval(), approval({ id: "ap_2" })]), false],
    ["an approval revoked", facts([unitRow()], [effect()], [approval({ revokedAt: "t" })]), false],
  ];
  it.each(cases)("%s: same mark %s", (_name, f, same) => {
    expect(progressMark("gate", f) === base).toBe(same);
  });
});

describe("noteClaim: stops a unit after SPIN_LIMIT claims in a row without progress", () => {
  /** Claims with these marks, in order: what the guard says to each. */
  const walk = (marks: string[], limit = 3) => {
    let state: SpinState = {};
    return marks.map((m) => {
      const v = noteClaim(state, "gate", m, limit);
      state = v.state;
      return v.kind;
    });
  };
  const cases: Array<[string, string[], string[]]> = [
    ["up to the limit with one mark: claimed", ["m", "m", "m"], ["claim", "claim", "claim"]],
    ["one more with the same mark: stopped", ["m", "m", "m", "m"], ["claim", "claim", "claim", "stop"]],
    ["progress between claims starts the count afresh", ["m", "m", "n", "n", "n"], ["claim", "claim", "claim", "claim", "claim"]],
    ["stopped stays stopped while nothing changes", ["m", "m", "m", "m", "m"], ["claim", "claim", "claim", "stop", "stop"]],
    ["a change after the stop: claimed again", ["m", "m", "m", "m", "n"], ["claim", "claim", "claim", "stop", "claim"]],
  ];
  it.each(cases)("%s", (_name, marks, want) => {
    expect(walk(marks)).toEqual(want);
  });

  it("counts each unit on its own and says why it stopped", () => {
    let state: SpinState = {};
    for (let i = 0; i < SPIN_LIMIT; i++) state = noteClaim(state, "gate", "m").state;
    expect(noteClaim(state, "other", "m").kind).toBe("claim");
    const v = noteClaim(state, "gate", "m");
    expect(v.kind).toBe("stop");
    if (v.kind === "stop") expect(v.detail).toMatch(/unit gate was claimed 5 times in a row without progress/);
  });
});

describe("restartsCount: ends that are not the unit's doing", () => {
  const cases: Array<[string, boolean]> = [
    ["store-lost", true],
    ["lease-lost", true],
    ["plan-changed", true],
    ["approval", false],
    ["unknown-effect", false],
    ["budget", false],
    ["failed", false],
    ["succeeded", false],
  ];
  it.each(cases)("%s: %s", (kind, want) => expect(restartsCount(kind)).toBe(want));

  it("forget starts one unit's count afresh", () => {
    const state: SpinState = { gate: { mark: "m", claims: 4 }, other: { mark: "n", claims: 2 } };
    expect(forget(state, "gate")).toEqual({ other: { mark: "n", claims: 2 } });
    expect(forget(state, "none")).toBe(state);
  });
});
