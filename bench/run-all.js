/**
 * `npm run bench`: every benchmark in this folder, one after another (they
 * measure wall time, so never in parallel), each under its own heading.
 * bench/lsp and bench/peers compare against other projects installed in their
 * own node_modules; without those installs they are skipped with the command
 * that installs them. The workspace must be built first (`npm run bench`
 * runs `tsc -b`).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

const benches = [
  { name: "compile", script: "compile/run.js" },
  { name: "plan load", script: "compile/plan-load.js" },
  { name: "impact", script: "impact/run.js" },
  { name: "large inputs", script: "large/run.js" },
  { name: "expr", script: "expr/run.js" },
  { name: "runtime: commit overhead", script: "runtime/commit-overhead.js" },
  { name: "runtime: resume decision", script: "runtime/resume-decision.js" },
  { name: "console: timeline window", script: "console/timeline-window.js" },
  { name: "lsp", script: "lsp/run.mjs", ownInstall: "lsp" },
  { name: "peers", script: "peers/compare.js", ownInstall: "peers" },
];

let failed = 0;
for (const bench of benches) {
  console.log(`\n## ${bench.name}\n`);
  if (bench.ownInstall && !existsSync(join(here, bench.ownInstall, "node_modules"))) {
    console.log(`skipped: its comparison needs its own install: npm --prefix bench/${bench.ownInstall} ci`);
    continue;
  }
  const script = join(here, bench.script);
  const result = spawnSync(process.execPath, [script], { cwd: dirname(script), stdio: "inherit" });
  if (result.status !== 0) {
    failed++;
    console.log(`\n${bench.script} failed (exit ${result.status ?? result.signal})`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
