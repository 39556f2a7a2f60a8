/**
 * The vocabulary of fault drills: a case (where to crash, what must re-run),
 * a world (the remote services a handler module talks to, started fresh per
 * case and asked what happened there), what a case observed, and its verdict.
 */
import type { CrashPoint } from "../faults/crash-points.js";
import type { FinalArtifacts } from "./artifacts.js";

/** Recovery class of the tool a crash site is about; `none` = a unit that calls no tool. */
export type SiteClass = "read" | "idempotent" | "dedup" | "compensable" | "irreversible" | "none";

/** One armed crash: `TASKSPEC_CRASH_AT=<point>@<unit>[/<tool>]`. */
export interface CrashArm {
  point: CrashPoint;
  unit: string;
  tool?: string;
}

/** How the case drives the run once it is armed. */
export type Scenario =
  /** Run to the end, approving gates as a person would. */
  | "complete"
  /** Run to the first approval gate (or the end), then cancel: saga compensation. */
  | "cancel";

export interface DrillCase {
  /** Stable id, e.g. `publish-post/before-effect/publish/create_post`. */
  id: string;
  contract: string;
  scenario: Scenario;
  /** Crashes fired in this order, each in its own process (later ones arm the recovery of earlier ones). */
  crashes: CrashArm[];
  siteClass: SiteClass;
  /** Units that must run once more than in an uninterrupted run (the minimum re-run set). */
  expectedReruns: string[];
  /** One line for people: what the case proves. */
  description: string;
  /** A fault injected other than by a crash point (a paused worker, an edited contract, a corrupted file). */
  injection?: string;
}

/** What a world reports after a case: counted at the remote, never taken from our store. */
export interface WorldObservation {
  /** Effects by identity (a post under a key, a booking, a sent message) with how often the remote did them. */
  effects: Record<string, number>;
  /** The world state an uninterrupted run must also produce (compared as canonical JSON). */
  state: unknown;
  /** Writes the remote refused because they carried a stale fencing token. */
  fencingRefused?: number;
}

export interface RunningWorld {
  /** Environment for the worker processes (service URLs, directories). */
  env: Record<string, string>;
  observe(): Promise<WorldObservation>;
  stop(): Promise<void>;
}

/**
 * A drill world module (default export): starts what the handlers talk to in
 * `dir` (its own storage per case) and reports what happened there.
 */
export interface DrillWorld {
  start(dir: string): Promise<RunningWorld>;
}

/** One child process of a case. */
export interface StepRecord {
  action: "run" | "cancel" | "approve" | "resolve" | "race" | "rerun" | "budget" | "corrupt" | "fault" | "input";
  armed?: string;
  pid?: number;
  exit?: { code: number | null; signal: string | null };
  status?: string;
  note?: string;
}

export interface CaseObservation {
  steps: StepRecord[];
  /** Crash points that fired, in order (read from the killed workers' own words). */
  fired: string[];
  finalStatus: string;
  /** The last failure the event log recorded (attempt, unit or task.done), for a run that did not end as expected. */
  lastFailure?: string;
  /** Handler invocations (attempts) per unit, counted by the drill's wrapper in the worker. */
  invocations: Record<string, number>;
  /** Units that ran more often than in the uninterrupted run. */
  reruns: string[];
  /** Of those, units whose earlier attempt had already committed (unit-succeeded) before the re-run. */
  rerunCommitted: string[];
  duplicateEffects: number;
  duplicates: string[];
  worldMatches: boolean;
  worldDiff?: string;
  /** The final artifacts (per unit, name and sha256 from the manifests) equal the uninterrupted run's. */
  artifactsMatch: boolean;
  /** How they differ, one line per unit/artifact (empty when they match). */
  artifactDiffs: string[];
  /** Units left out of that comparison: a person settled an effect of theirs (or upstream) committed, so they saw the person's record, not the lost receipt. */
  artifactsNotCompared?: string[];
  fencingRefused: number;
  /** Files of crashed attempts reported as orphans (never current). */
  orphansReported: number;
  /** Current artifacts that no committed attempt of theirs produced. */
  orphansAdopted: string[];
  /** Decisions the event log does not explain. */
  unexplained: string[];
  error?: string;
}

export type Verdict = "PASS" | "FAIL";

export interface CaseResult {
  case: DrillCase;
  observation: CaseObservation;
  verdict: Verdict;
  /** Why it failed (empty on PASS). */
  reasons: string[];
  ms: number;
  /**
   * With `--repeat K`: the case ran K times with timing seeds 1..K and passes
   * only if all K runs passed (pass^K). `observation` is the first failing
   * run's (else the last), `reasons` name the seed of each failing run.
   */
  repeats?: { k: number; passed: number; failedSeeds: number[] };
}

export interface DrillReport {
  contract: string;
  results: CaseResult[];
  /** The uninterrupted run every case is compared with. */
  baseline: { invocations: Record<string, number>; status: string; ms: number; artifacts: FinalArtifacts };
}
