/**
 * `taskspec run <contract> --handlers <module> [--tools <module>] [--verifiers <module>] [--store URL] [--run ID]
 * [--artifacts DIR|pg:|s3://bucket/prefix] [--cap budget=n ...] [--concurrency n]`: starts a run and
 * drives it until it is done, blocked or failed. Exit codes: `runExitCode`.
 * On a run the store already has (a `run` killed part way, run again) it
 * continues that run, with the given contract and handlers as its own.
 */
import { resolve } from "node:path";
import { Option, type Command } from "commander";
import type { Plan } from "@taskspec/compiler";
import {
  engineCore,
  ensureRun,
  operator,
  importedRunRefusal,
  recordToolsModule,
  recordVerifierModule,
  runIdProblem,
  Worker,
  type RunOutcome,
  type RunRow,
  type Store,
  type WorkerOptions,
} from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { adoptRunFiles, planMoved } from "./run-origin.js";
import { startWithCodeChanges } from "./code-changes.js";
import { ridingOutages } from "./store-outage.js";
import { concurrencyOption, leaseTtlOption, storeOutageOption, type IsolationOptions, addRunConfigOptions } from "./worker-options.js";
import {
  exitGuard,
  loadRunCode,
  modelAdapter,
  recordIsolation,
  collect,
  failureReasons,
  defaultArtifactRoot,
  ArtifactBackends,
  artifactLocationFlag,
  loadPlanToRun,
  loadVerifiers,
  OPERATOR_KEY_HELP,
  operatorActing,
  parseCount,
  parseDuration,
  progressPrinter,
  STORE_HELP,
  VERIFIERS_HELP,
  withStore,
  type RunCode,
} from "./run-support.js";
import { storeClockOf, storeNow } from "./store-clock.js";
import { configureHeartbeat, heartbeatOf } from "./worker-heartbeat.js";

interface RunOptions extends IsolationOptions {
  handlers: string;
  verifiers?: string;
  store?: string;
  run?: string;
  runId?: string;
  artifacts?: string;
  cap?: string[];
  concurrency: string;
  leaseTtl: string;
  storeOutage: string;
  format: "text" | "json";
  operatorKeyFile?: string;
}

export function register(program: Command): void {
  addRunConfigOptions(
    program
      .command("run")
      .description("Run a contract with a handler module on the durable store (resume it later with `taskspec resume <run>`).")
      .argument("<contract>", "contract file (*.task.yaml) or compiled plan (*.json)")
      .requiredOption("--handlers <module>", "handler module (default export: { units, tools, inputs? })")
      .option("--verifiers <module>", VERIFIERS_HELP)
      .option("--store <url>", STORE_HELP)
      .option("--run <id>", "run id (default: <task id>-<time>)")
      .option("--run-id <id>", "same as --run")
      .option(
        "--artifacts <location>",
        "where artifacts live: a directory, pg: (the PostgreSQL store itself) or s3://bucket/prefix?endpoint=URL (default: a directory beside the store)",
      )
      .option("--cap <budget=n>", "start with a lower/higher cap than the contract's (recorded decision); repeatable", collect)
      .option(
        "--operator-key-file <path>",
        `${OPERATOR_KEY_HELP}; needed for --cap, or a changed contract or module of an existing run, once the store has operator identities`,
      )
      .addOption(concurrencyOption())
      .addOption(leaseTtlOption())
      .addOption(storeOutageOption()),
  )
    .addOption(new Option("--format <format>", "outcome format").choices(["text", "json"]).default("text"))
    .action(async (contract: string, o: RunOptions) => {
      process.exitCode = await runCommand(contract, o);
    });
}

async function runCommand(contract: string, o: RunOptions): Promise<number> {
  const concurrency = parseCount(o.concurrency, "--concurrency");
  // Every option is checked before the store is touched: a bad --cap or --store-outage used to
  // leave a run recorded as started (and a bad --cap exited 1, as if the run had failed).
  const leaseTtlMs = parseDuration(o.leaseTtl, "--lease-ttl");
  configureHeartbeat(o);
  parseDuration(o.storeOutage, "--store-outage");
  const caps = o.cap?.length ? capsOption(o.cap) : undefined;
  const acting = operatorActing(o); // before any handler loads: the key file's name leaves the environment
  const plan = loadPlanToRun(contract);
  const { handlers, code, tools, runner, handlerImport, close } = await loadRunCode(plan, o, {
    contract,
    handlers: o.handlers,
    tools: o.tools,
  });
  try {
    return await runLoaded(contract, o, { plan, handlers, code, tools, runner, handlerImport, concurrency, leaseTtlMs, caps, acting });
  } finally {
    await close();
  }
}

async function runLoaded(
  contract: string,
  o: RunOptions,
  loaded: Omit<RunCode, "close"> & {
    plan: Plan;
    concurrency: number;
    leaseTtlMs: number;
    caps: ReturnType<typeof capsOption> | undefined;
    acting: ReturnType<typeof operatorActing>;
  },
): Promise<number> {
  const { plan, handlers, code, tools, runner, handlerImport, concurrency, leaseTtlMs, caps, acting } = loaded;
  const verifiers = await loadVerifiers(plan, o.verifiers, o.handlers);
  const model = modelAdapter(o);
  const run = o.run ?? o.runId ?? `${plan.task.id}-${new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)}`;
  const badRun = runIdProblem(run);
  if (badRun) throw new UserError(badRun, 2);
  const artifacts = artifactLocationFlag(o.artifacts ?? defaultArtifactRoot(o.store));
  const backends = new ArtifactBackends(o.store);
  try {
    return await withStore(o.store, async (store) => {
      const existing = await store.getRun(run);
      if (existing) checkContinuable(existing, plan.task.id, o.artifacts === undefined ? undefined : artifacts);
      const files = {
        contract: resolve(contract),
        handlers: resolve(o.handlers),
        ...(tools ? { tools: tools.path } : {}),
        ...(verifiers ? { verifiers: verifiers.path } : {}),
      };
      const core = engineCore({
        clock: await storeClockOf(store),
        store,
        plan,
        handlers,
        ...(code ? { code } : {}),
        ...(verifiers ? { verifiers } : {}),
        run,
        artifacts: await backends.get(existing ? existing.origin.artifactRoot : artifacts),
        contractFile: files.contract,
        leaseTtlMs,
        ...(runner ? { runner } : {}),
        ...(model ? { model } : {}),
      });
      // A run that exists (started before, perhaps killed) is continued, not refused: the same command works again.
      if (existing) {
        await adoptRunFiles(store, run, files, acting);
        await startWithCodeChanges(store, run, plan, handlers, code);
      }
      const started = await ensureRun(core, files);
      await recordToolsModule(store, run, tools, await storeNow(store));
      await recordVerifierModule(store, run, verifiers, await storeNow(store));
      process.stderr.write(
        started
          ? `taskspec: run ${run} started (plan ${core.planVersion}, artifacts in ${core.storage.location})\n`
          : `taskspec: run ${run} exists in this store: continuing it (as \`taskspec resume ${run}\` would)\n`,
      );
      await recordIsolation(store, run, runner, handlerImport);
      if (caps) {
        await operator.setBudget(store, run, caps, acting, "caps given to `taskspec run --cap`", await storeNow(store));
      }
      return driveAndPrint("run", store, run, core, { concurrency }, o);
    });
  } finally {
    await backends.close();
  }
}

/** `--cap` values as caps; a malformed one is bad usage (exit 2). */
function capsOption(specs: readonly string[]): ReturnType<typeof operator.parseCaps> {
  try {
    return operator.parseCaps(specs);
  } catch (err) {
    throw new UserError((err as Error).message, 2);
  }
}

/** A run id already taken by another task, or an artifact root that moves, is bad usage: never a silent plan swap. */
function checkContinuable(existing: RunRow, taskId: string, artifacts: string | undefined): void {
  const imported = importedRunRefusal(existing);
  if (imported) throw new UserError(`${imported}; nothing was run`, 1);
  if (existing.taskId !== taskId)
    throw new UserError(
      `run ${existing.run} in this store is a run of task ${existing.taskId}, not ${taskId}: choose another --run, or continue it with \`taskspec resume ${existing.run}\``,
      2,
    );
  if (artifacts !== undefined && artifacts !== existing.origin.artifactRoot)
    throw new UserError(
      `run ${existing.run} keeps its artifacts under ${existing.origin.artifactRoot}; drop --artifacts to continue it there`,
      2,
    );
}

/**
 * What `run` and `resume` exit with: 0 only when the run is done; 1 failed or
 * cancelled (it will not finish as it is); 3 blocked (waiting for a person:
 * an approval, a budget raise, an unknown effect to resolve); 4 still active
 * (this process stopped driving it before an end). 2 stays bad usage / a
 * store that cannot be used (docs/operator.md).
 */
export const RUN_EXIT = { done: 0, failed: 1, usage: 2, blocked: 3, unfinished: 4 } as const;

export function runExitCode(status: RunOutcome["status"]): number {
  switch (status) {
    case "done":
      return RUN_EXIT.done;
    case "blocked":
      return RUN_EXIT.blocked;
    case "active":
      return RUN_EXIT.unfinished;
    default:
      return RUN_EXIT.failed;
  }
}

/**
 * `run`'s and `resume`'s end: drives the run with one worker until it stops,
 * riding out store outages, and prints how it ended; a plan changed under it
 * is reported as such.
 */
export async function driveAndPrint(
  command: "run" | "resume",
  store: Store,
  run: string,
  core: ConstructorParameters<typeof Worker>[0],
  options: WorkerOptions,
  o: { storeOutage: string; format: "text" | "json" },
): Promise<number> {
  const disarm = exitGuard(run);
  try {
    const beat = await heartbeatOf(store);
    const outcome = await ridingOutages(command, store, run, o.storeOutage, () =>
      new Worker(core, { onProgress: progressPrinter(), liveness: () => beat.liveness(), ...options }).run(),
    );
    return printOutcome(run, outcome, o.format, await failureReasons(store, run));
  } catch (err) {
    throw planMoved(run, err);
  } finally {
    disarm();
  }
}

export function printOutcome(
  run: string,
  outcome: RunOutcome,
  format: "text" | "json",
  failures: Array<{ unit: string; reason: string }> = [],
): number {
  if (format === "json") process.stdout.write(`${JSON.stringify({ run, ...outcome, failures }, null, 2)}\n`);
  else {
    const c = outcome.counts;
    process.stdout.write(
      `run ${run}: ${outcome.status} (${c.succeeded} succeeded, ${c.ready} ready, ${c.running} running, ${c.blocked} blocked, ${c.failed} failed)\n`,
    );
    for (const f of failures) process.stdout.write(`  failed ${f.unit}: ${f.reason}\n`);
    for (const b of outcome.blocked) process.stdout.write(`  blocked${b.unit ? ` ${b.unit}` : ""}: ${b.reason}: ${b.detail}\n`);
    for (const t of outcome.resumeTokens)
      process.stdout.write(
        `  approval requested for ${t.unit}: resume token ${t.token} (single use, expires ${t.expiresAt}); approve with \`taskspec approve ${run} ${t.unit} --token ${t.token}\`\n`,
      );
    if (outcome.status !== "done") process.stdout.write(`  next: taskspec status ${run}\n`);
  }
  return runExitCode(outcome.status);
}
