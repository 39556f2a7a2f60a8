/**
 * What a branch reuses, as a pure function over the original run's facts. A
 * branch is a new run (its own id, the seed's branch number) that starts from
 * the committed results of another one and diverges from there; the original
 * stays as it was. A result is reused only when it is still valid: the unit
 * succeeded, its record is current, none of its files is marked corrupt, it
 * was committed at or before the branch point, and every unit it needs is
 * reused too (a result built on an input the branch recomputes is not one the
 * branch can vouch for). Everything else runs afresh in the branch, and an
 * effect of such a unit could fire again there: the preview says which.
 */
import type { ArtifactManifest, EffectRecord, UnitRecord, UnitStateRow } from "../model/facts.js";
import type { UnitChange } from "../store/types.js";
import type { Preview } from "./preview.js";

export interface BranchFacts {
  run: string;
  /** The new run's id. */
  branch: string;
  /** The branch point: an event of the original run and the checkpoint version committed at it (absent: the latest baseline). */
  at?: { event: number; version: number };
  /** The plan's units, each after the units it needs (by level), with the units it needs. */
  plan: ReadonlyArray<{ id: string; needs: readonly string[] }>;
  units: readonly UnitStateRow[];
  /** The original run's current records. */
  records: readonly UnitRecord[];
  /** Manifests of those records' files (committed or corrupt). */
  artifacts: readonly ArtifactManifest[];
  effects: readonly EffectRecord[];
}

export interface BranchPlan {
  preview: Preview;
  /** The checkpoint changes that give the branch its reused results. */
  copies: Array<Extract<UnitChange, { kind: "complete" }>>;
}

/** Effects whose request may have left: a unit that runs again in the branch may send it again. */
const SENT = new Set<EffectRecord["state"]>(["STARTED", "UNKNOWN", "COMMITTED"]);

export function planBranch(f: BranchFacts): BranchPlan {
  const rows = new Map(f.units.map((u) => [u.unit, u]));
  const recordOf = new Map(f.records.filter((r) => r.status === "current").map((r) => [r.unit, r]));
  const filesOf = new Map<number, ArtifactManifest[]>();
  for (const a of f.artifacts) if (a.recordId !== undefined) filesOf.set(a.recordId, [...(filesOf.get(a.recordId) ?? []), a]);

  const why = new Map<string, string>();
  const reused = new Set<string>();
  const byId = new Map(f.plan.map((u) => [u.id, u]));
  // each need comes before the unit in `plan`, so it is decided first
  const reasonOf = (unit: { id: string; needs: readonly string[] }): string | undefined => {
    const row = rows.get(unit.id);
    const rec = recordOf.get(unit.id);
    if (row?.state !== "succeeded" || !rec) return `not succeeded in ${f.run} (${row?.state ?? "pending"}): runs in the branch`;
    if ((filesOf.get(rec.id) ?? []).some((a) => a.status === "corrupt")) return `a file of its result is corrupt in ${f.run}: runs again`;
    if (f.at && rec.committedVersion > f.at.version)
      return `committed at v${rec.committedVersion}, after the branch point (event #${f.at.event}, v${f.at.version}): runs again`;
    const redone = unit.needs.find((n) => byId.has(n) && !reused.has(n));
    return redone === undefined ? undefined : `needs ${redone}, which the branch runs again`;
  };
  for (const u of f.plan) {
    const reason = reasonOf(u);
    if (reason) why.set(u.id, reason);
    else reused.add(u.id);
  }

  const copies: BranchPlan["copies"] = [];
  for (const u of f.plan) {
    if (!reused.has(u.id)) continue;
    const rec = recordOf.get(u.id)!;
    copies.push({
      kind: "complete",
      unit: u.id,
      attempt: rec.attempt,
      result: rec.result,
      sources: rec.sources,
      // the files stay where the original run wrote them: the branch refers to the same bytes, by hash
      artifacts: (filesOf.get(rec.id) ?? []).map(({ status: _s, recordId: _r, ...m }) => ({ ...m, run: f.branch })),
    });
  }

  const again = f.effects.filter((e) => SENT.has(e.state) && !reused.has(e.unit));
  const notes = [
    `creates run ${f.branch}: the plan ${f.run} runs under, its caps with nothing used yet; ${f.run} stays as it is`,
    f.at ? `branch point: event #${f.at.event} of ${f.run} (checkpoint v${f.at.version})` : `branch point: the latest baseline of ${f.run}`,
    ...again.map(
      (e) =>
        `could fire again in ${f.branch}: effect ${e.id} of ${e.unit} (${e.intent}, ${e.state} in ${f.run}); ` +
        "the branch has its own ledger and does not know it was sent",
    ),
    ...(f.effects.length ? [`the ${f.effects.length} effect(s) of ${f.run} stay in its ledger: any compensation owed is owed there`] : []),
    `next: taskspec resume ${f.branch}`,
  ];
  return {
    preview: {
      action: `branch ${f.run} as ${f.branch}`,
      reuse: f.plan.filter((u) => reused.has(u.id)).map((u) => u.id),
      invalidate: f.plan.filter((u) => !reused.has(u.id)).map((u) => ({ unit: u.id, why: why.get(u.id)! })),
      notes,
    },
    copies,
  };
}

/** The next branch number's run id: `<run>.b<n>`, one more than the highest branch of `run` in `existing`. */
export function branchIdOf(run: string, existing: readonly string[]): string {
  const prefix = `${run}.b`;
  let n = 0;
  for (const id of existing) {
    if (!id.startsWith(prefix)) continue;
    const k = Number(id.slice(prefix.length));
    if (Number.isSafeInteger(k) && k > n) n = k;
  }
  return `${prefix}${n + 1}`;
}

/**
 * The checkpoint version the run was at when event `seq` was recorded (the
 * branch point `--at` names): the last checkpoint committed at or before it,
 * version 0 (the run's start) before the first; undefined when the log has no
 * event `seq`.
 */
export function versionAtEvent(events: ReadonlyArray<{ seq?: number; type: string; data?: unknown }>, seq: number): number | undefined {
  let version = 0;
  let found = false;
  for (const e of events) {
    if (e.seq === undefined || e.seq > seq) break;
    if (e.seq === seq) found = true;
    const v = (e.data as { version?: unknown } | undefined)?.version;
    if (e.type === "checkpoint-committed" && typeof v === "number") version = v;
  }
  return found ? version : undefined;
}
