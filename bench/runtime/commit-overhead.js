/**
 * Per-unit durable commit overhead on SQLite against this disk's raw fsync
 * cost, in one run. Baseline: write 4 KB + fsync to a file, median of 200.
 * Engine: runPlan over no-op units (every commit is a durable checkpoint:
 * WAL, synchronous=FULL), sequential (concurrency 1: one commit per unit) and
 * grouped (concurrency = level width: units that finish together share one
 * commit). Overhead per unit = median wall time / units.
 *   npx tsc -b runtime && node bench/runtime/commit-overhead.js [--units 240] [--runs 5]
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "../../compiler/dist/index.js";
import { runPlan, SqliteStore } from "../../runtime/dist/index.js";
import { layeredContract, layeredHandlers } from "./generate.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const UNITS = arg("units", 240);
const RUNS = arg("runs", 5);
const WIDTH = 12;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function fsyncCost(samples = 200) {
  const dir = mkdtempSync(join(tmpdir(), "fsync-"));
  const fd = openSync(join(dir, "f"), "w");
  const block = Buffer.alloc(4096, 7);
  const times = [];
  for (let i = 0; i < samples; i++) {
    const t = performance.now();
    writeSync(fd, block, 0, block.length, i * 4096);
    fsyncSync(fd);
    times.push(performance.now() - t);
  }
  closeSync(fd);
  rmSync(dir, { recursive: true, force: true });
  return median(times);
}

async function engine(concurrency) {
  const depth = UNITS / WIDTH;
  const { plan } = compile(layeredContract(WIDTH, depth));
  const handlers = layeredHandlers(WIDTH, depth);
  const times = [];
  const cpus = [];
  for (let r = 0; r < RUNS; r++) {
    const dir = mkdtempSync(join(tmpdir(), "bench-rt-"));
    const store = new SqliteStore({ path: join(dir, "store.db") });
    await store.init();
    const t = performance.now();
    const cpu = process.cpuUsage();
    const out = await runPlan({
      store,
      plan,
      handlers,
      run: "B",
      artifacts: join(dir, "artifacts"),
      concurrency,
      crash: () => {},
      log: () => {},
    });
    times.push(performance.now() - t);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
    if (out.status !== "done") throw new Error(`bench run ended ${out.status}`);
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { wall: median(times) / UNITS, cpu: median(cpus) / UNITS };
}

const fsyncMs = fsyncCost();
const seq = await engine(1);
const grouped = await engine(WIDTH);
const fsyncAgain = fsyncCost();
const f = (x) => x.toFixed(2);
const base = (fsyncMs + fsyncAgain) / 2;
console.log(`| measure | wall ms per unit | x one fsync | CPU ms per unit |`);
console.log(`|---|---|---|---|`);
console.log(`| raw write 4 KB + fsync (median of 200, before / after) | ${f(fsyncMs)} / ${f(fsyncAgain)} | 1.00 | |`);
console.log(`| runPlan, concurrency 1 (one durable commit per unit) | ${f(seq.wall)} | ${f(seq.wall / base)} | ${f(seq.cpu)} |`);
console.log(
  `| runPlan, concurrency ${WIDTH} (group commits per level) | ${f(grouped.wall)} | ${f(grouped.wall / base)} | ${f(grouped.cpu)} |`,
);
console.log(
  `\n${UNITS} units (${WIDTH} wide x ${UNITS / WIDTH} deep), median of ${RUNS} runs; the last level writes one 64-byte artifact per column (fsynced).`,
);
