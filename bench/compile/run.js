/**
 * Compile benchmark: for 1k, 5k, 10k and 20k generated units, the time of
 * `yaml` parseDocument alone, of the compiler's own block-YAML parse alone
 * (the fast path compile() uses for such text) and of compile() on the same text, in one run,
 * plus each size's peak RSS measured in a fresh child process (so sizes do
 * not inherit each other's heap), beside the peak of a child that only parses.
 * Times are medians, wall and CPU (CPU is steadier on a shared machine).
 * Run after `npx tsc -b compiler`:
 *   node bench/compile/run.js            # markdown table on stdout
 *   node bench/compile/run.js --sizes 1000,10000   # only these sizes
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import { compile } from "../../compiler/dist/index.js";
import { parseBlockYaml } from "../../compiler/dist/parse/block-yaml.js";
import { generateContract } from "./generate.js";

const sizesAt = process.argv.indexOf("--sizes");
const SIZES = sizesAt > 0 ? process.argv[sizesAt + 1].split(",").map(Number) : [1000, 5000, 10000, 20000];
const self = fileURLToPath(import.meta.url);

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median wall time and median CPU time (user + system) of `runs` calls, in ms. */
function time(fn, runs) {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < runs; i++) {
    const c = process.cpuUsage();
    const t = performance.now();
    fn();
    wall.push(performance.now() - t);
    const d = process.cpuUsage(c);
    cpu.push((d.user + d.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

if (process.argv[2] === "--peak-yaml") {
  // child: the same text through yaml alone, for a peak-memory baseline
  const text = generateContract(Number(process.argv[3]));
  parseDocument(text, { uniqueKeys: false });
  process.stdout.write(JSON.stringify({ rssMb: process.resourceUsage().maxRSS / 1024 }));
} else if (process.argv[2] === "--peak") {
  // child: compile one size once, report peak RSS
  const text = generateContract(Number(process.argv[3]));
  const { diagnostics, plan } = compile(text);
  void plan?.planHash; // hashed on first read: part of a compile
  process.stdout.write(
    JSON.stringify({ rssMb: process.resourceUsage().maxRSS / 1024, errors: diagnostics.filter((d) => d.severity === "error").length }),
  );
} else {
  compile(generateContract(200)); // warm up: schema compile, parser construction, JIT
  const rows = [];
  for (const units of SIZES) {
    const text = generateContract(units);
    const runs = units >= 10000 ? 3 : 5;
    const { diagnostics, plan } = compile(text);
    if (!plan)
      throw new Error(
        `generated ${units}-unit contract did not compile: ${diagnostics
          .slice(0, 3)
          .map((d) => d.message)
          .join("; ")}`,
      );
    const yaml = time(() => parseDocument(text, { uniqueKeys: false }), runs);
    if (!parseBlockYaml(text)) throw new Error(`the block-YAML fast path declined the generated ${units}-unit contract`);
    const own = time(() => parseBlockYaml(text), runs);
    // read the plan hash: computed on first read before it became a plain property, and always read by `taskspec compile`
    const compiled = time(() => compile(text).plan?.planHash, runs);
    const child = spawnSync(process.execPath, [self, "--peak", String(units)], { encoding: "utf8" });
    const peak = JSON.parse(child.stdout);
    const parsePeak = JSON.parse(spawnSync(process.execPath, [self, "--peak-yaml", String(units)], { encoding: "utf8" }).stdout);
    rows.push({ units, mb: text.length / 1048576, yaml, own, compiled, peak: peak.rssMb, parsePeak: parsePeak.rssMb });
  }
  const ms = (t) => `${t.wall.toFixed(0)} ms (cpu ${t.cpu.toFixed(0)})`;
  const out = [
    "| units | size | yaml parseDocument | own block-YAML parse | compile | compile / yaml parse (wall, cpu) | compile / own parse (wall, cpu) | peak RSS: compile / yaml parse only |",
    "|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const ratio = (a, b) => `${(a.wall / b.wall).toFixed(2)}x, ${(a.cpu / b.cpu).toFixed(2)}x`;
  for (const r of rows) {
    out.push(
      `| ${r.units} | ${r.mb.toFixed(1)} MB | ${ms(r.yaml)} | ${ms(r.own)} | ${ms(r.compiled)} | ${ratio(r.compiled, r.yaml)} | ${ratio(r.compiled, r.own)} | ${r.peak.toFixed(0)} MB / ${r.parsePeak.toFixed(0)} MB |`,
    );
  }
  const at = (n) => rows.find((r) => r.units === n);
  const growth = (pick) => (pick(at(20000)) / pick(at(10000))).toFixed(2);
  if (at(10000) && at(20000))
    out.push(
      "",
      `growth 10k -> 20k (cpu): compile ${growth((r) => r.compiled.cpu)}x, yaml parse ${growth((r) => r.yaml.cpu)}x, own parse ${growth((r) => r.own.cpu)}x (2.00x is linear)`,
    );
  console.log(out.join("\n"));
}
