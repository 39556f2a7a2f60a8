#!/usr/bin/env bash
# Runs `taskspec drill --repeat K` (default 3) on the three example contracts
# and writes test/drills/repeat-report.json, from which test/drills/
# reliability-doc.ts renders the pass^K section of docs/reliability.md.
# Slow (every case K times, real processes): about 80 min at load 20 on 2 CPUs.
set -euo pipefail
cd "$(dirname "$0")/.."
k=${1:-3}
out=$(mktemp -d)
npx tsc -b
for n in publish-post trip-booking market-entry-pack; do
  start=$(date +%s)
  v="examples/dist/verifiers/$n.js"
  node cli/bin/taskspec.js drill "specs/$n.task.yaml" --handlers "examples/dist/handlers/$n.js" \
    $( [ -f "$v" ] && echo --verifiers "$v" ) --world "test/drills/worlds/$n.mjs" --repeat "$k" --format json >"$out/$n.json" || true
  echo $(( $(date +%s) - start )) >"$out/$n.seconds"
done
OUT="$out" K="$k" COMMIT="$(git rev-parse --short HEAD)" LOAD="$(cut -d' ' -f1 /proc/loadavg)" node -e '
const fs = require("fs");
const dir = process.env.OUT;
const contracts = ["publish-post", "trip-booking", "market-entry-pack"].map((n) => ({
  contract: n,
  seconds: Number(fs.readFileSync(`${dir}/${n}.seconds`, "utf8")),
  cases: JSON.parse(fs.readFileSync(`${dir}/${n}.json`, "utf8")).results.map((x) => ({
    id: x.case.id, verdict: x.verdict, k: x.repeats.k, passed: x.repeats.passed, failedSeeds: x.repeats.failedSeeds,
  })),
}));
const report = {
  command: `taskspec drill specs/<contract>.task.yaml --handlers examples/dist/handlers/<contract>.js --world test/drills/worlds/<contract>.mjs --repeat ${process.env.K} --format json`,
  script: "scripts/drill-repeat.sh",
  commit: process.env.COMMIT,
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  cpus: require("os").cpus().length,
  loadAverage: process.env.LOAD,
  contracts,
};
fs.writeFileSync("test/drills/repeat-report.json", JSON.stringify(report, null, 2) + "\n");
'
echo "wrote test/drills/repeat-report.json; regenerate docs/reliability.md with TASKSPEC_UPDATE_DOCS=1 npx vitest run test/drills/drills.test.ts"
