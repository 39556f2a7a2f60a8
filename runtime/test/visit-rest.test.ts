import { describe, expect, it } from "vitest";
import { mayVisit, restAfterVisit, runMark, type RestInput, type VisitRest } from "../src/scheduler/visit-rest.js";

const base = { version: 3, status: "active", planVersion: "p1", changeSeq: 7, lastEventSeq: 40 };
const M = runMark(base);
const input = (over: Partial<RestInput>): RestInput => ({
  end: "blocked",
  sliced: false,
  before: M,
  after: M,
  nowMs: 1_000,
  pollMs: 100,
  recheckMs: 60_000,
  ...over,
});

describe("the mark of a run's state", () => {
  it.each<[string, Partial<typeof base> & { hold?: unknown }]>([
    ["a checkpoint", { version: 4 }],
    ["a unit row changed", { changeSeq: 8 }],
    ["an event (an approval, a resolved effect, a flag)", { lastEventSeq: 41 }],
    ["a run-wide hold", { hold: { reason: "budget" } }],
    ["another plan", { planVersion: "p2" }],
    ["cancelled", { status: "cancelled" }],
  ])("changes with %s", (_, over) => {
    expect(runMark({ ...base, ...over })).not.toBe(M);
  });
  it("is the same for the same state", () => expect(runMark({ ...base })).toBe(M));
});

describe("the rest after a visit", () => {
  it.each<[string, Partial<RestInput>, VisitRest | undefined]>([
    ["blocked, nothing written during the visit: rests on its mark up to the recheck", {}, { untilMs: 61_000, mark: M }],
    [
      "blocked, the visit (or a person) wrote: one poll, then once more",
      { after: runMark({ ...base, lastEventSeq: 42 }) },
      { untilMs: 1_100 },
    ],
    ["blocked, no longer listed (held, ended): one poll", { after: undefined }, { untilMs: 1_100 }],
    ["skipped (cannot load here): one poll, the fix may be on disk", { end: "skipped" }, { untilMs: 1_100 }],
    ["ended by its slice: no rest, it comes back in turn", { end: "active", sliced: true }, undefined],
    ["ended active without a slice (stopping): one poll", { end: "active" }, { untilMs: 1_100 }],
    ["done: one poll", { end: "done" }, { untilMs: 1_100 }],
  ])("%s", (_, over, want) => {
    expect(restAfterVisit(input(over))).toEqual(want);
  });
});

describe("whether a resting run may be visited", () => {
  const settled: VisitRest = { untilMs: 61_000, mark: M };
  it.each<[string, VisitRest | undefined, string, number, boolean]>([
    ["no rest", undefined, M, 0, true],
    ["settled, same mark, before the recheck: no", settled, M, 30_000, false],
    ["settled, the mark changed (a person decided): yes, at once", settled, runMark({ ...base, lastEventSeq: 41 }), 30_000, true],
    ["settled, same mark, the recheck is due: yes", settled, M, 61_000, true],
    ["one poll's rest, not over: no, whatever the mark", { untilMs: 1_100 }, "other", 1_050, false],
    ["one poll's rest, over: yes", { untilMs: 1_100 }, M, 1_100, true],
  ])("%s", (_, rest, mark, now, want) => {
    expect(mayVisit(rest, mark, now)).toBe(want);
  });
});
