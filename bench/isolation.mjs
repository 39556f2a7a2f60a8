/**
 * Per-unit cost of handler isolation, side by side in one run: a 20-unit chain
 * through runPlan with handlers in a handler process per attempt
 * (`processRunner`, the CLI's default `--isolation process`) and in the
 * worker's process (`--isolation none`), against the start of a bare Node
 * process (`node -e 0`, spawned and awaited). Each unit writes one small
 * artifact and returns; every commit is durable (SQLite WAL, synchronous=FULL).
 * Per-unit figure = median wall time of the run / units. The modes are
 * interleaved run by run so machine load hits them alike.
 *   npx tsc -b && node bench/isolation.mjs [--units 20] [--runs 7]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "../compiler/dist/index.js";
import { handlerReadRoots, processRunner, runPlan, SqliteStore } from "../runtime/dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const UNITS = arg("units", 20);
const RUNS = arg("runs", 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function chainContract(n) {
  const lines = ["contract: 1", "task:", "  id: chain", "  version: 1", "  goal: bench", `  outputs: [out-${n - 1}]`];
  lines.push('  done: [{ check: "count(result.stale_outputs) == 0" }]', "budgets:", "  model_calls: 1000", "  retries: 0", "units:");
  for (let i = 0; i < n; i++) {
    lines.push(`  u${i}:`, `    produces: [out-${i}]`, '    verify: [{ check: "result.ok == true" }]');
    if (i > 0) lines.push(`    needs: { u${i - 1}: content }`);
  }
  return `${lines.join("\n")}\n`;
}

const dir = mkdtempSync(join(tmpdir(), "bench-iso-"));
const handlerFile = join(dir, "handlers.mjs");
writeFileSync(
  handlerFile,
  `const unit = (i) => async (ctx) => { await ctx.write(\`out-\${i}\`, { i }); return { ok: true }; };
export default { units: Object.fromEntries(Array.from({ length: ${UNITS} }, (_, i) => [\`u\${i}\`, unit(i)])), tools: {} };\n`,
);
const handlers = (await import(handlerFile)).default;
const { plan, diagnostics } = compile(chainContract(UNITS));
if (!plan) throw new Error(JSON.stringify(diagnostics));
const runner = processRunner({ handlerModule: handlerFile, readRoots: handlerReadRoots(handlerFile), env: {} });

async function once(mode) {
  const runDir = mkdtempSync(join(dir, "run-"));
  const store = new SqliteStore({ path: join(runDir, "store.db") });
  await store.init();
  const t = performance.now();
  const out = await runPlan({
    store,
    plan,
    handlers,
    run: "B",
    artifacts: join(runDir, "artifacts"),
    crash: () => {},
    log: () => {},
    ...(mode === "process" ? { runner } : {}),
  });
  const ms = performance.now() - t;
  if (out.status !== "done") throw new Error(`bench run (${mode}) ended ${out.status}`);
  await store.close();
  return ms;
}

function nodeStart() {
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, ["-e", "0"], { stdio: "ignore" });
    c.on("error", reject);
    c.on("exit", () => resolve(performance.now() - t));
  });
}

const times = { none: [], process: [], node: [] };
await once("none"); // warm-up: module caches, the SQLite library
await once("process");
for (let r = 0; r < RUNS; r++) {
  times.none.push(await once("none"));
  times.process.push(await once("process"));
  for (let i = 0; i < 5; i++) times.node.push(await nodeStart());
}
rmSync(dir, { recursive: true, force: true });

const none = median(times.none) / UNITS;
const proc = median(times.process) / UNITS;
const node = median(times.node);
const f = (x) => x.toFixed(1);
console.log(`| measure | ms per unit | ratio to node -e 0 |`);
console.log(`|---|---|---|`);
console.log(`| node -e 0 (spawn to exit, median of ${times.node.length}) | ${f(node)} | 1.00 |`);
console.log(`| --isolation none (handler in the worker) | ${f(none)} | ${(none / node).toFixed(2)} |`);
console.log(
  `| --isolation process (a handler process per attempt, network ${runner.info.network}) | ${f(proc)} | ${(proc / node).toFixed(2)} |`,
);
console.log(`| isolation's cost per unit (process − none) | ${f(proc - none)} | ${((proc - none) / node).toFixed(2)} |`);
console.log(`\n${UNITS}-unit chain, median of ${RUNS} runs per mode (interleaved), durable SQLite commits.`);
