/**
 * Large inputs: `taskspec compile`, `check`, `impact <old> <new>` and
 * `graph --format dot` on one generated contract of 100,000 units (the flow
 * layout of bench/compile/generate.js, just under the 8 MiB size cap), each
 * a fresh process under /usr/bin/time (wall, CPU, peak RSS), side by side in
 * the same run with a process that only parses the same file with the
 * `yaml` package (parseDocument): the baseline of the ratios. The commands
 * are interleaved run by run, so a change of the machine's load hits all of
 * them alike. The load average is printed before and after.
 * Run after `npx tsc -b`:
 *   node bench/large/run.js                          # 100,000 units, 3 runs
 *   node bench/large/run.js --units 20000 --runs 1
 *   node bench/large/run.js --before /tmp/old/cli/bin/taskspec.js   # and another build's CLI, side by side
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateFlowContract } from "../compile/generate.js";
import { editOf } from "./edit.js";

const here = dirname(fileURLToPath(import.meta.url));
const cli = join(here, "..", "..", "cli", "bin", "taskspec.js");
const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const UNITS = option("--units", 100_000);
const RUNS = option("--runs", 3);
const beforeAt = process.argv.indexOf("--before");
const before = beforeAt > 0 ? process.argv[beforeAt + 1] : undefined;

const dir = mkdtempSync(join(tmpdir(), "taskspec-large-"));
mkdirSync(join(dir, "schemas"));
writeFileSync(join(dir, "schemas", "evidence.json"), '{ "type": "object" }\n');
const old = join(dir, "old.task.yaml");
const next = join(dir, "new.task.yaml");
const text = generateFlowContract(UNITS);
writeFileSync(old, text);
writeFileSync(next, editOf(text, UNITS));

const taskspec = (bin, label) => [
  { name: `${label}compile -o plan.json`, args: [bin, "compile", old, "-o", join(dir, "plan.json")] },
  { name: `${label}check`, args: [bin, "check", old] },
  { name: `${label}impact old new`, args: [bin, "impact", old, next, "-o", join(dir, "impact.txt")] },
  { name: `${label}graph --format dot`, args: [bin, "graph", old, "--format", "dot", "-o", join(dir, "graph.dot")] },
];
const commands = [
  { name: "yaml parseDocument (baseline)", args: [join(here, "yaml-parse.js"), old] },
  ...taskspec(cli, "taskspec "),
  ...(before ? taskspec(before, "before: ") : []),
];

/** One fresh process under /usr/bin/time: wall and CPU seconds, peak RSS in MB. */
function measure(args) {
  const result = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", process.execPath, ...args], { encoding: "utf8", maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`${args.join(" ")} exited ${result.status}:\n${result.stderr.slice(-2000)}`);
  const [wall, user, system, kb] = result.stderr.trim().split("\n").at(-1).split(" ").map(Number);
  return { wall, cpu: user + system, rss: kb / 1024 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(", ");

console.log(
  `${UNITS} units, ${(statSync(old).size / 1048576).toFixed(2)} MiB (${statSync(old).size} bytes); ${RUNS} runs; Node ${process.version}`,
);
console.log(`load average before: ${load()}`);
const samples = commands.map(() => []);
for (let run = 0; run < RUNS; run++)
  commands.forEach((command, i) => {
    const sample = measure(command.args);
    samples[i].push(sample);
    console.log(
      `run ${run + 1}: ${command.name}: ${sample.wall.toFixed(2)} s wall, ${sample.cpu.toFixed(2)} s CPU, ${sample.rss.toFixed(0)} MB (load ${load()})`,
    );
  });
console.log(`load average after: ${load()}`);
const sizes = ["plan.json", "impact.txt", "graph.dot"].map((f) => `${f} ${(statSync(join(dir, f)).size / 1048576).toFixed(1)} MB`);
console.log(
  `outputs: ${sizes.join(", ")}; impact: ${readFileSync(join(dir, "impact.txt"), "utf8")
    .split("\n")
    .find((l) => l.includes("must re-run"))}`,
);

const base = {
  wall: median(samples[0].map((s) => s.wall)),
  cpu: median(samples[0].map((s) => s.cpu)),
  rss: median(samples[0].map((s) => s.rss)),
};
console.log("");
console.log("| command | wall s: median (min-max) | CPU s: median | peak RSS MB: median (max) | / yaml parse: wall, CPU, RSS |");
console.log("|---|---:|---:|---:|---:|");
commands.forEach((command, i) => {
  const s = samples[i];
  const wall = s.map((x) => x.wall);
  const cpu = median(s.map((x) => x.cpu));
  const rss = s.map((x) => x.rss);
  console.log(
    `| ${command.name} | ${median(wall).toFixed(2)} (${Math.min(...wall).toFixed(2)}-${Math.max(...wall).toFixed(2)}) | ${cpu.toFixed(2)} | ${median(rss).toFixed(0)} (${Math.max(...rss).toFixed(0)}) | ${(median(wall) / base.wall).toFixed(2)}x, ${(cpu / base.cpu).toFixed(2)}x, ${(median(rss) / base.rss).toFixed(2)}x |`,
  );
});
rmSync(dir, { recursive: true, force: true });
