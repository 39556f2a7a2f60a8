/**
 * The worker's claim step: ready units taken in order while a slot is free.
 * A unit claimed again and again without progress is stopped (spin guard); a
 * superseded unit whose inputs hash as before is restored (early cutoff)
 * instead of run; the others are claimed together in one store round, each
 * with a fencing token, and their attempts started.
 */
import type { PlanUnit } from "@taskspec/compiler";
import { reservationOf } from "../model/budget.js";
import type { SourceDigests, UnitStateRow } from "../model/facts.js";
import { noteClaim, progressMark, SPIN_LIMIT } from "../scheduler/spin-guard.js";
import { startAttempt } from "./attempt-runner.js";
import { nowIso } from "./core.js";
import { commitDirect } from "./direct-commit.js";
import { sourcesUnchanged } from "./invalidate.js";
import { ev, nextActionOf, type WorkerContext } from "./worker-state.js";

/** How many units the step started (a claim or a cutoff), and whether a refusal or a cutoff changed the decision. */
export interface ClaimResult {
  started: number;
  raced: boolean;
}

/**
 * Tries ready units in order while a slot is free: an early cutoff or a lost race ends the round (the
 * decision changed). The units before a possible cutoff are claimed together (one store round).
 */
export async function claimUnits(w: WorkerContext, units: string[], concurrency: number): Promise<ClaimResult> {
  const { core, state } = w;
  let started = 0;
  let batch: PlanUnit[] = [];
  const claimBatch = async (): Promise<boolean> => {
    const round = await claimRound(w, batch);
    started += round.started;
    batch = [];
    return round.raced;
  };
  for (const unitId of units) {
    if (state.inflight.size + batch.length >= concurrency || w.options.stop?.aborted) break;
    if (state.inflight.has(unitId)) continue;
    const unit = core.plan.units.find((u) => u.id === unitId)!;
    // a unit claimed again and again with nothing changed is stopped with the reason, not claimed for ever
    const verdict = noteClaim(state.spin, unitId, progressMark(unitId, state.facts!));
    state.spin = verdict.state;
    if (verdict.kind === "stop") {
      state.stopped.set(unitId, verdict.detail);
      await core.store.appendEvents(core.run, [
        ev(core, "unit-stopped", { unit: unitId, data: { reason: "no-progress", claims: SPIN_LIMIT, detail: verdict.detail } }),
      ]);
      if (batch.length) await claimBatch();
      return { started, raced: true }; // decide again: the unit is blocked now
    }
    if (cutoffCandidate(w, unit)) {
      if (batch.length && (await claimBatch())) return { started, raced: true };
      if (await tryCutoff(w, unit)) return { started: started + 1, raced: false };
    }
    batch.push(unit);
  }
  if (batch.length && (await claimBatch())) return { started, raced: true };
  return { started, raced: false };
}

/** Claims `units` in one store round and starts an attempt for each claim; `raced`: a refusal ended the round. */
async function claimRound(w: WorkerContext, units: PlanUnit[]): Promise<ClaimResult> {
  const { core, state } = w;
  // the declared cost is booked with the claim, in its transaction: of two workers racing for the
  // last of a budget, one claims and the other is refused and decides again (the unit is then blocked)
  const round = await core.store.claimUnits(
    core.run,
    units.map((u) => ({ unit: u.id, planVersion: core.planVersion, reserve: reservationOf(u.cost) })),
    core.owner,
    core.leaseTtlMs,
    nowIso(core),
    state.version,
  );
  round.claims.forEach((claim, i) => startAttempt(w, units[i]!, claim));
  // another worker got there first, or the run moved on (a new plan: the loop sees it and reloads)
  return { started: round.claims.length, raced: round.refused !== undefined };
}

/** The row of a unit early cutoff may restore (superseded by an upstream change, a record to restore); else undefined. */
function cutoffCandidate(w: WorkerContext, unit: PlanUnit): (UnitStateRow & { supersededRecord: number }) | undefined {
  const row = w.state.facts!.units.find((u) => u.unit === unit.id);
  if (!row || row.state !== "superseded" || !row.superseded || row.superseded.direct || row.supersededRecord === undefined)
    return undefined;
  return row as UnitStateRow & { supersededRecord: number };
}

/** Early cutoff: a superseded unit whose inputs hash as before is restored, not re-run. */
async function tryCutoff(w: WorkerContext, unit: PlanUnit): Promise<boolean> {
  const { core, state } = w;
  const { store, run } = core;
  const row = cutoffCandidate(w, unit);
  if (!row) return false;
  const records = await store.getRecords(run, { unit: unit.id });
  const old = records.find((r) => r.id === row.supersededRecord);
  if (!old) return false;
  const now: SourceDigests = {};
  for (const need of unit.needs) {
    if (need.nodeType === "input") {
      now[`input:${need.node}`] = old.sources[`input:${need.node}`] ?? [];
      continue;
    }
    const [rec] = await store.getRecords(run, { unit: need.node, status: "current" });
    const arts = rec ? await store.listArtifacts(run, { recordId: rec.id }) : [];
    now[need.node] = arts.map((m) => ({ name: m.name, sha256: m.sha256, ...(m.facets ? { facets: m.facets } : {}) }));
  }
  if (!sourcesUnchanged(unit, old.sources, now)) return false;
  await commitDirect(w, (f) => {
    const current = f.units.find((u) => u.unit === unit.id);
    if (current?.state !== "superseded" || current.supersededRecord !== old.id) return undefined; // someone else moved it
    return {
      kind: "cutoff",
      changes: [{ kind: "restore", unit: unit.id }],
      approvals: state.approvalIds,
      nextAction: nextActionOf(state),
      events: [
        ev(core, "early-cutoff", {
          unit: unit.id,
          data: { record: old.id, attempt: old.attempt, why: "its inputs hash the same as when it last succeeded" },
        }),
      ],
      now: nowIso(core),
    };
  });
  return true;
}
