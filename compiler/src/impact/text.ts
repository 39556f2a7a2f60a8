/**
 * Impact reports as text for people (the CLI prints these; editors may show
 * them): one line per invalidated unit with its explanation path, grouped by
 * phase in plan order, and a one-line summary. A path longer than PATH_HOPS
 * is shown with its middle elided, and the summary says how many were.
 */
import type { Plan, UnhashedPlan } from "../plan/schema.js";
import { boundedPath, PATH_HOPS } from "./bounded-path.js";
import type { EditImpact } from "./diff.js";
import { formatChange } from "./parse-change.js";
import type { ImpactReport, InvalidatedUnit } from "./types.js";

export function formatImpact(plan: Plan, report: ImpactReport): string {
  const lines = [`change ${report.changes.map(describeChange).join(" + ")}`];
  for (const u of report.unmatched) lines.push(`note: ${u.reason}`);
  const { paths, elided } = boundedPaths(report.invalidated);
  lines.push(...byPhase(plan, paths));
  const origins = report.origins.length > 0 ? `; ${report.origins.length} changed at the origin (${report.origins.join(", ")})` : "";
  lines.push("", `${report.invalidated.length} of ${plan.units.length} units invalidated; ${report.kept.length} kept${origins}`);
  if (elided > 0) lines.push(elidedNote(elided));
  return lines.join("\n") + "\n";
}

export function formatEditImpact(newPlan: UnhashedPlan, edit: EditImpact): string {
  const { diff, report } = edit;
  const lines: string[] = [];
  const list = (label: string, ids: string[]) => ids.length > 0 && lines.push(`${label}: ${ids.join(", ")}`);
  list("changed units", diff.units.changed);
  list("added units", diff.units.added);
  list("removed units", diff.units.removed);
  list("changed inputs", diff.inputs.changed);
  list("added inputs", diff.inputs.added);
  list("removed inputs", diff.inputs.removed);
  if (lines.length === 0) lines.push("no unit or input changed");

  const reasons = new Map<string, string>();
  for (const id of diff.units.changed) reasons.set(id, `changed: ${diff.keys[id]?.behaviour.join(", ") ?? "definition"}`);
  for (const id of diff.units.added) reasons.set(id, "added");
  // A changed unit downstream of another change is explained by its path, which says more.
  const { paths, elided } = boundedPaths(report.invalidated);
  for (const [unit, path] of paths) reasons.set(unit, `${reasons.has(unit) ? `${reasons.get(unit)}; ` : ""}${path}`);
  if (edit.mustRerun.length > 0) lines.push("", `must re-run (${edit.mustRerun.length}):`, ...byPhase(newPlan, reasons));
  if (edit.staysValid.length > 0) lines.push("", `stays valid (${edit.staysValid.length}): ${edit.staysValid.join(" ")}`);
  const policy = Object.entries(diff.keys).filter(([, k]) => k.policy.length > 0);
  if (policy.length > 0) {
    lines.push("", "policy changed (applies to future attempts, re-runs nothing):");
    for (const [id, k] of policy) lines.push(`  ${id}: ${k.policy.join(", ")}`);
  }
  const removed = diff.units.removed.length > 0 ? `; ${diff.units.removed.length} removed` : "";
  lines.push("", `${edit.mustRerun.length} of ${newPlan.units.length} units must re-run; ${edit.staysValid.length} stay valid${removed}`);
  if (elided > 0) lines.push(elidedNote(elided));
  return lines.join("\n") + "\n";
}

/** Each unit's path, bounded, and how many were elided. */
function boundedPaths(invalidated: readonly InvalidatedUnit[]): { paths: Map<string, string>; elided: number } {
  const paths = new Map<string, string>();
  let elided = 0;
  for (const i of invalidated) {
    const { path, hops } = boundedPath(i.cause);
    if (hops > PATH_HOPS) elided++;
    paths.set(i.unit, path);
  }
  return { paths, elided };
}

const elidedNote = (n: number): string =>
  `${n} ${n === 1 ? "path is" : "paths are"} longer than ${PATH_HOPS} hops and shown with the middle elided`;

function describeChange(change: ImpactReport["changes"][number]): string {
  return change.kinds === "all" ? `${change.origin} (all kinds)` : formatChange(change);
}

/**
 * A header per phase (in order of first appearance), then `  UNIT  text` lines
 * in plan order. Units without a phase have no header: an empty one printed
 * as a second blank line.
 */
function byPhase(plan: UnhashedPlan, text: ReadonlyMap<string, string>): string[] {
  const width = Math.max(0, ...[...text.keys()].map((id) => id.length));
  const phases = new Map<string, string[]>();
  for (const unit of plan.units) {
    const line = text.get(unit.id);
    if (line === undefined) continue;
    if (!phases.has(unit.phase)) phases.set(unit.phase, []);
    phases.get(unit.phase)!.push(`  ${unit.id.padEnd(width)}  ${line}`);
  }
  return [...phases].flatMap(([phase, lines]) => (phase === "" ? ["", ...lines] : ["", phase, ...lines]));
}
