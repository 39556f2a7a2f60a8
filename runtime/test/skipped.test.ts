/**
 * Which skips of a run still stand (runtime/src/operator/skipped.ts), and
 * when a worker records its skip again: pure rules over the event log.
 */
import { describe, expect, it } from "vitest";
import { runSkippedEvent, skipToRecord, standingSkips } from "../src/operator/skipped.js";
import type { RunEvent } from "../src/model/facts.js";

const skip = (worker: string, reason: string, at: string): RunEvent => ({ run: "R", ...runSkippedEvent(worker, reason, at) });
const other = (at: string): RunEvent => ({ run: "R", at, type: "unit-succeeded", unit: "u" });

describe("standingSkips", () => {
  it.each([
    { name: "no skip", events: [other("t1")], progress: "t0", want: [] },
    { name: "a skip after the last progress stands", events: [skip("h:1", "bad", "t2")], progress: "t1", want: [["h:1", "bad"]] },
    { name: "a skip before the last progress does not", events: [skip("h:1", "bad", "t1")], progress: "t2", want: [] },
    {
      name: "the last skip of each worker",
      events: [skip("h:1", "first", "t2"), skip("g:2", "other", "t3"), skip("h:1", "second", "t4")],
      progress: "t1",
      want: [
        ["h:1", "second"],
        ["g:2", "other"],
      ],
    },
  ])("$name", ({ events, progress, want }) => {
    expect(standingSkips(events, progress).map((s) => [s.worker, s.reason])).toEqual(want);
  });
});

describe("skipToRecord", () => {
  it.each([
    { name: "never recorded", previous: undefined, reason: "bad", progress: "t0", want: true },
    { name: "same reason, no progress since", previous: { reason: "bad", at: "t2" }, reason: "bad", progress: "t1", want: false },
    { name: "another reason", previous: { reason: "bad", at: "t2" }, reason: "worse", progress: "t1", want: true },
    { name: "the run progressed since", previous: { reason: "bad", at: "t2" }, reason: "bad", progress: "t3", want: true },
  ])("$name", ({ previous, reason, progress, want }) => {
    expect(skipToRecord(previous, reason, progress)).toBe(want);
  });
});
