/**
 * What a case left behind, gathered from three places that do not vouch for
 * each other: the drill's own invocation log (written by the wrapper in the
 * worker), the remote services (through the world), and the store's event
 * log, artifact manifests and files on disk (for orphans, explanations and
 * the final artifacts compared with the uninterrupted run's).
 */
import { existsSync, readFileSync } from "node:fs";
import { FsArtifactStorage } from "../artifacts/storage.js";
import type { RunEvent } from "../model/facts.js";
import { canonicalJson } from "../model/identity.js";
import type { Plan } from "@taskspec/compiler";
import { artifactDifferences, finalArtifacts, personSettledUnits, type FinalArtifacts } from "./artifacts.js";
import type { Invocation } from "./child.js";
import { withStore, type DriveResult, type Sandbox } from "./driver.js";
import type { CaseObservation, WorldObservation } from "./types.js";

export function readInvocationLog(file: string): Invocation[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Invocation);
}

/** Attempts per unit (loop iterations of one attempt count once). */
export function attemptsPerUnit(log: readonly Invocation[]): Record<string, number> {
  const seen = new Set<string>();
  const out: Record<string, number> = {};
  for (const i of log) {
    const k = `${i.unit}/${i.attempt}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out[i.unit] = (out[i.unit] ?? 0) + 1;
  }
  return out;
}

/** Events that end an attempt, one way or another. */
const ENDS = new Set([
  "unit-succeeded",
  "attempt-abandoned",
  "attempt-failed",
  "attempt-interrupted",
  "attempt-blocked",
  "stale-attempt-discarded",
  "attempt-discarded",
  "stale-commit-rejected",
  "unit-failed",
]);
/** Events that settle an effect the ledger started. */
const SETTLES = new Set(["effect-committed", "effect-reconciled", "effect-failed", "decision", "compensation-verified"]);

/** An event that says why `unit`'s completed record was superseded: the engine's, stale evidence, or an operator's decision. */
function supersedes(e: RunEvent, unit: string): boolean {
  const data = (e.data ?? {}) as { units?: string[]; invalidate?: string[] };
  if (e.type === "superseded" || e.type === "artifact-corrupt") return e.unit === unit;
  if (e.type === "stale-evidence-dropped") return (data.units ?? []).includes(unit);
  return e.type === "decision" && (data.invalidate ?? []).includes(unit);
}

/** Decisions the event log does not account for (an empty list: every decision is explained). */
export function unexplained(
  events: readonly RunEvent[],
  log: readonly Invocation[],
  effects: ReadonlyArray<{ id: string; unit: string; state: string }>,
  superseded: readonly string[],
  runStatus: string,
): string[] {
  const out: string[] = [];
  const attempts = new Set(log.map((i) => `${i.unit}/${i.attempt}`));
  for (const a of attempts) {
    const [unit, n] = a.split("/") as [string, string];
    if (!events.some((e) => e.unit === unit && e.attempt === Number(n) && ENDS.has(e.type)))
      out.push(`${unit} a${n}: no event says how this attempt ended`);
  }
  for (const e of events) {
    if (
      e.type === "lease-broken" &&
      !events.some((x) => (x.seq ?? 0) > (e.seq ?? 0) && x.type === "attempt-abandoned" && x.unit === e.unit && x.attempt === e.attempt)
    ) {
      out.push(`${e.unit} a${e.attempt}: lease broken but the attempt is not recorded as abandoned`);
    }
  }
  for (const f of effects) {
    if (f.state === "UNKNOWN" || f.state === "STARTED" || f.state === "PREPARED") {
      if (runStatus === "done" || runStatus === "cancelled") out.push(`effect ${f.id} is still ${f.state} in a finished run`);
      continue;
    }
    if (!events.some((e) => SETTLES.has(e.type) && (e.data as { effect?: string } | undefined)?.effect === f.id))
      out.push(`effect ${f.id} is ${f.state} but no event settled it`);
  }
  for (const unit of superseded) {
    if (!events.some((e) => supersedes(e, unit))) out.push(`${unit}: superseded without an event saying why`);
  }
  return out;
}

export async function observeCase(
  sb: Sandbox,
  driven: DriveResult,
  world: WorldObservation,
  baseline: { invocations: Record<string, number>; world: WorldObservation; artifacts: FinalArtifacts; artifactsNotCompared?: string },
): Promise<Omit<CaseObservation, "error">> {
  const log = readInvocationLog(sb.log);
  const invocations = attemptsPerUnit(log);
  const facts = await withStore(sb, async (store) => {
    const [events, records, artifacts, effects, files] = await Promise.all([
      store.listEvents(sb.run),
      store.getRecords(sb.run),
      store.listArtifacts(sb.run),
      store.listEffects(sb.run),
      new FsArtifactStorage(sb.artifacts).listRunFiles(sb.run),
    ]);
    return { events, records, artifacts, effects, files };
  });
  const succeeded = (unit: string, attempt: number) =>
    facts.events.some((e) => e.type === "unit-succeeded" && e.unit === unit && e.attempt === attempt);

  const reruns = Object.keys(invocations)
    .filter((u) => invocations[u]! > (baseline.invocations[u] ?? 0))
    .sort();
  const rerunCommitted = reruns.filter((u) => {
    const committed = facts.events.filter((e) => e.type === "unit-succeeded" && e.unit === u).map((e) => e.attempt ?? 0);
    return committed.length > 0 && log.some((i) => i.unit === u && i.attempt > Math.min(...committed));
  });

  // Orphans: files staged by attempts that never committed must never be current, and must be reported.
  const known = new Set(facts.artifacts.map((a) => a.path));
  const currentRecords = new Map(facts.records.filter((r) => r.status === "current").map((r) => [r.id, r]));
  const staged = facts.events.filter((e) => e.type === "artifact-staged" && e.unit !== undefined && !succeeded(e.unit, e.attempt ?? 0));
  const stagedPaths = staged.map((e) => String((e.data as { path?: string }).path));
  const orphansReported = stagedPaths.filter((p) => facts.files.includes(p) && !known.has(p)).length;
  const orphansAdopted = [
    ...facts.artifacts
      .filter((a) => a.status === "committed" && a.recordId !== undefined && currentRecords.has(a.recordId) && stagedPaths.includes(a.path))
      .map((a) => a.path),
    ...[...currentRecords.values()]
      .filter((r) => !succeeded(r.unit, r.attempt))
      .map((r) => `${r.unit} a${r.attempt} (no unit-succeeded event)`),
  ];

  // A crash must not change what the run produced: the final artifacts, unit by unit, as the uninterrupted run's.
  const notCompared =
    baseline.artifactsNotCompared !== undefined
      ? [`every unit: ${baseline.artifactsNotCompared}`]
      : personSettledUnits(JSON.parse(readFileSync(sb.plan, "utf8")) as Plan, facts.effects);
  const artifactDiffs =
    baseline.artifactsNotCompared !== undefined
      ? []
      : artifactDifferences(baseline.artifacts, finalArtifacts(facts.records, facts.artifacts), notCompared);

  const duplicates = Object.entries(world.effects).filter(([, n]) => n > 1);
  const worldMatches = canonicalJson(world.state ?? null) === canonicalJson(baseline.world.state ?? null);
  const superseded = facts.records.filter((r) => r.status === "superseded").map((r) => r.unit);
  const failure = [...facts.events].reverse().find((e) => e.type === "attempt-failed" || e.type === "done-verification-failed");
  const lastFailure = failure
    ? `${failure.unit ? `${failure.unit} a${failure.attempt}: ` : ""}${String((failure.data as { message?: string; failed?: string[] }).message ?? JSON.stringify(failure.data))}`
    : undefined;
  return {
    steps: driven.steps,
    fired: driven.fired,
    finalStatus: driven.finalStatus,
    ...(lastFailure ? { lastFailure } : {}),
    invocations,
    reruns,
    rerunCommitted,
    duplicateEffects: duplicates.reduce((s, [, n]) => s + n - 1, 0),
    duplicates: duplicates.map(([k, n]) => `${k} x${n}`),
    worldMatches,
    ...(worldMatches ? {} : { worldDiff: `expected ${short(baseline.world.state)}, found ${short(world.state)}` }),
    artifactsMatch: artifactDiffs.length === 0,
    artifactDiffs,
    ...(notCompared.length ? { artifactsNotCompared: notCompared } : {}),
    fencingRefused: world.fencingRefused ?? 0,
    orphansReported,
    orphansAdopted,
    unexplained: unexplained(facts.events, log, facts.effects, [...new Set(superseded)], driven.finalStatus),
  };
}

function short(v: unknown): string {
  const s = canonicalJson(v ?? null);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}
