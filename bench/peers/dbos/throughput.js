/**
 * taskspec beside DBOS Transact on one PostgreSQL cluster, in one invocation
 * (interleaved by worker count): units (steps) per second with 1, 2, 4 and 8
 * workers. taskspec: W `taskspec worker` processes (--concurrency 1) on one
 * run of N independent units, handlers in the worker (--isolation none,
 * DBOS's trust model) and, beside it, in a handler process per attempt (the
 * default); DBOS: one process with W workflows in flight, N steps in all.
 * Each unit or step sleeps --delay ms (0: no-op). taskspec's figure is its
 * commit window (first to last unit checkpoint); DBOS's from the first
 * workflow started to the last finished (neither counts process start-up).
 * With pg_stat_statements loaded, statements and committed transactions per
 * unit are counted for taskspec (and per step for DBOS); BENCH_TOP_STATEMENTS=1
 * also prints taskspec's most called statements per unit, on stderr.
 *   npm run build && (cd bench/peers/dbos && npm install) &&
 *   TASKSPEC_PG_FSYNC=on TASKSPEC_PG_SETTINGS="-c shared_preload_libraries=pg_stat_statements" \
 *     scripts/with-postgres.sh node bench/peers/dbos/throughput.js [--units 120] [--delay 0] [--workers 1,2,4,8] [--isolation none,process]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { compile } from "../../../compiler/dist/index.js";
import { engineCore, ensureRun, openStore } from "../../../runtime/dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : dflt;
};
const UNITS = Number(arg("units", "120"));
const DELAY = Number(arg("delay", "0"));
const WORKERS = arg("workers", "1,2,4,8").split(",").map(Number);
const ISOLATION = arg("isolation", "none,process").split(",");
const PG = process.env.TASKSPEC_PG_URL;
if (!PG) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
const CLI = fileURLToPath(new URL("../../../cli/bin/taskspec.js", import.meta.url));
const here = fileURLToPath(new URL(".", import.meta.url));

const dir = mkdtempSync(join(tmpdir(), "bench-dbos-"));
const contractFile = join(dir, "wide.task.yaml");
const handlersFile = join(dir, "handlers.mjs");
const outputs = Array.from({ length: UNITS }, (_, i) => `out-${i}`);
writeFileSync(
  contractFile,
  `contract: 1\ntask:\n  id: wide\n  version: 1\n  goal: independent units\n  outputs: [${outputs.join(", ")}]\n  done: [{ check: "count(result.stale_outputs) == 0" }]\n` +
    `budgets:\n  model_calls: 1000000\n  tool_calls: 1000000\n  tokens: 100000000\n  retries: 0\nunits:\n` +
    outputs.map((o, i) => `  u${i}:\n    produces: [${o}]\n`).join(""),
);
writeFileSync(
  handlersFile,
  `const units = {};\nfor (let i = 0; i < ${UNITS}; i++) units["u" + i] = async (ctx) => { if (${DELAY} > 0) await new Promise((r) => setTimeout(r, ${DELAY})); await ctx.write("out-" + i, "x".repeat(64)); return { i }; };\nexport default { units, tools: {} };\n`,
);
const { plan } = compile(readFileSync(contractFile, "utf8"));
const handlers = (await import(handlersFile)).default;

const admin = new pg.Client({ connectionString: PG });
await admin.connect();
const statsOn = await admin
  .query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
  .then(() => admin.query("SELECT pg_stat_statements_reset()"))
  .then(
    () => true,
    () => false,
  );
/** Statements and committed transactions of the cluster since `reset()`, without this client's own. */
const counters = async () => {
  if (!statsOn) return undefined;
  const s = await admin.query(
    "SELECT COALESCE(sum(calls), 0)::bigint AS calls FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat%' AND userid = (SELECT oid FROM pg_roles WHERE rolname = current_user)",
  );
  const x = await admin.query("SELECT sum(xact_commit)::bigint AS commits FROM pg_stat_database");
  return { calls: Number(s.rows[0].calls), commits: Number(x.rows[0].commits) };
};
const reset = async () => {
  if (statsOn) await admin.query("SELECT pg_stat_statements_reset()");
  return counters();
};

const run = (cmd, args, o = {}) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"], ...o });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });

async function taskspec(workers, isolation) {
  const schema = `ts_${isolation}_w${workers}_${process.pid}`;
  const storeUrl = `${PG}?schema=${schema}`;
  const store = await openStore(storeUrl);
  const core = engineCore({ store, plan, handlers, run: "R", artifacts: join(dir, `artifacts-${schema}`), log: () => {} });
  await ensureRun(core, { contract: contractFile, handlers: handlersFile });
  const before = await reset();
  const codes = await Promise.all(
    Array.from({ length: workers }, () =>
      run(process.execPath, [
        CLI,
        "worker",
        "--store",
        storeUrl,
        "--run",
        "R",
        "--concurrency",
        "1",
        "--poll",
        "100ms",
        "--isolation",
        isolation,
      ]),
    ),
  );
  const after = await counters();
  if (process.env.BENCH_TOP_STATEMENTS && statsOn) {
    // where the statements go: the most called, per unit
    const top = await admin.query(
      "SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS q FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat%' ORDER BY calls DESC LIMIT 15",
    );
    console.error(`top statements, taskspec --isolation ${isolation}, ${workers} worker(s), per unit:`);
    for (const r of top.rows) console.error(`  ${(Number(r.calls) / UNITS).toFixed(2)}  ${r.q}`);
  }
  const commits = (await store.listCheckpoints("R")).filter((c) => c.kind === "unit").map((c) => Date.parse(c.committedAt));
  const status = (await store.getRun("R")).status;
  await store.close();
  const window = Math.max(...commits) - Math.min(...commits);
  return {
    engine: `taskspec --isolation ${isolation}`,
    workers,
    ok: status === "done" && codes.every((c) => c.code === 0),
    perSec: ((commits.length - 1) / window) * 1000,
    ...perUnit(before, after, UNITS),
  };
}

async function dbos(workers) {
  const before = await reset();
  const { code, out } = await run(process.execPath, [join(here, "dbos-run.js"), PG, String(workers), String(UNITS), String(DELAY)], {
    cwd: here,
  });
  const after = await counters();
  const last = out.trim().split("\n").at(-1) ?? "{}";
  const r = JSON.parse(last.startsWith("{") ? last : "{}");
  return {
    engine: "DBOS Transact",
    workers,
    ok: code === 0 && r.steps >= UNITS,
    perSec: (r.steps / r.ms) * 1000,
    ...perUnit(before, after, r.steps),
  };
}

function perUnit(before, after, n) {
  if (!before || !after) return {};
  return { statements: (after.calls - before.calls) / n, transactions: (after.commits - before.commits) / n };
}

const rows = [];
for (const w of WORKERS) {
  rows.push(await dbos(w));
  for (const iso of ISOLATION) rows.push(await taskspec(w, iso));
}
await admin.end();

console.log(
  `units ${UNITS}, delay ${DELAY} ms, ${cpus().length} cores, load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(" ")}, Node ${process.version}, pg_stat_statements ${statsOn ? "on" : "off"}`,
);
console.log("| engine | workers | ok | units/s | x DBOS same workers | statements/unit | transactions/unit |");
console.log("|---|---|---|---|---|---|---|");
for (const r of rows) {
  const peer = rows.find((x) => x.engine === "DBOS Transact" && x.workers === r.workers);
  const f = (x) => (x === undefined ? "-" : x.toFixed(1));
  console.log(
    `| ${r.engine} | ${r.workers} | ${r.ok ? "yes" : "NO"} | ${r.perSec.toFixed(1)} | ${(r.perSec / peer.perSec).toFixed(2)} | ${f(r.statements)} | ${f(r.transactions)} |`,
  );
}
