/**
 * Units per second with 1, 2, 4 and 8 `taskspec worker` processes on one
 * PostgreSQL run, against one worker on SQLite, in one invocation. The run is
 * created through the store API, then the workers start together (each with
 * --concurrency 1, so workers = units in flight). Each unit sleeps --delay ms
 * (an I/O-bound handler) and writes one small artifact.
 * Figures: wall time from spawning the workers to the last exit, and the
 * commit window (first to last unit checkpoint's committedAt, which leaves out
 * process start-up).
 *   npx tsc -b runtime cli && scripts/with-postgres.sh node bench/postgres/run.js [--units 200] [--delay 20]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "../../compiler/dist/index.js";
import { engineCore, ensureRun, openStore } from "../../runtime/dist/index.js";

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const UNITS = arg("units", 200);
const DELAY = arg("delay", 20);
const PG = process.env.TASKSPEC_PG_URL;
if (!PG) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
const CLI = fileURLToPath(new URL("../../cli/bin/taskspec.js", import.meta.url));

const dir = mkdtempSync(join(tmpdir(), "bench-pg-"));
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
  `const units = {};\nfor (let i = 0; i < ${UNITS}; i++) units["u" + i] = async (ctx) => { await new Promise((r) => setTimeout(r, ${DELAY})); await ctx.write("out-" + i, "x".repeat(64)); return { i }; };\nexport default { units, tools: {} };\n`,
);
const { plan } = compile(await import("node:fs").then((fs) => fs.readFileSync(contractFile, "utf8")));
const handlers = (await import(handlersFile)).default;

async function measure(label, storeUrl, workers) {
  const store = await openStore(storeUrl);
  const core = engineCore({ store, plan, handlers, run: "R", artifacts: join(dir, `artifacts-${label}`), log: () => {} });
  await ensureRun(core, { contract: contractFile, handlers: handlersFile });
  const t0 = performance.now();
  const codes = await Promise.all(
    Array.from({ length: workers }, () => {
      const child = spawn(process.execPath, [CLI, "worker", "--store", storeUrl, "--run", "R", "--concurrency", "1", "--poll", "100ms"], {
        stdio: ["ignore", "ignore", "inherit"],
      });
      return new Promise((r) => child.on("close", r));
    }),
  );
  const wall = performance.now() - t0;
  const commits = (await store.listCheckpoints("R")).filter((c) => c.kind === "unit").map((c) => Date.parse(c.committedAt));
  const status = (await store.getRun("R")).status;
  await store.close();
  const window = Math.max(...commits) - Math.min(...commits);
  return {
    label,
    workers,
    status,
    codes: codes.join(","),
    wall,
    window,
    perSecWall: (UNITS / wall) * 1000,
    perSecWindow: ((commits.length - 1) / window) * 1000,
  };
}

const rows = [await measure("sqlite", `sqlite:${join(dir, "store.db")}`, 1)];
for (const w of [1, 2, 4, 8]) rows.push(await measure(`pg${w}`, `${PG}?schema=bench_w${w}_${process.pid}`, w));

const base = rows[0];
console.log(`units ${UNITS}, handler delay ${DELAY} ms, ${cpus().length} cores, Node ${process.version}`);
console.log("| store | workers | status | wall s | units/s (wall) | commit window s | units/s (window) | x SQLite 1 worker (window) |");
console.log("|---|---|---|---|---|---|---|---|");
for (const r of rows) {
  const name = r.label === "sqlite" ? "SQLite" : "PostgreSQL";
  console.log(
    `| ${name} | ${r.workers} | ${r.status} | ${(r.wall / 1000).toFixed(2)} | ${r.perSecWall.toFixed(1)} | ${(r.window / 1000).toFixed(2)} | ${r.perSecWindow.toFixed(1)} | ${(r.perSecWindow / base.perSecWindow).toFixed(2)} |`,
  );
}
