#!/usr/bin/env bash
# pass^K of every drill case: scripts/drill-repeat.sh [K] [group...]
#
# Groups: publish-post, trip-booking, market-entry-pack (`taskspec drill
# --repeat K` on the example contract) and extra (the concurrency and
# staleness cases of test/drills/extra, `TASKSPEC_DRILL_REPEAT=K npx vitest run
# test/drills/extra-repeat.test.ts`). Default K 3 (K 1: every case once,
# without a seed, as `taskspec drill --repeat 1`), every group, the extras
# first (then the shortest contract first), so a run cut short has recorded
# the most. After each group it records the group (commit, date, machine, load
# at its start and end, command, seconds, each case's passes and failing seeds
# with why) in test/drills/repeat-report.json, replacing that group's earlier
# record, and rewrites the pass^K section of docs/reliability.md from it.
# Slow (every case K times, real processes): 10 min at load 5-9 on 2 CPUs,
# 83 min at load 18-27. Exits 1 if any case failed any seed.
set -euo pipefail
cd "$(dirname "$0")/.."
k=${1:-3}
shift || true
groups=("$@")
[ ${#groups[@]} -eq 0 ] && groups=(extra market-entry-pack publish-post trip-booking)
out=$(mktemp -d)
npx tsc -b
status=0
for g in "${groups[@]}"; do
  load_start=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s)
  if [ "$g" = extra ]; then
    command="TASKSPEC_DRILL_REPEAT=$k npx vitest run test/drills/extra-repeat.test.ts"
    TASKSPEC_DRILL_REPEAT="$k" TASKSPEC_DRILL_REPEAT_OUT="$out/$g.json" npx vitest run test/drills/extra-repeat.test.ts >&2 || status=1
  else
    v="examples/dist/verifiers/$g.js"
    command="taskspec drill specs/$g.task.yaml --handlers examples/dist/handlers/$g.js$([ -f "$v" ] && echo " --verifiers $v" || true) --world test/drills/worlds/$g.mjs --repeat $k --format json"
    # shellcheck disable=SC2046 # --verifiers and its path are two words
    node cli/bin/taskspec.js drill "specs/$g.task.yaml" --handlers "examples/dist/handlers/$g.js" \
      $([ -f "$v" ] && echo --verifiers "$v" || true) --world "test/drills/worlds/$g.mjs" --repeat "$k" --format json >"$out/$g.json" || status=1
  fi
  if [ ! -s "$out/$g.json" ]; then
    echo "drill-repeat: group $g wrote no report; nothing recorded for it" >&2
    status=1
    continue
  fi
  # The commit, marked dirty when the tree differs from it outside what this script writes.
  commit=$(git rev-parse --short HEAD)
  git diff --quiet HEAD -- . ':!test/drills/repeat-report.json' ':!docs/reliability.md' || commit="$commit (dirty)"
  GROUP="$g" FILE="$out/$g.json" SECONDS_TAKEN=$(($(date +%s) - start)) COMMAND="$command" COMMIT="$commit" \
    LOAD="$load_start, $(cut -d' ' -f1 /proc/loadavg)" node -e '
const fs = require("fs");
const os = require("os");
const e = process.env;
const path = "test/drills/repeat-report.json";
const order = ["publish-post", "trip-booking", "market-entry-pack", "extra"];
const report = JSON.parse(fs.readFileSync(path, "utf8"));
const cases = JSON.parse(fs.readFileSync(e.FILE, "utf8")).results.map((x) => {
  const r = x.repeats ?? { k: 1, passed: x.verdict === "PASS" ? 1 : 0, failedSeeds: x.verdict === "PASS" ? [] : [1] };
  return { id: x.case.id, verdict: x.verdict, k: r.k, passed: r.passed, failedSeeds: r.failedSeeds, ...(x.verdict === "PASS" ? {} : { reasons: x.reasons }) };
});
const cpu = os.cpus();
const group = {
  name: e.GROUP,
  command: e.COMMAND,
  commit: e.COMMIT,
  date: new Date().toISOString().slice(0, 10),
  node: process.version,
  machine: `${cpu[0]?.model.trim() ?? "unknown CPU"}, ${cpu.length} CPUs, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  loadAverage: e.LOAD,
  seconds: Number(e.SECONDS_TAKEN),
  cases,
};
report.groups = [...report.groups.filter((g) => g.name !== e.GROUP), group].sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
fs.writeFileSync(path, JSON.stringify(report, null, 2) + "\n");
const failed = cases.filter((c) => c.verdict !== "PASS");
console.error(`drill-repeat: ${e.GROUP}: pass^${cases[0]?.k} ${cases.length - failed.length}/${cases.length} in ${e.SECONDS_TAKEN} s${failed.length ? `; failed: ${failed.map((c) => `${c.id} (seeds ${c.failedSeeds.join(", ")})`).join("; ")}` : ""}`);
'
  TASKSPEC_UPDATE_DOCS=1 npx vitest run test/drill-repeat.test.ts -t "pass\\^K section" >/dev/null 2>&1 ||
    { echo "drill-repeat: could not rewrite the pass^K section of docs/reliability.md" >&2 && status=1; }
done
echo "drill-repeat: wrote test/drills/repeat-report.json and the pass^$k section of docs/reliability.md" >&2
exit $status
