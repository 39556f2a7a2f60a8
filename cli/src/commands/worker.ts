/**
 * `taskspec worker --store postgres://... [--run ID] [--concurrency N]`: a
 * long-running worker for a shared store. It picks every active run (or the
 * one given), drives it with the runtime's Worker (claims with fencing tokens,
 * renews leases while handlers run, waits for units leased by other live
 * workers), then polls for more. Each run is driven with the contract, handler
 * module and tools module (unless --tools names another) the run recorded
 * when it was started, so they must be reachable at the same paths on every
 * host; its artifacts are where the run records them (a directory that must
 * then be the same shared mount everywhere, or `pg:` / `s3://`, which need no
 * shared disk). Each artifact backend is opened once per worker process.
 *
 * A run whose plan changes while it is driven (`resume --contract`) is driven
 * again at once with the contract the run records then: the attempts this
 * worker had in flight under the old plan are discarded, never committed.
 *
 * A store outage (the store's own retries give up after about 0.35 s) is
 * ridden out: the worker backs off and carries on for up to --store-outage,
 * saying so on stderr, and records each outage as a `store-outage` event in
 * the runs it drives afterwards (`status` shows the last one).
 *
 * SIGTERM/SIGINT: nothing new is claimed, the attempts in flight finish and
 * commit (releasing their leases), then it exits 0; a second signal exits at
 * once, and the leases it held are taken over after they expire (the crash path).
 */
import { type Command } from "commander";
import type { Plan } from "@taskspec/compiler";
import {
  engineCore,
  newOwner,
  isStoreUnavailable,
  PlanVersionChangedError,
  runSkippedEvent,
  skipToRecord,
  recordToolsModule,
  recordVerifierModule,
  VersionConflictError,
  Worker,
  type ArtifactStorage,
  type RunRow,
  type Store,
} from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { concurrencyOption, leaseTtlOption, storeOutageOption, type IsolationOptions, addRunConfigOptions } from "./worker-options.js";
import {
  ArtifactBackends,
  loadRunCode,
  modelAdapter,
  loadPlan,
  loadVerifiers,
  parseCount,
  parseDuration,
  recordIsolation,
  STORE_HELP,
  takeOperatorKeyFileEnv,
  VERIFIERS_HELP,
  withStore,
  type RunCode,
} from "./run-support.js";
import { startWithCodeChanges } from "./code-changes.js";
import { nextOutageStep, type OutageState } from "./store-outage.js";
import { storeClockOf } from "./store-clock.js";

let workerId: string | undefined;
/** This worker process's id in the events it records: unique per process start (runtime engine/owner.ts). */
const workerName = () => (workerId ??= newOwner());

interface WorkerOptions extends IsolationOptions {
  store?: string;
  run?: string;
  verifiers?: string;
  concurrency: string;
  leaseTtl: string;
  poll: string;
  exitWhenIdle?: boolean;
  storeOutage: string;
}

export function register(program: Command): void {
  addRunConfigOptions(
    program
      .command("worker")
      .description("Work on the runs of a shared store (postgres://...) until stopped: claim ready units, renew leases, commit.")
      .option("--store <url>", STORE_HELP)
      .option("--run <id>", "work on this run only, and exit when it is no longer active")
      .option("--verifiers <module>", `${VERIFIERS_HELP} (default: each run's recorded one)`)
      .addOption(concurrencyOption())
      .addOption(leaseTtlOption()),
  )
    .option("--poll <duration>", "how often to look for work when there is none", "2s")
    .option("--exit-when-idle", "exit once no run this worker can load is active (batch jobs, tests)")
    .addOption(storeOutageOption())
    .action(async (o: WorkerOptions) => {
      process.exitCode = await workerCommand(o);
    });
}

async function workerCommand(o: WorkerOptions): Promise<number> {
  takeOperatorKeyFileEnv(); // handlers in this process (--isolation none) must not find an operator key's file
  const concurrency = parseCount(o.concurrency, "--concurrency", 10_000);
  const pollMs = parseDuration(o.poll, "--poll");
  const leaseTtlMs = parseDuration(o.leaseTtl, "--lease-ttl");
  const outageMs = parseDuration(o.storeOutage, "--store-outage");
  const stop = new AbortController();
  let wake: () => void = () => undefined;
  const onSignal = () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
    process.stderr.write("taskspec worker: stopping: no new claims, finishing the attempts in flight (signal again to exit now)\n");
    wake();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  const backends = new ArtifactBackends(o.store);
  try {
    return await withStore(o.store, async (store) => {
      let outage: OutageState | undefined;
      /** Outages this worker rode out, recorded in each run it drives next (`status` shows them). */
      let unrecorded: Array<{ startedAt: string; ms: number; waits: number }> = [];
      const pass = async (): Promise<number | undefined> => {
        const runs = await runsToWork(store, o.run);
        if (outage) {
          const ms = Date.now() - outage.startedAt;
          process.stderr.write(`taskspec worker: the store is back after ${ms} ms (${outage.waits} wait(s)); carrying on\n`);
          unrecorded.push({ startedAt: new Date(outage.startedAt).toISOString(), ms, waits: outage.waits });
          outage = undefined;
        }
        if (o.run && runs.length === 0) {
          const r = await store.getRun(o.run);
          if (!r) throw new UserError(`no run ${o.run} in this store`, 2);
          process.stdout.write(`run ${r.run}: ${r.status}\n`);
          return r.status === "done" ? 0 : 1;
        }
        if (runs.length === 0 && o.exitWhenIdle) return 0;
        let skipped = 0;
        for (const r of runs) {
          if (stop.signal.aborted) break;
          if (unrecorded.length > 0) {
            const at = new Date().toISOString();
            await store.appendEvents(
              r.run,
              unrecorded.map((x) => ({ at, type: "store-outage", data: { ...x, worker: workerName() } })),
            );
            unrecorded = [];
          }
          if ((await driveRunReloading(store, r, concurrency, leaseTtlMs, stop.signal, o.run, o.verifiers, o, backends)) === "skipped")
            skipped++;
        }
        // every active run is one this worker cannot load: idle as far as it is concerned
        if (o.exitWhenIdle && skipped === runs.length && !stop.signal.aborted) return 0;
        return undefined;
      };
      while (!stop.signal.aborted) {
        let waitMs = pollMs;
        try {
          const done = await pass();
          if (done !== undefined) return done;
        } catch (err) {
          if (!isStoreUnavailable(err)) throw err;
          const step = nextOutageStep(outage, Date.now(), outageMs, Math.random);
          if (step.waitMs === undefined) {
            process.stderr.write(
              `taskspec worker: the store has been unreachable for ${step.elapsedMs} ms (bound ${o.storeOutage}); giving up\n`,
            );
            throw err;
          }
          outage = step.state;
          waitMs = step.waitMs;
          process.stderr.write(
            `taskspec worker: store unavailable (${err instanceof Error ? err.message : String(err)}); backing off ${waitMs} ms (outage ${step.elapsedMs} ms so far, bound ${o.storeOutage})\n`,
          );
        }
        if (!stop.signal.aborted) await new Promise<void>((resolve) => ((wake = resolve), setTimeout(resolve, waitMs)));
      }
      return 0;
    });
  } finally {
    await backends.close();
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
}

/** Active runs without a run-wide hold (a held run waits for a person, not for a worker). */
async function runsToWork(store: Store, only: string | undefined): Promise<RunRow[]> {
  const runs = only ? [await store.getRun(only)].filter((r): r is RunRow => r !== undefined) : await store.listRuns();
  return runs.filter((r) => r.status === "active" && !r.hold);
}

/** The skips this worker recorded (operator/skipped.ts): recorded again only when they no longer stand. */
const skips = new Map<string, { reason: string; at: string }>();

/** A run this worker cannot load is someone's mistake to fix, not a reason to stop serving the others. */
async function recordSkip(store: Store, r: RunRow, reason: string): Promise<void> {
  if (!skipToRecord(skips.get(r.run), reason, r.lastProgressAt)) return;
  const at = new Date().toISOString();
  process.stderr.write(`taskspec worker: run ${r.run} skipped: ${reason}\n`);
  await store.appendEvents(r.run, [runSkippedEvent(workerName(), reason, at)]);
  skips.set(r.run, { reason, at });
}
/** Runs whose `isolation` event this worker has recorded. */
const isolationRecorded = new Set<string>();

type DriveOptions = Parameters<typeof driveRun> extends [Store, RunRow, ...infer R] ? R : never;

/** Drives the run; when its plan changes meanwhile, reads the run again and drives it with the contract it records now. */
async function driveRunReloading(store: Store, first: RunRow, ...rest: DriveOptions): Promise<"served" | "skipped"> {
  let r = first;
  for (;;) {
    try {
      return await driveRun(store, r, ...rest);
    } catch (err) {
      if (!(err instanceof PlanVersionChangedError)) throw err;
      process.stderr.write(
        `taskspec worker: run ${r.run} moved to plan ${err.current} (this worker held ${err.held}); reloading its contract\n`,
      );
      const again = await store.getRun(r.run);
      if (!again || again.status !== "active" || again.hold) return "served";
      r = again;
    }
  }
}

async function driveRun(
  store: Store,
  r: RunRow,
  concurrency: number,
  leaseTtlMs: number,
  stop: AbortSignal,
  only: string | undefined,
  verifiersFlag: string | undefined,
  isolation: IsolationOptions,
  backends: ArtifactBackends,
): Promise<"served" | "skipped"> {
  const { contract, handlers: handlersPath } = r.origin;
  if (!contract || !handlersPath) {
    const reason = `no recorded contract/handlers (drive it with \`taskspec resume ${r.run} --contract ... --handlers ...\`)`;
    if (only) throw new UserError(`run ${r.run}: ${reason}`, 2);
    await recordSkip(store, r, reason);
    return "skipped";
  }
  let loaded;
  try {
    // the contract, the handler module (probed, or imported without a tools module), the tools module,
    // the verifier module, the artifacts: any of them failing to load refuses the run whole, before any claim
    const plan = loadPlan(contract);
    const runCode = await loadRunCode(plan, isolation, { contract, handlers: handlersPath, tools: isolation.tools ?? r.origin.tools });
    const verifiers = await loadVerifiers(plan, verifiersFlag ?? r.origin.verifiers, handlersPath);
    loaded = { plan, ...runCode, verifiers, storage: await backends.get(r.origin.artifactRoot) };
  } catch (err) {
    if (isStoreUnavailable(err)) throw err;
    if (only && err instanceof UserError) throw new UserError(`run ${r.run}: ${err.message}`, err.exitCode);
    if (only) throw err;
    await recordSkip(store, r, skipReasonOf(err));
    return "skipped";
  }
  try {
    return await driveLoaded(store, r, loaded, concurrency, leaseTtlMs, stop, isolation);
  } finally {
    await loaded.close();
  }
}

async function driveLoaded(
  store: Store,
  r: RunRow,
  loaded: RunCode & { plan: Plan; verifiers: Awaited<ReturnType<typeof loadVerifiers>>; storage: ArtifactStorage },
  concurrency: number,
  leaseTtlMs: number,
  stop: AbortSignal,
  isolation: IsolationOptions,
): Promise<"served"> {
  const contract = r.origin.contract!;
  const { plan, handlers, code, tools, runner, handlerImport, verifiers, storage } = loaded;
  await recordToolsModule(store, r.run, tools, new Date().toISOString());
  await recordVerifierModule(store, r.run, verifiers, new Date().toISOString());
  try {
    await startWithCodeChanges(store, r.run, plan, handlers, code);
  } catch (err) {
    // another worker applied the same re-run first: its checkpoint stands, this one drives the run as it is now
    if (!(err instanceof VersionConflictError)) throw err;
  }
  const model = modelAdapter(isolation);
  // once per run and worker process, not at every poll
  if (!isolationRecorded.has(r.run)) await recordIsolation(store, r.run, runner, handlerImport);
  isolationRecorded.add(r.run);
  const core = engineCore({
    clock: await storeClockOf(store),
    ...(runner ? { runner } : {}),
    ...(model ? { model } : {}),
    store,
    plan,
    handlers,
    ...(code ? { code } : {}),
    ...(verifiers ? { verifiers } : {}),
    run: r.run,
    artifacts: storage,
    contractFile: contract,
    leaseTtlMs,
    log: () => undefined,
  });
  // the plan changes only from the version read with the contract: never back to an older one recorded before it
  const outcome = await new Worker(core, { concurrency, stop, planVersionRead: r.planVersion }).run();
  const c = outcome.counts;
  process.stderr.write(
    `taskspec worker: run ${r.run}: ${outcome.status} (${c.succeeded} succeeded, ${c.running} running elsewhere, ${c.blocked} blocked, ${c.failed} failed)\n`,
  );
  return "served";
}

/** An error's first line, bounded: what `runs` and `status` show for a skipped run. */
function skipReasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const first = message.split("\n").find((l) => l.trim() !== "") ?? message;
  return first.length > 500 ? `${first.slice(0, 500)}…` : first;
}
