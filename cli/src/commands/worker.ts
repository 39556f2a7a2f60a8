/**
 * `taskspec worker --store postgres://... [--run ID] [--concurrency N]
 * [--queue NAME ...] [--queue-limit NAME=N ...] [--slice DURATION]`: a
 * long-running worker for a shared store. It serves the work queue across
 * runs: it visits the active runs (or the one given) in the fair order of
 * runtime scheduler/run-queue.ts, several at once, sharing its `--concurrency`
 * unit slots between them, each visit driving one run with the runtime's
 * Worker (claims with fencing tokens, renews leases while handlers run) for
 * at most `--slice` while other runs wait, then yielding (no new claims, its
 * attempts settle). It is woken by submissions (PostgreSQL LISTEN/NOTIFY,
 * `taskspec submit`) and polls as well (`--poll`; SQLite only polls). A run
 * that was skipped rests one `--poll` before its next visit; a run that ended
 * blocked (waiting for a person) is not visited again while nothing is written
 * for it, up to `--recheck` (runtime scheduler/visit-rest.ts). Each run is driven with the contract, handler
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
  type ActiveRun,
  type RunRow,
  type RunOutcome,
  mayVisit,
  restAfterVisit,
  runMark,
  type VisitRest,
  type QueuedRun,
  DEFAULT_QUEUE,
  importedRunRefusal,
  nextVisits,
  type Store,
} from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { concurrencyOption, leaseTtlOption, storeOutageOption, type IsolationOptions, addRunConfigOptions } from "./worker-options.js";
import {
  ArtifactBackends,
  loadRunCode,
  modelAdapter,
  loadPlanToRun,
  loadVerifiers,
  collect,
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
import { configureHeartbeat, heartbeatOf } from "./worker-heartbeat.js";

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
  slice: string;
  recheck: string;
  queue?: string[];
  queueLimit?: string[];
  exitWhenIdle?: boolean;
  storeOutage: string;
}

/** `--queue-limit NAME=N` values; a malformed one is bad usage. */
function queueLimitsOf(specs: readonly string[] = []): Record<string, number> {
  const limits: Record<string, number> = {};
  for (const spec of specs) {
    const m = /^([^=]+)=(\d+)$/.exec(spec);
    if (!m || Number(m[2]) < 1) throw new UserError(`--queue-limit ${spec}: expected NAME=N with N at least 1`, 2);
    limits[m[1]!] = Number(m[2]);
  }
  return limits;
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
    .option("--slice <duration>", "longest visit of one run while other runs wait (then its slots go to them)", "5s")
    .option("--recheck <duration>", "longest a run waiting for a person goes unvisited while nothing is written for it", "15m")
    .option("--queue <name>", "serve only this work queue (repeatable; default: every queue)", collect)
    .option("--queue-limit <name=n>", "runs of a queue this worker visits at once (repeatable)", collect)
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
  const sliceMs = parseDuration(o.slice, "--slice");
  const recheckMs = parseDuration(o.recheck, "--recheck");
  configureHeartbeat(o);
  const queueLimits = queueLimitsOf(o.queueLimit);
  const served = o.queue?.length ? new Set(o.queue) : undefined;
  const stop = new AbortController();
  // a wake-up asked for while the loop was busy is kept, not lost
  let woken = false;
  let wakeNow: () => void = () => undefined;
  const wake = () => ((woken = true), wakeNow());
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
      /** Visits in progress: the run's queue, its slots, and how to end the visit. */
      const visiting = new Map<string, { queue: string; slots: number; end: AbortController; done: Promise<void> }>();
      const lastVisit = new Map<string, number>();
      /** Runs resting after a visit (blocked, skipped): visited again as visit-rest.ts says. */
      const rests = new Map<string, VisitRest>();
      const skippedRuns = new Set<string>();
      let waitingRuns = 0;
      let visitError: unknown;
      // registered before any run is driven: an idle worker is a live one in `taskspec workers`
      await heartbeatOf(store);
      const unlisten = await store.onWork(wake);

      const startVisit = (r: ActiveRun, queue: string, slots: number) => {
        lastVisit.set(r.run, Date.now());
        const end = new AbortController();
        const onStop = () => end.abort();
        stop.signal.addEventListener("abort", onStop);
        // the slice ends the visit only while other runs wait for a slot
        const slice = setInterval(() => waitingRuns > 0 && end.abort(), sliceMs);
        const visit = async () => {
          if (unrecorded.length > 0) {
            const at = new Date().toISOString();
            const outages = unrecorded;
            unrecorded = [];
            await store.appendEvents(
              r.run,
              outages.map((x) => ({ at, type: "store-outage", data: { ...x, worker: workerName() } })),
            );
          }
          const ended = await driveRunReloading(store, r, slots, leaseTtlMs, end.signal, o.run, o.verifiers, o, backends);
          if (ended === "skipped") skippedRuns.add(r.run);
          else skippedRuns.delete(r.run);
          // the mark after a blocked visit: only then may it be trusted (visit-rest.ts)
          const after = ended === "blocked" ? (await store.activeRuns()).find((x) => x.run === r.run) : undefined;
          const rest = restAfterVisit({
            end: ended,
            sliced: end.signal.aborted,
            before: runMark(r),
            after: after && !after.hold ? runMark(after) : undefined,
            nowMs: Date.now(),
            pollMs,
            recheckMs,
          });
          if (rest) rests.set(r.run, rest);
          else rests.delete(r.run);
        };
        const done = visit()
          .catch((err: unknown) => void (visitError ??= err))
          .finally(() => {
            clearInterval(slice);
            stop.signal.removeEventListener("abort", onStop);
            visiting.delete(r.run);
            wake();
          });
        visiting.set(r.run, { queue, slots, end, done });
      };

      const pass = async (): Promise<number | undefined> => {
        if (visitError !== undefined) {
          const err = visitError;
          visitError = undefined;
          throw err instanceof Error ? err : new Error(String(err));
        }
        const runs = await runsToWork(store, o.run);
        if (outage) {
          const ms = Date.now() - outage.startedAt;
          process.stderr.write(`taskspec worker: the store is back after ${ms} ms (${outage.waits} wait(s)); carrying on\n`);
          unrecorded.push({ startedAt: new Date(outage.startedAt).toISOString(), ms, waits: outage.waits });
          outage = undefined;
        }
        if (o.run && runs.length === 0 && visiting.size === 0) {
          const r = await store.getRun(o.run);
          if (!r) throw new UserError(`no run ${o.run} in this store`, 2);
          process.stdout.write(`run ${r.run}: ${r.status}\n`);
          return r.status === "done" ? 0 : 1;
        }
        // every active run is one this worker cannot load: idle as far as it is concerned
        if (o.exitWhenIdle && visiting.size === 0 && runs.every((r) => skippedRuns.has(r.run))) return 0;
        if (stop.signal.aborted) return undefined;
        const now = Date.now();
        const queueOf = (r: RunRow) => r.origin.queue ?? DEFAULT_QUEUE;
        const ready = runs.filter((r) => (!served || served.has(queueOf(r))) && mayVisit(rests.get(r.run), runMark(r), now));
        const byRun = new Map(ready.map((r) => [r.run, r]));
        const queued: QueuedRun[] = ready.map((r) => ({
          run: r.run,
          queue: queueOf(r),
          ...(r.origin.queueKey !== undefined ? { key: r.origin.queueKey } : {}),
          priority: r.origin.priority ?? 0,
          ...(r.origin.maxParallel ? { runLimit: r.origin.maxParallel } : {}),
          submittedAt: r.createdAt,
        }));
        const starts = nextVisits({
          ready: queued,
          visiting: [...visiting].map(([run, v]) => ({ run, queue: v.queue, slots: v.slots })),
          lastVisit,
          concurrency,
          queueLimits,
        });
        for (const v of starts) startVisit(byRun.get(v.run)!, queueOf(byRun.get(v.run)!), v.slots);
        waitingRuns = queued.filter((q) => !visiting.has(q.run)).length;
        return undefined;
      };
      try {
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
          if (stop.signal.aborted) break;
          if (!woken) {
            let timer: NodeJS.Timeout | undefined;
            await new Promise<void>((resolve) => ((wakeNow = resolve), (timer = setTimeout(resolve, waitMs))));
            clearTimeout(timer); // woken early: the timer must not hold the process when it exits
          }
          woken = false;
          wakeNow = () => undefined;
        }
        return 0;
      } finally {
        // stopping (or leaving with an error): the visits stop claiming and their attempts settle first
        for (const v of visiting.values()) v.end.abort();
        await Promise.all([...visiting.values()].map((v) => v.done));
        await unlisten();
      }
    });
  } finally {
    await backends.close();
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  }
}

/** Active runs without a run-wide hold (a held run waits for a person, not for a worker). */
async function runsToWork(store: Store, only: string | undefined): Promise<ActiveRun[]> {
  const runs = (await store.activeRuns()).filter((r) => !r.hold && (!only || r.run === only));
  const imported = only ? runs.find((r) => r.origin.imported) : undefined;
  if (imported) throw new UserError(importedRunRefusal(imported)!, 1);
  // an imported run is a copy to read: no worker of this store drives it
  return runs.filter((r) => !r.origin.imported);
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

/** How a visit ended: the run's outcome (`active`: the visit was told to end), or skipped (this worker cannot load it). */
type VisitEnd = RunOutcome["status"] | "skipped";

type DriveOptions = Parameters<typeof driveRun> extends [Store, RunRow, ...infer R] ? R : never;

/** Drives the run; when its plan changes meanwhile, reads the run again and drives it with the contract it records now. */
async function driveRunReloading(store: Store, first: RunRow, ...rest: DriveOptions): Promise<VisitEnd> {
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
      if (!again || again.status !== "active" || again.hold) return again?.status ?? "cancelled";
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
): Promise<VisitEnd> {
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
    const plan = loadPlanToRun(contract);
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
): Promise<VisitEnd> {
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
  const beat = await heartbeatOf(store);
  const outcome = await new Worker(core, { concurrency, stop, planVersionRead: r.planVersion, liveness: () => beat.liveness() }).run();
  const c = outcome.counts;
  process.stderr.write(
    `taskspec worker: run ${r.run}: ${outcome.status} (${c.succeeded} succeeded, ${c.running} running elsewhere, ${c.blocked} blocked, ${c.failed} failed)\n`,
  );
  return outcome.status;
}

/** An error's first line, bounded: what `runs` and `status` show for a skipped run. */
function skipReasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const first = message.split("\n").find((l) => l.trim() !== "") ?? message;
  return first.length > 500 ? `${first.slice(0, 500)}…` : first;
}
