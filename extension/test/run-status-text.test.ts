/** The run status bar entry's text, from `taskspec status --format json`. */
import { describe, expect, it } from "vitest";
import { runStatusText, type RunStatusReport } from "../src/run-status-text.js";

const report = (over: Partial<RunStatusReport["counts"]>, extra: Partial<RunStatusReport> = {}): RunStatusReport => ({
  run: "ME-042",
  status: "running",
  counts: { units: 36, current: 12, running: 0, blocked: 0, failed: 0, waitingRerun: 0, ...over },
  nextSafeAction: "taskspec resume ME-042",
  ...extra,
});

describe("run status text", () => {
  it.each([
    [{}, "$(pulse) ME-042: running · 12/36 current"],
    [{ running: 2, blocked: 1 }, "$(pulse) ME-042: running · 12/36 current · 2 running · 1 blocked"],
    [{ failed: 1, waitingRerun: 4 }, "$(pulse) ME-042: running · 12/36 current · 1 failed · 4 to re-run"],
  ])("counts %j read as %s", (counts, text) => {
    expect(runStatusText(report(counts)).text).toBe(text);
  });

  it("names pending approvals and the next safe action in the tooltip", () => {
    const { tooltip } = runStatusText(report({}, { status: "blocked", approvals: { pending: [{ unit: "publish" }] } }));
    expect(tooltip.split("\n")).toEqual([
      "Run ME-042: blocked",
      "Waiting for approval: publish",
      "Next safe action: taskspec resume ME-042",
    ]);
  });
});
