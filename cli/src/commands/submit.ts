/**
 * `taskspec submit <contract> --handlers <module> --store URL [--queue NAME]
 * [--priority N] [--max-parallel N] [--run ID] [--artifacts LOCATION] [--wait]`:
 * records a run for the workers (`taskspec worker`) without working on it,
 * and tells the listening workers (PostgreSQL NOTIFY). With `--wait` it then
 * waits for the run to end and exits as `run` would (runExitCode: 0 done,
 * 1 failed or cancelled, 3 blocked on a person). Without it, exit 0 once the
 * run is recorded.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { type Command } from "commander";
import {
  decisionFor,
  derivedStatus,
  engineCore,
  ensureRun,
  planOfRun,
  queueOfRun,
  QueueKeyError,
  runIdProblem,
  type Store,
} from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { runExitCode } from "./run.js";
import {
  ArtifactBackends,
  artifactLocationFlag,
  defaultArtifactRoot,
  loadPlanToRun,
  parseCount,
  parseDuration,
  STORE_HELP,
  VERIFIERS_HELP,
  withStore,
} from "./run-support.js";
import { storeClockOf } from "./store-clock.js";

interface SubmitOptions {
  handlers: string;
  tools?: string;
  verifiers?: string;
  store?: string;
  run?: string;
  artifacts?: string;
  queue?: string;
  priority: string;
  maxParallel?: string;
  wait?: boolean;
  poll: string;
}

const QUEUE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function register(program: Command): void {
  program
    .command("submit")
    .description("Record a run for the workers of a shared store (`taskspec worker`) without working on it.")
    .argument("<contract>", "contract file (*.task.yaml) or compiled plan (*.json)")
    .requiredOption("--handlers <module>", "handler module the workers load (an absolute path every worker host can read)")
    .option("--tools <module>", "tools module the workers load")
    .option("--verifiers <module>", VERIFIERS_HELP)
    .option("--store <url>", STORE_HELP)
    .option("--run <id>", "run id (default: <task id>-<time>)")
    .option("--artifacts <location>", "where artifacts live: a directory, pg: or s3://bucket/prefix?endpoint=URL")
    .option(
      "--queue <name>",
      "the work queue (workers may serve only some queues and limit each; default: the contract's `queue.name`, else `default`)",
    )
    .option("--priority <n>", "higher runs are visited first", "0")
    .option("--max-parallel <n>", "units of this run at once on one worker")
    .option("--wait", "wait for the run to end; exit as `taskspec run` would")
    .option("--poll <duration>", "how often --wait looks at the run", "1s")
    .action(async (contract: string, o: SubmitOptions) => {
      process.exitCode = await submitCommand(contract, o);
    });
}

async function submitCommand(contract: string, o: SubmitOptions): Promise<number> {
  if (o.queue !== undefined && !QUEUE_NAME.test(o.queue))
    throw new UserError(`--queue ${JSON.stringify(o.queue)}: letters, digits, '.', '_' and '-', at most 64`, 2);
  const priority = Number(o.priority);
  if (!Number.isSafeInteger(priority)) throw new UserError(`--priority ${o.priority}: not an integer`, 2);
  const maxParallel = o.maxParallel === undefined ? undefined : parseCount(o.maxParallel, "--max-parallel", 10_000);
  const pollMs = parseDuration(o.poll, "--poll");
  const files = {
    contract: resolve(contract),
    handlers: resolve(o.handlers),
    ...(o.tools ? { tools: resolve(o.tools) } : {}),
    ...(o.verifiers ? { verifiers: resolve(o.verifiers) } : {}),
  };
  for (const [flag, path] of Object.entries(files))
    if (!existsSync(path)) throw new UserError(`${flag === "contract" ? "contract" : `--${flag}`} ${path}: no such file`, 2);
  const plan = loadPlanToRun(contract);
  const run = o.run ?? `${plan.task.id}-${new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)}`;
  const badRun = runIdProblem(run);
  if (badRun) throw new UserError(badRun, 2);
  const backends = new ArtifactBackends(o.store);
  try {
    return await withStore(o.store, async (store) => {
      const core = engineCore({
        clock: await storeClockOf(store),
        store,
        plan,
        handlers: { units: {}, tools: {} }, // recorded for the workers, never loaded here
        run,
        artifacts: await backends.get(artifactLocationFlag(o.artifacts ?? defaultArtifactRoot(o.store))),
        log: () => undefined,
      });
      const { queue, queueKey } = queueOfSubmitted(plan, run, o.queue);
      const queued = {
        queue,
        ...(queueKey !== undefined ? { queueKey } : {}),
        ...(priority ? { priority } : {}),
        ...(maxParallel ? { maxParallel } : {}),
      };
      if (!(await ensureRun(core, { ...files, ...queued })))
        throw new UserError(`run ${run} exists in this store already: choose another --run (or \`taskspec resume ${run}\`)`, 2);
      await store.announceWork();
      process.stderr.write(
        `taskspec: run ${run} submitted to queue ${queue}${queueKey !== undefined ? ` (key ${JSON.stringify(queueKey)})` : ""} (plan ${core.planVersion})\n`,
      );
      process.stdout.write(`${run}\n`);
      return o.wait ? await waitForEnd(store, run, pollMs) : 0;
    });
  } finally {
    await backends.close();
  }
}

/** The run's queue and tenant; a key that cannot be rendered is the submitter's to fix. */
function queueOfSubmitted(...args: Parameters<typeof queueOfRun>): ReturnType<typeof queueOfRun> {
  try {
    return queueOfRun(...args);
  } catch (err) {
    if (err instanceof QueueKeyError) throw new UserError(`${err.message}; nothing was submitted`, 2);
    throw err;
  }
}

/** Until the run ends or waits for a person: its exit code as `run` gives it. */
async function waitForEnd(store: Store, run: string, pollMs: number): Promise<number> {
  const clock = await storeClockOf(store);
  for (;;) {
    const r = await store.getRun(run);
    if (!r) throw new UserError(`run ${run} is gone from this store`, 2);
    if (r.status !== "active") return report(run, r.status, runExitCode(r.status));
    if (r.hold) return report(run, `blocked (${r.hold.reason})`, runExitCode("blocked"));
    const { decision } = await decisionFor(store, await planOfRun(store, run), run, clock.now().toISOString());
    if (derivedStatus(r.status, decision) === "blocked") return report(run, "blocked", runExitCode("blocked"));
    await new Promise((res) => setTimeout(res, pollMs));
  }
}

function report(run: string, status: string, code: number): number {
  process.stdout.write(`run ${run}: ${status}\n  next: taskspec status ${run}\n`);
  return code;
}
