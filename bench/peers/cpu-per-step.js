// taskspec's own cost per step, CPU and wall, for one or more builds side by
// side: each run is a fresh process (taskspec-steps.js, with the build's root
// as TASKSPEC_ROOT and its CPU time asked for) running the
// 36-unit shape, or its first unit, through runPlan; the builds are
// interleaved run by run; per step = (T36 - T1) / 35 of the medians. Used to
// compare a change with the build before it (a copy made with `git archive`
// and built); needs no LangGraph.
//
//   node cpu-per-step.js [--runs 9] [--concurrency 12] LABEL=REPO_ROOT ...
//   e.g. node cpu-per-step.js base=/tmp/base now=../..
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { planShape, prefix, taskspecContract, taskspecHandlers } from "./shape.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : args.splice(i, 2)[1];
};
const runs = Number(option("--runs", "9"));
const concurrency = option("--concurrency", "12");
const builds = args.map((a) => {
  const [label, root] = a.split("=");
  return { label, root: path.resolve(root) };
});
if (builds.length === 0) throw new Error("usage: node cpu-per-step.js [--runs N] [--concurrency C] LABEL=REPO_ROOT ...");

const work = fs.mkdtempSync(path.join(os.tmpdir(), "taskspec-cpu-step-"));
const units = await planShape();
for (const n of [1, 36]) {
  const dir = path.join(work, `n${n}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, "bench.task.yaml"), taskspecContract(prefix(units, n)));
  fs.writeFileSync(path.join(dir, "handlers.js"), taskspecHandlers(prefix(units, n)));
}
const times = new Map(builds.map((b) => [b.label, { 1: [], 36: [] }]));
let k = 0;
for (let r = 0; r < runs; r++)
  for (const b of builds)
    for (const n of [1, 36]) {
      const out = path.join(work, `r${k++}`);
      fs.mkdirSync(out);
      const dir = path.join(work, `n${n}`);
      // this checkout's steps script, timing the run call of that build's compiler and runtime
      const p = spawnSync(
        process.execPath,
        [path.join(HERE, "taskspec-steps.js"), path.join(dir, "bench.task.yaml"), path.join(dir, "handlers.js"), out, concurrency],
        { encoding: "utf8", env: { ...process.env, TASKSPEC_STEPS_CPU: "1", TASKSPEC_ROOT: b.root } },
      );
      const line = p.stdout.split("\n").find((l) => l.startsWith('{"ms"'));
      if (p.status !== 0 || !line) throw new Error(`${b.label}: ${p.stdout}${p.stderr}`);
      times.get(b.label)[n].push(JSON.parse(line));
      fs.rmSync(out, { recursive: true, force: true });
    }
fs.rmSync(work, { recursive: true, force: true });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const perStep = (t, key) => (median(t[36].map((x) => x[key])) - median(t[1].map((x) => x[key]))) / 35;
console.log(`concurrency ${concurrency}, median of ${runs}, load average ${os.loadavg()[0].toFixed(2)}`);
console.log("| build | CPU per step ms | wall per step ms |\n|---|---:|---:|");
for (const b of builds) {
  const t = times.get(b.label);
  console.log(`| ${b.label} | ${perStep(t, "cpu").toFixed(3)} | ${perStep(t, "ms").toFixed(3)} |`);
}
