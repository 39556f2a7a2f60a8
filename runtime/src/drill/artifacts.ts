/**
 * What a run produced, for comparing a case with its uninterrupted baseline:
 * per unit, the name and sha256 of each artifact of its current record (from
 * the committed manifests). A crash must never change it, with one
 * exception the drill makes itself: an effect a person settled committed
 * (`resolve --committed`, as the drill does when the worker died after a
 * call whose tool has no lookup) hands its unit the person's record instead
 * of the adapter's lost receipt, so that unit and the units downstream of it
 * are not compared (the observation says which).
 */
import type { Plan } from "@taskspec/compiler";
import { isPersonConfirmed } from "../handler-api.js";
import type { ArtifactManifest, EffectRecord, UnitRecord } from "../model/facts.js";

/** unit -> artifact name -> sha256. */
export type FinalArtifacts = Record<string, Record<string, string>>;

export function finalArtifacts(
  records: readonly Pick<UnitRecord, "id" | "unit" | "status">[],
  artifacts: readonly Pick<ArtifactManifest, "unit" | "name" | "sha256" | "status" | "recordId">[],
): FinalArtifacts {
  const current = new Set(records.filter((r) => r.status === "current").map((r) => r.id));
  const out: FinalArtifacts = {};
  for (const a of artifacts) {
    if (a.status !== "committed" || a.recordId === undefined || !current.has(a.recordId)) continue;
    const unit = (out[a.unit] ??= {});
    let name = a.name;
    for (let n = 2; Object.hasOwn(unit, name); n++) name = `${a.name}#${n}`;
    unit[name] = a.sha256;
  }
  return out;
}

/** Units whose receipt a person gave (and every unit downstream of one): their artifacts may differ by design. */
export function personSettledUnits(
  plan: Pick<Plan, "units">,
  effects: readonly Pick<EffectRecord, "unit" | "state" | "receipt">[],
): string[] {
  const out = new Set(effects.filter((e) => e.state === "COMMITTED" && isPersonConfirmed(e.receipt)).map((e) => e.unit));
  for (let grew = out.size > 0; grew;) {
    grew = false;
    for (const u of plan.units)
      if (!out.has(u.id) && u.needs.some((n) => n.nodeType === "unit" && out.has(n.node))) {
        out.add(u.id);
        grew = true;
      }
  }
  return [...out].sort();
}

const short = (sha: string) => sha.slice(0, 12);

/** How `found` differs from `expected`, one line per unit/artifact, `skip` units left out; empty when they match. */
export function artifactDifferences(expected: FinalArtifacts, found: FinalArtifacts, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const units = [...new Set([...Object.keys(expected), ...Object.keys(found)])].filter((u) => !skip.includes(u)).sort();
  for (const unit of units) {
    const want = expected[unit] ?? {};
    const got = found[unit] ?? {};
    for (const name of [...new Set([...Object.keys(want), ...Object.keys(got)])].sort()) {
      const w = want[name];
      const g = got[name];
      if (w === g) continue;
      if (g === undefined) out.push(`${unit}/${name} missing (the uninterrupted run has sha256 ${short(w!)})`);
      else if (w === undefined) out.push(`${unit}/${name} sha256 ${short(g)} is not in the uninterrupted run`);
      else out.push(`${unit}/${name} sha256 ${short(g)}, the uninterrupted run's ${short(w)}`);
    }
  }
  return out;
}
