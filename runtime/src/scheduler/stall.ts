/**
 * Stall detection, pure: from facts and the recent event log to reasons a
 * person should look. A percentage never tells you a run is stuck; these do.
 */
import type { Lease, RunEvent, RunRow } from "../model/facts.js";
import type { Decision } from "./decide.js";

export interface StallThresholds {
  /** No newly committed unit for this long while the run is active. */
  noProgressMs: number;
  /** The same error class this many times in a row. */
  sameErrorRepeats: number;
}

export const DEFAULT_STALL: StallThresholds = { noProgressMs: 30 * 60_000, sameErrorRepeats: 3 };

export interface StallSignal {
  kind: "no-progress" | "repeating-error" | "nothing-ready" | "lease-without-progress";
  detail: string;
}

export function detectStalls(
  run: RunRow,
  decision: Decision,
  recent: readonly RunEvent[],
  leases: readonly Lease[],
  now: string,
  t: StallThresholds = DEFAULT_STALL,
): StallSignal[] {
  if (run.status !== "active") return [];
  const out: StallSignal[] = [];
  // A run that waits for an approval it asked for is not stuck: it waits for a person, and says so.
  const waitingForApproval = decision.awaitingApproval.length > 0 && decision.ready.length === 0 && decision.running.length === 0;
  const idleMs = Date.parse(now) - Date.parse(run.lastProgressAt);
  if (idleMs > t.noProgressMs && !waitingForApproval)
    out.push({ kind: "no-progress", detail: `no unit committed for ${Math.round(idleMs / 60_000)} min (last at ${run.lastProgressAt})` });
  const failures = recent.filter((e) => e.type === "attempt-failed").slice(-t.sameErrorRepeats);
  if (failures.length === t.sameErrorRepeats && failures.every((e) => e.data?.class === failures[0]!.data?.class)) {
    out.push({
      kind: "repeating-error",
      detail: `the last ${t.sameErrorRepeats} attempts failed with ${String(failures[0]!.data?.class)}`,
    });
  }
  // A unit waiting out its retry backoff is not stuck either: it runs again at a known time (Decision.backingOff).
  if (
    !decision.allSucceeded &&
    decision.ready.length === 0 &&
    decision.running.length === 0 &&
    decision.backingOff.length === 0 &&
    !waitingForApproval
  ) {
    out.push({ kind: "nothing-ready", detail: "no unit is ready or running, and the run is not done" });
  }
  for (const l of leases) {
    if (l.renewedAt > run.lastProgressAt && Date.parse(l.renewedAt) - Date.parse(run.lastProgressAt) > t.noProgressMs) {
      out.push({ kind: "lease-without-progress", detail: `${l.owner} keeps renewing its lease on ${l.unit} without committing` });
    }
  }
  return out;
}
