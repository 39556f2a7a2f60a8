/**
 * The fault-drill suite: every applicable crash point of the three
 * example contracts, crossed with each tool class it applies to, plus the
 * concurrency and staleness cases — all with real processes and the local
 * services — and docs/reliability.md generated from the run.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CRASH_POINTS, drill } from "@taskspec/runtime";
import { EXTRA_CASES } from "./extra/index.js";
import { reliabilityDoc } from "./reliability-doc.js";
import { readRepeatReport, repeatCases } from "./repeat-doc.js";
import { writeDocIfChanged } from "../generated-docs.js";
import { EXAMPLES, exampleContext, ROOT } from "./support.js";

let matrix: drill.CaseResult[] = [];
let extra: drill.CaseResult[] = [];
let baselines: Awaited<ReturnType<typeof exampleContext>>["baselines"];

beforeAll(async () => {
  const t0 = Date.now();
  const parallel = Math.max(2, availableParallelism());
  const x = await exampleContext(parallel);
  const { setups } = x;
  baselines = x.baselines;
  const cases = EXAMPLES.flatMap((n) => drill.enumerateCases(setups[n].plan!, n).map((c) => ({ n, c })));
  // One pool for everything: the slow market-entry cases interleave with the short ones.
  const jobs: Array<() => Promise<drill.CaseResult>> = [
    ...cases.map(
      ({ n, c }) =>
        () =>
          drill.runCase(setups[n], c, baselines[n][c.scenario]!),
    ),
    ...EXTRA_CASES.map((e) => () => e(x)),
  ];
  const results = await drill.pool(jobs, parallel, (job) => job());
  matrix = results.slice(0, cases.length);
  extra = results.slice(cases.length);
  const repeat = readRepeatReport(join(ROOT, "test/drills/repeat-report.json"));
  writeDocIfChanged(join(ROOT, "docs/reliability.md"), reliabilityDoc(matrix, extra, (Date.now() - t0) / 1000, repeat), /^Run took /);
}, 30 * 60_000);

describe("fault drills (docs/reliability.md)", () => {
  it("the matrix covers every crash point on the three example contracts, at least 48 cases", () => {
    expect(matrix.length).toBeGreaterThanOrEqual(48);
    expect(new Set(matrix.map((r) => r.case.contract))).toEqual(new Set(EXAMPLES));
    expect(new Set(matrix.flatMap((r) => r.case.crashes.map((c) => c.point)))).toEqual(new Set(CRASH_POINTS));
  });

  it("no case duplicated an effect at a remote", () => {
    expect(
      matrix
        .concat(extra)
        .filter((r) => r.observation.duplicateEffects > 0)
        .map((r) => `${r.case.id}: ${r.observation.duplicates.join(", ")}`),
    ).toEqual([]);
  });

  it("no case re-ran a unit outside its minimum re-run set", () => {
    expect(
      matrix
        .concat(extra)
        .flatMap((r) => r.observation.reruns.filter((u) => !r.case.expectedReruns.includes(u)).map((u) => `${r.case.id}: ${u}`)),
    ).toEqual([]);
  });

  it("no case ended with other artifacts than the uninterrupted run (name and sha256 per unit)", () => {
    // the comparison is made: every baseline produced artifacts, and only units a person's record reached are left out
    for (const n of EXAMPLES) expect(Object.keys(baselines[n].complete.artifacts).length, n).toBeGreaterThan(0);
    expect(
      matrix
        .concat(extra)
        .filter((r) => !r.observation.artifactsMatch)
        .map((r) => `${r.case.id}: ${r.observation.artifactDiffs.join("; ")}`),
    ).toEqual([]);
    // left out only where the drill gave a person's record for a lost receipt, or the case changes a source on purpose
    expect(
      matrix
        .concat(extra)
        .filter((r) => r.observation.artifactsNotCompared !== undefined)
        .filter((r) => !r.observation.steps.some((s) => s.action === "resolve"))
        .map((r) => `${r.case.id}: ${r.observation.artifactsNotCompared!.join(", ")}`),
    ).toEqual(["publish-post/stale-approval/artifact-hash: every unit: a source page was changed and research re-run on purpose"]);
  });

  it("every matrix case passes (world, artifacts, effects, re-runs, orphans, event log)", () => {
    expect(drill.failureNotes(matrix)).toEqual([]);
  });

  it("docs/reliability.md's recorded pass^3 (scripts/drill-repeat.sh) covers every case, matrix and extra, and each passed all seeds", () => {
    const recorded = repeatCases(readRepeatReport(join(ROOT, "test/drills/repeat-report.json")));
    expect(recorded.map((c) => c.id).sort()).toEqual(
      matrix
        .concat(extra)
        .map((r) => r.case.id)
        .sort(),
    );
    expect(recorded.filter((c) => c.k < 3 || c.passed !== c.k).map((c) => c.id)).toEqual([]);
  });

  it("every concurrency and staleness case passes", () => {
    expect(drill.failureNotes(extra)).toEqual([]);
  });
});
