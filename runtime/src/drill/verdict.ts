/**
 * A case's verdict from its observation: pure, so the rules read in one place.
 * PASS needs every one of: each armed crash fired, the run ended as the
 * uninterrupted run did, the world (asked at the remote) and the final
 * artifacts (name and sha256 per unit) equal that run's,
 * no effect happened twice, exactly the minimum set of units re-ran, no
 * orphan was adopted (files of a crashed attempt are reported), and the event log explains every decision.
 */
import type { CaseObservation, DrillCase, Verdict } from "./types.js";

export function judge(
  c: DrillCase,
  o: CaseObservation,
  expectedStatus: string,
  unfired: readonly string[] = [],
): { verdict: Verdict; reasons: string[] } {
  const reasons: string[] = [];
  if (o.error) reasons.push(`drill error: ${o.error}`);
  for (const u of unfired) reasons.push(`crash point ${u} was never reached`);
  if (o.finalStatus !== expectedStatus)
    reasons.push(`run ended ${o.finalStatus}, expected ${expectedStatus}${o.lastFailure ? ` (last failure: ${o.lastFailure})` : ""}`);
  if (o.duplicateEffects > 0) reasons.push(`effects done twice at the remote: ${o.duplicates.join(", ")}`);
  if (!o.worldMatches) reasons.push(`final world differs from an uninterrupted run: ${o.worldDiff ?? ""}`);
  if (!o.artifactsMatch) reasons.push(`final artifacts differ from an uninterrupted run: ${o.artifactDiffs.join("; ")}`);
  const expected = new Set(c.expectedReruns);
  const extra = o.reruns.filter((u) => !expected.has(u));
  const missing = c.expectedReruns.filter((u) => !o.reruns.includes(u));
  if (extra.length)
    reasons.push(
      `re-ran more than needed: ${extra.join(", ")}${extra.some((u) => o.rerunCommitted.includes(u)) ? " (committed work)" : ""}`,
    );
  if (missing.length) reasons.push(`did not re-run ${missing.join(", ")} (its interrupted work must be redone, not adopted)`);
  if (o.orphansAdopted.length) reasons.push(`orphans adopted: ${o.orphansAdopted.join(", ")}`);
  const last = c.crashes[c.crashes.length - 1]?.point;
  if ((last === "after-artifact-before-commit" || last === "mid-checkpoint") && o.orphansReported === 0)
    reasons.push("the crashed attempt's files were not reported as orphans");
  if (o.unexplained.length) reasons.push(`event log does not explain: ${o.unexplained.join("; ")}`);
  return { verdict: reasons.length ? "FAIL" : "PASS", reasons };
}
