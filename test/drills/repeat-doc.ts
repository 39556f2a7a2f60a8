/**
 * The pass^K section of docs/reliability.md, from the last recorded run of
 * `taskspec drill --repeat K` over the example contracts
 * (test/drills/repeat-report.json, written by scripts/drill-repeat.sh): a
 * case counts only if every one of its K timing seeds passed.
 */
import { readFileSync } from "node:fs";

export interface RepeatReport {
  command: string;
  script: string;
  commit: string;
  date: string;
  node: string;
  cpus: number;
  loadAverage: string;
  contracts: Array<{
    contract: string;
    seconds: number;
    cases: Array<{ id: string; verdict: string; k: number; passed: number; failedSeeds: number[] }>;
  }>;
}

export function readRepeatReport(path: string): RepeatReport {
  return JSON.parse(readFileSync(path, "utf8")) as RepeatReport;
}

export function repeatSection(r: RepeatReport, extraCases: number): string[] {
  const cases = r.contracts.flatMap((c) => c.cases);
  const k = cases[0]?.k ?? 0;
  const all = cases.filter((c) => c.passed === c.k).length;
  const minutes = (s: number) => `${Math.round(s / 60)} min`;
  return [
    `## Consistency: pass^${k}`,
    "",
    `\`${r.command}\`, for each example contract, on ${r.commit} (${r.date}, Node ${r.node}, ${r.cpus} CPUs, load average ${r.loadAverage}):`,
    `every case ${k} times with timing seeds 1..${k}; a case passes only if all ${k} runs pass. \`${r.script}\` runs it again and rewrites these figures.`,
    "",
    `**pass^${k}: ${all} of ${cases.length} cases** (${r.contracts.map((c) => `${c.contract} ${c.cases.filter((x) => x.passed === x.k).length}/${c.cases.length} in ${minutes(c.seconds)}`).join(", ")}).`,
    `The ${extraCases} concurrency and staleness cases above are not part of \`taskspec drill\` and were run once.`,
    "",
    `| case | pass^${k} | failing seeds |`,
    "|---|---|---|",
    ...cases.map((c) => `| ${c.id} | ${c.passed}/${c.k} | ${c.failedSeeds.length ? c.failedSeeds.join(", ") : "none"} |`),
    "",
  ];
}
