/**
 * The pass^K section of docs/reliability.md, from the last recorded runs of
 * scripts/drill-repeat.sh (test/drills/repeat-report.json): every case of the
 * three example contracts under `taskspec drill --repeat K`, and every
 * concurrency and staleness case under test/drills/extra-repeat.test.ts with
 * TASKSPEC_DRILL_REPEAT=K. A case counts only if every one of its K timing
 * seeds passed. Each group of cases carries the commit, date, machine, load
 * and command it was run with, since the script can re-run one group alone.
 */
import { readFileSync } from "node:fs";

export interface RepeatCase {
  id: string;
  verdict: string;
  k: number;
  passed: number;
  failedSeeds: number[];
  /** Why each failing seed failed (`seed i: ...`), when one did. */
  reasons?: string[];
}

export interface RepeatGroup {
  /** A contract's name for `taskspec drill`, or "extra" for the concurrency and staleness cases. */
  name: string;
  command: string;
  commit: string;
  date: string;
  node: string;
  machine: string;
  /** The one-minute load average when the group started and when it ended. */
  loadAverage: string;
  seconds: number;
  cases: RepeatCase[];
}

export interface RepeatReport {
  script: string;
  groups: RepeatGroup[];
}

/** The order of the groups in the report and the doc: the matrix contracts as in the drill suite, then the extras. */
export const REPEAT_GROUPS = ["publish-post", "trip-booking", "market-entry-pack", "extra"] as const;

export function readRepeatReport(path: string): RepeatReport {
  return JSON.parse(readFileSync(path, "utf8")) as RepeatReport;
}

export const repeatCases = (r: RepeatReport): RepeatCase[] => r.groups.flatMap((g) => g.cases);

const passedAll = (c: RepeatCase) => c.passed === c.k && c.failedSeeds.length === 0;
const label = (g: RepeatGroup) => (g.name === "extra" ? "concurrency and staleness" : g.name);
const minutes = (s: number) => `${Math.round(s / 60)} min`;

export function repeatSection(r: RepeatReport): string[] {
  const cases = repeatCases(r);
  const k = Math.min(...cases.map((c) => c.k));
  const failing = cases.filter((c) => !passedAll(c));
  return [
    `## Consistency: pass^${k}`,
    "",
    `Every case run ${k} times, one run after another, with timing seeds 1..${k}: before each worker process starts the`,
    "drill pauses 0-50 ms as drawn from the seed (two racers started together draw different pauses), and the",
    "workers get the seed as TASKSPEC_DRILL_SEED; a case passes only if all its runs pass. The matrix cases run",
    `under \`taskspec drill --repeat ${k}\`, the concurrency and staleness cases under`,
    `\`TASKSPEC_DRILL_REPEAT=${k} npx vitest run test/drills/extra-repeat.test.ts\`; \`${r.script} ${k}\` runs every group`,
    "again and rewrites test/drills/repeat-report.json and this section.",
    "",
    `**pass^${k}: ${cases.length - failing.length} of ${cases.length} cases** in ${minutes(r.groups.reduce((s, g) => s + g.seconds, 0))} of runs.`,
    "",
    `| group | pass^${k} | time | commit | date | machine | load average (start, end) | command |`,
    "|---|---|---|---|---|---|---|---|",
    ...r.groups.map(
      (g) =>
        `| ${label(g)} | ${g.cases.filter(passedAll).length}/${g.cases.length} | ${minutes(g.seconds)} | ${g.commit} | ${g.date} | ${g.machine}, Node ${g.node} | ${g.loadAverage} | \`${g.command}\` |`,
    ),
    "",
    `| case | pass^${k} | failing seeds |`,
    "|---|---|---|",
    ...cases.map((c) => `| ${c.id} | ${c.passed}/${c.k} | ${c.failedSeeds.length ? c.failedSeeds.join(", ") : "none"} |`),
    "",
    "### Seeds that failed",
    "",
    ...(failing.length ? failing.flatMap((c) => [`- ${c.id}:`, ...(c.reasons ?? []).map((x) => `  - ${x}`)]) : ["None."]),
    "",
  ];
}

/** docs/reliability.md with its pass^K section replaced by `section` (the section runs up to the next `## ` heading). */
export function spliceRepeatSection(doc: string, section: string[]): string {
  const start = doc.indexOf("\n## Consistency: pass^");
  if (start < 0) throw new Error("docs/reliability.md has no `## Consistency: pass^K` section");
  const end = doc.indexOf("\n## ", start + 1);
  return `${doc.slice(0, start + 1)}${section.join("\n")}${end < 0 ? "" : `\n${doc.slice(end + 1)}`}`;
}
