/**
 * pass^K of the drill suite without running it: docs/reliability.md's pass^K
 * section is exactly the one rendered from test/drills/repeat-report.json
 * (TASKSPEC_UPDATE_DOCS=1 rewrites it, as scripts/drill-repeat.sh does after
 * each group), the report has a group for every example contract and for the
 * extra cases, the matrix groups hold exactly the cases `taskspec drill`
 * enumerates, and the extra cases' repeat mechanism (seeds 1..K, a seeded
 * pause before each process start, PASS only if all pass) in-process.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { drill } from "@taskspec/runtime";
import { nextStartPauseMs, repeatExtra, repeatSetting, seededSandbox, seedOf, type ExtraContext } from "./drills/extra/context.js";
import { EXTRA_CASES } from "./drills/extra/index.js";
import { REPEAT_GROUPS, readRepeatReport, repeatCases, repeatSection, spliceRepeatSection } from "./drills/repeat-doc.js";
import { compileText, contractOf, EXAMPLES, ROOT } from "./drills/support.js";

const DOC = join(ROOT, "docs/reliability.md");
const report = readRepeatReport(join(ROOT, "test/drills/repeat-report.json"));

describe("docs/reliability.md and test/drills/repeat-report.json", () => {
  it("the doc's pass^K section is the one rendered from the report", () => {
    const doc = readFileSync(DOC, "utf8");
    const rendered = spliceRepeatSection(doc, repeatSection(report));
    if (process.env["TASKSPEC_UPDATE_DOCS"] === "1" && rendered !== doc) writeFileSync(DOC, rendered);
    else expect(doc).toBe(rendered);
  });

  it("the report has one group per example contract and one for the extra cases, every case at K >= 3", () => {
    expect(report.groups.map((g) => g.name)).toEqual([...REPEAT_GROUPS]);
    expect(repeatCases(report).filter((c) => c.k < 3)).toEqual([]);
    const extra = report.groups.find((g) => g.name === "extra")!;
    expect(new Set(extra.cases.map((c) => c.id)).size).toBe(EXTRA_CASES.length);
  });

  it.each(EXAMPLES)("the %s group holds exactly the cases taskspec drill enumerates", (n) => {
    const plan = compileText(readFileSync(contractOf(n), "utf8"), n);
    const group = report.groups.find((g) => g.name === n);
    expect(group?.cases.map((c) => c.id)).toEqual(drill.enumerateCases(plan, n).map((c) => c.id));
  });

  it("a failing seed shows in the section: the case's count, its seeds, and why", () => {
    const failing = structuredClone(report);
    const c = failing.groups[0]!.cases[0]!;
    Object.assign(c, { verdict: "FAIL", passed: c.k - 1, failedSeeds: [2], reasons: ["seed 2: duplicate effect create_post"] });
    const text = repeatSection(failing).join("\n");
    expect(text).toContain(`**pass^3: ${repeatCases(report).length - 1} of ${repeatCases(report).length} cases**`);
    expect(text).toContain(`| ${c.id} | 2/3 | 2 |`);
    expect(text).toContain(`- ${c.id}:\n  - seed 2: duplicate effect create_post`);
  });

  it("splicing a section in replaces only that section", () => {
    const doc = "# R\n\nintro\n\n## Consistency: pass^3\n\nold\n\n## Failures\n\nNone.\n";
    expect(spliceRepeatSection(doc, ["## Consistency: pass^3", "", "new", ""])).toBe(
      "# R\n\nintro\n\n## Consistency: pass^3\n\nnew\n\n## Failures\n\nNone.\n",
    );
  });
});

const stub = (id: string, verdict: drill.Verdict, reasons: string[] = []): drill.CaseResult => ({
  case: { id, contract: "c", scenario: "complete", crashes: [], siteClass: "none", expectedReruns: [], description: id, injection: "" },
  verdict,
  reasons,
  ms: 10,
  observation: {
    steps: [],
    fired: [],
    finalStatus: "done",
    invocations: {},
    reruns: [],
    rerunCommitted: [],
    duplicateEffects: 0,
    duplicates: [],
    worldMatches: verdict === "PASS",
    artifactsMatch: true,
    artifactDiffs: [],
    fencingRefused: 0,
    orphansReported: 0,
    orphansAdopted: [],
    unexplained: [],
  },
});

const context = { setups: {}, baselines: {} } as unknown as ExtraContext;

describe("repeatExtra", () => {
  it("runs the case once per seed 1..K, one after another, and passes only if every run passed", async () => {
    const seen: Array<number | undefined> = [];
    let running = 0;
    const r = await repeatExtra(
      async (x) => {
        expect(running++).toBe(0);
        seen.push(x.seed);
        await new Promise((resolve) => setTimeout(resolve, 1));
        running--;
        return x.seed === 2 ? stub("e", "FAIL", ["check failed: one post"]) : stub("e", "PASS");
      },
      context,
      3,
    );
    expect(seen).toEqual([1, 2, 3]);
    expect(r.verdict).toBe("FAIL");
    expect(r.repeats).toEqual({ k: 3, passed: 2, failedSeeds: [2] });
    expect(r.reasons).toEqual(["seed 2: check failed: one post"]);
  });

  it("K = 1 runs the case once, without a seed (the CI run)", async () => {
    const seen: Array<number | undefined> = [];
    const r = await repeatExtra(async (x) => (seen.push(x.seed), stub("e", "PASS")), context, 1);
    expect(seen).toEqual([undefined]);
    expect(r.repeats).toBeUndefined();
  });
});

describe("TASKSPEC_DRILL_REPEAT (scripts/drill-repeat.sh's K for the extra group)", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["1", 1],
    ["3", 3],
  ])("%j is K = %j (unset: the CI run)", (setting, k) => {
    expect(repeatSetting(setting)).toBe(k);
  });

  it.each(["0", "-1", "2.5", "three"])("%j is refused with the variable named", (setting) => {
    expect(() => repeatSetting(setting)).toThrow(`TASKSPEC_DRILL_REPEAT must be an integer >= 1, not ${JSON.stringify(setting)}`);
  });
});

describe("seeded process starts of an extra case", () => {
  const sandbox = (dir: string) => ({ dir, env: { A: "1" } }) as unknown as drill.Sandbox;

  it("without a seed nothing pauses and the env is untouched", () => {
    const sb = seededSandbox(sandbox("/x/no-seed"), undefined);
    expect(sb.env).toEqual({ A: "1" });
    expect([nextStartPauseMs(sb), nextStartPauseMs(sb)]).toEqual([0, 0]);
  });

  it("with a seed the workers get it, variants carry it, and each start pauses by the seed's next draw", () => {
    const sb = seededSandbox(sandbox("/x/seed-2"), 2);
    expect(sb.env).toEqual({ A: "1", TASKSPEC_DRILL_SEED: "2" });
    const variant: drill.Sandbox = { ...sb, contract: "variant.task.yaml" };
    expect(seedOf(variant)).toBe(2);
    const pauses = [0, 1, 2, 3].map(() => nextStartPauseMs(sb));
    expect(pauses).toEqual([0, 1, 2, 3].map((i) => drill.seededPauseMs(2, i)));
    const other = seededSandbox(sandbox("/x/seed-3"), 3);
    expect([0, 1, 2, 3].map(() => nextStartPauseMs(other))).not.toEqual(pauses);
  });
});
