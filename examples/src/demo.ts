/**
 * `npm run demo`: the two seed cases replayed against the real runtime, each
 * step a fresh `taskspec` process, side effects on a real local blog. Exits
 * non-zero when any figure is wrong. Work files go to a temp directory
 * (kept with --keep, or TASKSPEC_DEMO_KEEP=1).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { marketEntryScenario } from "./demo/market-entry-scenario.js";
import { publishPostScenario } from "./demo/publish-post-scenario.js";
import { Report } from "./demo/report.js";

async function main(): Promise<number> {
  const keep = process.argv.includes("--keep") || process.env.TASKSPEC_DEMO_KEEP === "1";
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "taskspec-demo-"));
  const report = new Report();
  process.stdout.write(`taskspec demo: store, artifacts and the blog's storage in ${work}\n`);
  try {
    await publishPostScenario(work, report);
    await marketEntryScenario(work, report);
  } catch (error) {
    report.failures.push(`the demo stopped: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (!keep) fs.rmSync(work, { recursive: true, force: true });
  }
  report.section(
    report.failures.length === 0
      ? "Demo passed: every figure is as the seeds report"
      : `Demo FAILED: ${report.failures.length} figure(s) wrong`,
  );
  for (const failure of report.failures) process.stdout.write(`  - ${failure}\n`);
  if (keep) process.stdout.write(`work files kept in ${work}\n`);
  return report.failures.length === 0 ? 0 : 1;
}

process.exitCode = await main();
