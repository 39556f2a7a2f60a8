/**
 * Fairness of the work queue: --runs runs of --units independent units each,
 * all recorded at once (through the store API, as `taskspec submit` records
 * them), then --workers `taskspec worker` processes (each --concurrency C,
 * --slice S) serve them until none is active. Figures: from the workers'
 * spawn, when the last-submitted run's first unit was leased (its first
 * `leased` event), the slowest first lease of any run, the wall time, and the
 * bound docs/operator.md states ("How long a submitted run waits"): every
 * run's first visit within ceil(R / C) rounds of one worker (workers keep no
 * shared memory of visits, so one worker's slots make the round), a round
 * being one slice plus the longest unit plus the set-up of a visit.
 * The full size the scale-out issue asks: 200 runs of 36 units, 4 workers.
 *   npx tsc -b && scripts/with-postgres.sh node bench/postgres/queue-fairness.js [--runs 200] [--units 36] [--workers 4] [--concurrency 4] [--slice 1s] [--delay 0]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "../../compiler/dist/index.js";
import { engineCore, ensureRun, openStore } from "../../runtime/dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const RUNS = Number(arg("runs", "200"));
const UNITS = Number(arg("units", "36"));
const WORKERS = Number(arg("workers", "4"));
const CONCURRENCY = Number(arg("concurrency", "4"));
const SLICE = arg("slice", "1s");
const DELAY = Number(arg("delay", "0"));
const PG = process.env.TASKSPEC_PG_URL;
if (!PG) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
const CLI = fileURLToPath(new URL("../../cli/bin/taskspec.js", import.meta.url));

const dir = mkdtempSync(join(tmpdir(), "bench-fair-"));
const contractFile = join(dir, "many.task.yaml");
const handlersFile = join(dir, "handlers.mjs");
const outputs = Array.from({ length: UNITS }, (_, i) => `out-${i}`);
writeFileSync(
  contractFile,
  `contract: 1\ntask:\n  id: many\n  version: 1\n  goal: independent units\n  outputs: [${outputs.join(", ")}]\n  done: [{ check: "count(result.stale_outputs) == 0" }]\n` +
    `budgets:\n  model_calls: 1000000\n  tool_calls: 1000000\n  tokens: 100000000\n  retries: 0\nunits:\n` +
    outputs.map((o, i) => `  u${i}:\n    produces: [${o}]\n`).join(""),
);
writeFileSync(
  handlersFile,
  `const units = {};\nfor (let i = 0; i < ${UNITS}; i++) units["u" + i] = async (ctx) => { ${DELAY ? `await new Promise((r) => setTimeout(r, ${DELAY}));` : ""} await ctx.write("out-" + i, "{}"); return {}; };\nexport default { units, tools: {} };\n`,
);
const { plan } = compile(readFileSync(contractFile, "utf8"));
const storeUrl = `${PG}?schema=fair_${process.pid}`;
const store = await openStore(storeUrl);
const load = loadavg()[0].toFixed(1);
const r0 = performance.now();
for (let i = 0; i < RUNS; i++) {
  const core = engineCore({
    store,
    plan,
    handlers: { units: {}, tools: {} },
    run: `R${i}`,
    artifacts: join(dir, "artifacts"),
    log: () => {},
  });
  await ensureRun(core, { contract: contractFile, handlers: handlersFile });
}
const recordMs = performance.now() - r0;

const t0 = Date.now();
const codes = await Promise.all(
  Array.from({ length: WORKERS }, () => {
    const args = [
      "worker",
      "--store",
      storeUrl,
      "--concurrency",
      String(CONCURRENCY),
      "--slice",
      SLICE,
      "--poll",
      "200ms",
      "--exit-when-idle",
    ];
    const child = spawn(process.execPath, [CLI, ...args], {
      stdio: ["ignore", "ignore", "ignore"],
      env: { ...process.env, TASKSPEC_ISOLATION: "none", TASKSPEC_CRASH_AT: "" },
    });
    return new Promise((r) => child.on("close", r));
  }),
);
const wall = Date.now() - t0;
const firstLease = [];
let done = 0;
for (let i = 0; i < RUNS; i++) {
  const [first] = await store.listEvents(`R${i}`, { type: "leased" });
  firstLease.push(first ? Date.parse(first.at) - t0 : NaN);
  if ((await store.getRun(`R${i}`)).status === "done") done++;
}
await store.close();
const last = firstLease[RUNS - 1];
const slowest = Math.max(...firstLease);
const rounds = Math.ceil(RUNS / CONCURRENCY);
console.log(
  `runs ${RUNS} x ${UNITS} units (handler delay ${DELAY} ms), ${WORKERS} workers x --concurrency ${CONCURRENCY}, --slice ${SLICE}; ` +
    `${cpus().length} cores, load ${load} at start, Node ${process.version}; runs recorded in ${(recordMs / 1000).toFixed(1)} s`,
);
console.log(
  "| runs done | worker exit codes | wall s | last-submitted run's first lease s | slowest first lease s | rounds ceil(R/C) | s per round (slowest / rounds) |",
);
console.log("|---|---|---|---|---|---|---|");
console.log(
  `| ${done}/${RUNS} | ${codes.join(",")} | ${(wall / 1000).toFixed(1)} | ${(last / 1000).toFixed(1)} | ${(slowest / 1000).toFixed(1)} | ${rounds} | ${(slowest / 1000 / rounds).toFixed(2)} |`,
);
