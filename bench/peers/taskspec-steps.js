// One taskspec process of the overhead measurement, the twin of
// langgraph-steps.js: compiles the contract, runs it once with the runtime's
// own entry point (runPlan) on a fresh SQLite store, and prints {"ms"} — the
// time of the run itself, without process start and module loading.
//
//   node taskspec-steps.js CONTRACT HANDLERS.js DIR [CONCURRENCY] [ISOLATION]
//
// CONCURRENCY (default 1) lets units of one level run together, as
// LangGraph runs the nodes of a superstep; their completions then share a
// commit (group commit). ISOLATION is `none` (default: the handlers run in
// this process) or `process` (the CLI's default: a handler process per
// attempt under Node's permission model).
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { REPO as THIS_REPO } from "./shape.js";

// TASKSPEC_ROOT: time another build (a checkout built elsewhere), as cpu-per-step.js does
const REPO = process.env.TASKSPEC_ROOT ?? THIS_REPO;

const [contract, handlersFile, dir, concurrency = "1", isolation = "none"] = process.argv.slice(2);
const { compile } = await import(path.join(REPO, "compiler/dist/index.js"));
const { openStore, runPlan, processRunner, handlerReadRoots } = await import(path.join(REPO, "runtime/dist/index.js"));
const { plan } = compile(fs.readFileSync(contract, "utf8"), {});
const handlers = (await import(pathToFileURL(path.resolve(handlersFile)).href)).default;
const handlerModule = path.resolve(handlersFile);
const runner =
  isolation === "process" ? { runner: processRunner({ handlerModule, readRoots: handlerReadRoots(handlerModule), env: {} }) } : {};
const store = await openStore(`sqlite:${path.join(dir, "store.db")}`);
const cpuStart = process.cpuUsage();
const start = performance.now();
const outcome = await runPlan({
  store,
  plan,
  handlers,
  run: "bench",
  artifacts: path.join(dir, "artifacts"),
  contractFile: contract,
  concurrency: Number(concurrency),
  log: () => {},
  ...runner,
});
const ms = performance.now() - start;
const cpu = process.cpuUsage(cpuStart);
await store.close?.();
if (outcome.status !== "done") throw new Error(`run ended ${outcome.status}: ${JSON.stringify(outcome.blocked)}`);
// CPU of the whole process over the run call (all threads: the fsync's kernel time included)
process.stdout.write(`${JSON.stringify(process.env.TASKSPEC_STEPS_CPU ? { ms, cpu: (cpu.user + cpu.system) / 1000 } : { ms })}\n`);
