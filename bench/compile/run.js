/**
 * Compile benchmark: for 1k, 5k, 10k and 20k generated units, the time of
 * `yaml` parseDocument alone and of compile() on the same text, in one run,
 * plus each size's peak RSS measured in a fresh child process (so sizes do
 * not inherit each other's heap). Run after `npx tsc -b compiler`:
 *   node bench/compile/run.js            # markdown table on stdout
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import { compile } from "../../compiler/dist/index.js";
import { generateContract } from "./generate.js";

const SIZES = [1000, 5000, 10000, 20000];
const self = fileURLToPath(import.meta.url);

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(fn, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

if (process.argv[2] === "--peak") {
  // child: compile one size once, report peak RSS
  const text = generateContract(Number(process.argv[3]));
  const { diagnostics } = compile(text);
  process.stdout.write(JSON.stringify({ rssMb: process.resourceUsage().maxRSS / 1024, errors: diagnostics.filter((d) => d.severity === "error").length }));
} else {
  compile(generateContract(200)); // warm up: schema compile, parser construction, JIT
  const rows = [];
  for (const units of SIZES) {
    const text = generateContract(units);
    const runs = units >= 10000 ? 5 : 7;
    const { diagnostics, plan } = compile(text);
    if (!plan) throw new Error(`generated ${units}-unit contract did not compile: ${diagnostics.slice(0, 3).map((d) => d.message).join("; ")}`);
    const yamlMs = time(() => parseDocument(text, { uniqueKeys: false }), runs);
    const compileMs = time(() => compile(text), runs);
    const child = spawnSync(process.execPath, [self, "--peak", String(units)], { encoding: "utf8" });
    const peak = JSON.parse(child.stdout);
    rows.push({ units, mb: text.length / 1048576, yamlMs, compileMs, peak: peak.rssMb, warnings: diagnostics.length });
  }
  const out = ["| units | size | yaml parse | compile | compile / parse | peak RSS (compile, own process) |", "|---:|---:|---:|---:|---:|---:|"];
  for (const r of rows) {
    out.push(`| ${r.units} | ${r.mb.toFixed(1)} MB | ${r.yamlMs.toFixed(0)} ms | ${r.compileMs.toFixed(0)} ms | ${(r.compileMs / r.yamlMs).toFixed(2)}x | ${r.peak.toFixed(0)} MB |`);
  }
  const at = (n) => rows.find((r) => r.units === n);
  out.push("", `growth 10k -> 20k: compile ${(at(20000).compileMs / at(10000).compileMs).toFixed(2)}x, yaml parse ${(at(20000).yamlMs / at(10000).yamlMs).toFixed(2)}x (2.00x is linear)`);
  console.log(out.join("\n"));
}
