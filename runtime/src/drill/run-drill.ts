/**
 * Runs a drill: an uninterrupted baseline per scenario (its end status, world
 * and final artifacts are what every case must match), then every case in its
 * own sandbox (store, artifacts, invocation log, and a fresh world with its
 * own remote storage), a few at a time. Each case ends with a verdict.
 */
import { existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import type { Plan } from "@taskspec/compiler";
import { drive, makeSandbox, stopChildren, withStore, type DriveOptions, type DriveResult, type Sandbox } from "./driver.js";
import { finalArtifacts, type FinalArtifacts } from "./artifacts.js";
import { enumerateCases } from "./enumerate.js";
import { attemptsPerUnit, observeCase, readInvocationLog } from "./observe.js";
import type { CaseObservation, CaseResult, DrillCase, DrillReport, DrillWorld, RunningWorld, Scenario, WorldObservation } from "./types.js";
import { judge } from "./verdict.js";

export interface DrillSetup {
  contract: string;
  /**
   * The compiled contract. The caller loads it (`taskspec drill` with the
   * loadPlanToRun of `taskspec run`), so a drill runs the very plan `run` would.
   */
  plan: Plan;
  handlers: string;
  /** The tools module (`--tools`), when the handler module holds only the units. */
  tools?: string;
  /** The verifier module (model/human verifiers), when the contract has any. */
  verifiers?: string;
  world?: DrillWorld;
  /** Where sandboxes go (default: /dev/shm when present — a process crash keeps the page cache, so tmpfs is faithful — else the temp dir). */
  workDir?: string;
  run?: string;
  /** Keep the sandboxes (for a person to look at). */
  keep?: boolean;
  /** How long one case (or a baseline) may run before it is stopped and fails; default 10 minutes. */
  caseTimeoutMs?: number;
}

export const DEFAULT_CASE_TIMEOUT_MS = 10 * 60_000;

/**
 * Drives `sb` within the setup's case timeout: past it, the case's processes
 * are killed and it fails saying so, where a hung step would hold the drill
 * (and a CI job) forever.
 */
async function driveWithin(setup: DrillSetup, sb: Sandbox, o: DriveOptions): Promise<DriveResult> {
  const ms = setup.caseTimeoutMs ?? DEFAULT_CASE_TIMEOUT_MS;
  const driving = drive(sb, o);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const why = `the case ran past its timeout of ${formatMs(ms)} (a step hung: its processes were killed)`;
      stopChildren(sb, why);
      reject(new Error(why));
    }, ms);
  });
  driving.catch(() => {}); // once stopped, the drive's own end is of no interest
  try {
    return await Promise.race([driving, late]);
  } finally {
    clearTimeout(timer);
  }
}

const formatMs = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);

export interface Baseline {
  scenario: Scenario;
  status: string;
  invocations: Record<string, number>;
  world: WorldObservation;
  /** What the run produced: each case must end with the same (per unit, artifact names and sha256). */
  artifacts: FinalArtifacts;
  /** Set by a case that changes what the run produces on purpose (an edited contract or source): why its artifacts are not compared. */
  artifactsNotCompared?: string;
  ms: number;
}

export const NO_WORLD: DrillWorld = {
  start: async () => ({ env: {}, observe: async () => ({ effects: {}, state: null }), stop: async () => {} }),
};

export function contractName(file: string): string {
  return basename(file).replace(/\.(task\.ya?ml|ya?ml|json)$/, "");
}

export function defaultWorkDir(): string {
  return existsSync("/dev/shm") ? "/dev/shm" : tmpdir();
}

/** Runs `fn` in a fresh sandbox with a freshly started world; always stops the world and (unless kept) removes the sandbox. */
export async function inSandbox<T>(setup: DrillSetup, fn: (sb: Sandbox, world: RunningWorld) => Promise<T>): Promise<T> {
  const parent = join(setup.workDir ?? defaultWorkDir(), "taskspec-drill");
  const sb = makeSandbox(parent, {
    run: setup.run ?? contractName(setup.contract),
    contract: resolve(setup.contract),
    plan: setup.plan,
    handlers: resolve(setup.handlers),
    ...(setup.tools ? { tools: resolve(setup.tools) } : {}),
    ...(setup.verifiers ? { verifiers: resolve(setup.verifiers) } : {}),
  });
  const world = await (setup.world ?? NO_WORLD).start(join(sb.dir, "world"));
  sb.env = { ...world.env, ...sb.env };
  try {
    return await fn(sb, world);
  } finally {
    await world.stop();
    if (!setup.keep) rmSync(sb.dir, { recursive: true, force: true });
  }
}

export async function runBaseline(setup: DrillSetup, scenario: Scenario): Promise<Baseline> {
  const t0 = Date.now();
  return inSandbox(setup, async (sb, world) => {
    const driven = await driveWithin(setup, sb, { crashes: [], scenario });
    if (driven.finalStatus !== "done" && driven.finalStatus !== "cancelled") {
      throw new Error(
        `the uninterrupted ${scenario} run of ${setup.contract} ended ${driven.finalStatus}; a drill needs a run that succeeds without faults first`,
      );
    }
    return {
      scenario,
      status: driven.finalStatus,
      invocations: attemptsPerUnit(readInvocationLog(sb.log)),
      world: await world.observe(),
      artifacts: await withStore(sb, async (store) => finalArtifacts(await store.getRecords(sb.run), await store.listArtifacts(sb.run))),
      ms: Date.now() - t0,
    };
  });
}

/** Observes and judges a driven case against its baseline. */
export async function concludeCase(
  c: DrillCase,
  sb: Sandbox,
  world: RunningWorld,
  driven: DriveResult,
  baseline: Baseline,
  t0: number,
): Promise<CaseResult> {
  const observation: CaseObservation = await observeCase(sb, driven, await world.observe(), baseline);
  const { verdict, reasons } = judge(c, observation, baseline.status, driven.unfired);
  return { case: c, observation, verdict, reasons, ms: Date.now() - t0 };
}

function errored(c: DrillCase, err: unknown, t0: number): CaseResult {
  const message = err instanceof Error ? err.message : String(err);
  const observation: CaseObservation = {
    steps: [],
    fired: [],
    finalStatus: "error",
    invocations: {},
    reruns: [],
    rerunCommitted: [],
    duplicateEffects: 0,
    duplicates: [],
    worldMatches: false,
    artifactsMatch: false,
    artifactDiffs: [],
    fencingRefused: 0,
    orphansReported: 0,
    orphansAdopted: [],
    unexplained: [],
    error: message,
  };
  return { case: c, observation, verdict: "FAIL", reasons: [`drill error: ${message}`], ms: Date.now() - t0 };
}

/** One case of the matrix: drive it with its crashes, then judge it. A drill error is a FAIL, never a crash of the drill. */
export async function runCase(setup: DrillSetup, c: DrillCase, baseline: Baseline, extra: Partial<DriveOptions> = {}): Promise<CaseResult> {
  const t0 = Date.now();
  try {
    return await inSandbox(setup, async (sb, world) =>
      concludeCase(c, sb, world, await driveWithin(setup, sb, { crashes: c.crashes, scenario: c.scenario, ...extra }), baseline, t0),
    );
  } catch (err) {
    return errored(c, err, t0);
  }
}

/**
 * pass^K: the case run `k` times with timing seeds 1..k; it passes only if
 * every run passed. Runs are sequential (each has its own sandbox and world).
 */
export async function repeatCase(
  setup: DrillSetup,
  c: DrillCase,
  baseline: Baseline,
  k: number,
  extra: Partial<DriveOptions> = {},
): Promise<CaseResult> {
  if (k <= 1) return runCase(setup, c, baseline, extra);
  const runs: CaseResult[] = [];
  for (let seed = 1; seed <= k; seed++) runs.push(await runCase(setup, c, baseline, { ...extra, seed }));
  return combineRepeats(runs);
}

/** One result from K runs of a case (seed i+1 for run i): PASS only if all passed. */
export function combineRepeats(runs: readonly CaseResult[]): CaseResult {
  const failedSeeds = runs.flatMap((r, i) => (r.verdict === "PASS" ? [] : [i + 1]));
  const shown = runs.find((r) => r.verdict !== "PASS") ?? runs[runs.length - 1]!;
  return {
    ...shown,
    verdict: failedSeeds.length === 0 ? "PASS" : "FAIL",
    reasons: runs.flatMap((r, i) => r.reasons.map((reason) => `seed ${i + 1}: ${reason}`)),
    ms: runs.reduce((sum, r) => sum + r.ms, 0),
    repeats: { k: runs.length, passed: runs.length - failedSeeds.length, failedSeeds },
  };
}

/** Maps with at most `n` in flight, keeping input order. */
export async function pool<T, R>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, lane));
  return out;
}

export interface RunDrillOptions extends DrillSetup {
  /** Cases run at once (default 2). */
  parallel?: number;
  /** Only cases whose id contains one of these. */
  only?: string[];
  /** Runs per case with different timing seeds; a case passes only if all pass (pass^K). Default 1. */
  repeat?: number;
  onCase?: (r: CaseResult) => void;
}

export async function runDrill(o: RunDrillOptions): Promise<DrillReport> {
  const plan = o.plan;
  const name = contractName(o.contract);
  const cases = enumerateCases(plan, name).filter((c) => !o.only?.length || o.only.some((s) => c.id.includes(s)));
  const scenarios = [...new Set(["complete" as Scenario, ...cases.map((c) => c.scenario)])];
  const baselines = new Map<Scenario, Baseline>();
  for (const s of scenarios) baselines.set(s, await runBaseline(o, s));
  const results = await pool(cases, o.parallel ?? 2, async (c) => {
    const r = await repeatCase(o, c, baselines.get(c.scenario)!, o.repeat ?? 1);
    o.onCase?.(r);
    return r;
  });
  const b = baselines.get("complete")!;
  return { contract: name, results, baseline: { invocations: b.invocations, status: b.status, ms: b.ms, artifacts: b.artifacts } };
}
