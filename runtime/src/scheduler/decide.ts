/**
 * The pure scheduler: from persisted facts to the next actions. No IO, no
 * clock (`now` is an argument): the same facts always give the same decision,
 * which is what makes resume idempotent.
 */
import type { Plan, PlanUnit } from "@taskspec/compiler";
import type { EffectRecord, Hold, Lease, RunRow, UnitStateRow } from "../model/facts.js";
import { budgetShortfall } from "../model/budget.js";

export type DerivedState = "pending" | "ready" | "running" | "blocked" | "succeeded" | "failed" | "superseded";

export interface DecideInput {
  plan: Plan;
  run: RunRow;
  units: UnitStateRow[];
  leases: Lease[];
  openEffects: EffectRecord[];
  /** Gate units with a current, matching approval (computed by the engine from approvals + artifact hashes). */
  approvedGates: ReadonlySet<string>;
  /** Why a closed gate waits, when the engine knows more than "no approval" (a prepared request, what changed). */
  gateDetails?: ReadonlyMap<string, string>;
  /** Units this worker stopped claiming (claimed again and again without progress: spin-guard.ts), with why. */
  stopped?: ReadonlyMap<string, string>;
  /** Lease owners known to be dead (same host, process gone): their leases can be broken at once. */
  deadOwners?: ReadonlySet<string>;
  now: string;
}

export interface BlockedReason {
  unit?: string;
  reason: Hold["reason"];
  detail: string;
}

export interface Decision {
  /** Per unit, the derived state a person sees. */
  states: Record<string, DerivedState>;
  /** Claimable units in plan order (topological, then id). */
  ready: string[];
  running: Lease[];
  /** Leases past expiry (or of a dead owner) whose units must be reconciled, then re-claimed. */
  breakableLeases: Lease[];
  /** STARTED/UNKNOWN/PREPARED effects with no live lease over them: recovery looks them up first. */
  toReconcile: EffectRecord[];
  /** Units that used up their attempts and must be committed as failed. */
  exhausted: string[];
  /** Units waiting out their retry backoff (state `pending`), soonest first: ready again at `notBefore`. */
  backingOff: Array<{ unit: string; notBefore: string }>;
  blocked: BlockedReason[];
  /** Gate units waiting for an approval (a resume token should exist for each). */
  awaitingApproval: string[];
  /** Every unit in scope succeeded: run the `task.done` verifiers on the final artifacts. */
  allSucceeded: boolean;
  /** Units an operator dropped from the run's goal (`out-of-scope` hold): never ready, never blocking, not needed for done. */
  dropped: string[];
  counts: Record<DerivedState, number>;
}

export function leaseIsLive(lease: Lease, now: string, deadOwners?: ReadonlySet<string>): boolean {
  return lease.expiresAt > now && !deadOwners?.has(lease.owner);
}

/** Does the unit's declared per-attempt cost fit in what is left of each capped budget? (The claim books it by the same rule.) */
export { budgetShortfall } from "../model/budget.js";

export function decide(input: DecideInput): Decision {
  const { plan, run, now } = input;
  const byUnit = new Map(input.units.map((u) => [u.unit, u]));
  const leaseOf = new Map(input.leases.map((l) => [l.unit, l]));
  const states: Record<string, DerivedState> = {};
  const ready: string[] = [];
  const running: Lease[] = [];
  const breakableLeases: Lease[] = [];
  const exhausted: string[] = [];
  const backingOff: Decision["backingOff"] = [];
  const blocked: BlockedReason[] = [];
  const awaitingApproval: string[] = [];
  const dropped: string[] = [];

  for (const lease of input.leases) {
    if (leaseIsLive(lease, now, input.deadOwners)) running.push(lease);
    else breakableLeases.push(lease);
  }
  const liveUnits = new Set(running.map((l) => l.unit));
  // A PREPARED request held at a gate never started: it waits for a person, not for recovery.
  const toReconcile = input.openEffects.filter(
    (e) => (e.state === "PREPARED" || e.state === "STARTED" || e.state === "UNKNOWN") && !e.held && !liveUnits.has(e.unit),
  );
  const unknownByUnit = new Set(toReconcile.map((e) => e.unit));

  if (run.hold) blocked.push({ reason: run.hold.reason, detail: run.hold.detail });

  for (const unit of plan.units) {
    const row = byUnit.get(unit.id);
    const committed = row?.state ?? "pending";
    if (committed === "succeeded" || committed === "failed") {
      states[unit.id] = committed;
      continue;
    }
    if (row?.hold?.reason === "out-of-scope") {
      dropped.push(unit.id);
      states[unit.id] = committed === "superseded" ? "superseded" : "pending";
      continue;
    }
    const lease = leaseOf.get(unit.id);
    if (lease && liveUnits.has(unit.id)) {
      states[unit.id] = "running";
      continue;
    }
    const why = blockReason(unit, row, input, byUnit, unknownByUnit);
    if (why === "exhausted") {
      exhausted.push(unit.id);
      states[unit.id] = "failed";
    } else if (why === "waiting") {
      states[unit.id] = committed === "superseded" ? "superseded" : "pending";
    } else if (why === "backoff") {
      states[unit.id] = "pending";
      backingOff.push({ unit: unit.id, notBefore: row!.notBefore! });
    } else if (why) {
      states[unit.id] = "blocked";
      blocked.push(why);
      if (why.reason === "approval") awaitingApproval.push(unit.id);
    } else if (run.hold || run.status !== "active") {
      states[unit.id] = committed === "superseded" ? "superseded" : "pending";
    } else {
      states[unit.id] = "ready";
      ready.push(unit.id);
    }
  }

  const counts = { pending: 0, ready: 0, running: 0, blocked: 0, succeeded: 0, failed: 0, superseded: 0 } as Record<DerivedState, number>;
  for (const s of Object.values(states)) counts[s] += 1;
  const out = new Set(dropped);
  const allSucceeded = plan.units.every((u) => states[u.id] === "succeeded" || out.has(u.id));
  backingOff.sort((a, b) => (a.notBefore < b.notBefore ? -1 : a.notBefore > b.notBefore ? 1 : 0));
  return {
    states,
    ready,
    running,
    breakableLeases,
    toReconcile,
    exhausted,
    backingOff,
    blocked,
    awaitingApproval,
    allSucceeded,
    dropped,
    counts,
  };
}

/**
 * Whether a unit has used up its attempts: more ended attempts than
 * `retry.max` allows, or a crash-loop (its attempts kept killing their
 * worker; the worker records that as a `worker-lost` last error, engine/recovery.ts).
 */
export function attemptsExhausted(unit: Pick<PlanUnit, "retry">, row: Pick<UnitStateRow, "failures" | "lastError"> | undefined): boolean {
  return row !== undefined && (row.failures > unit.retry.max || row.lastError?.class === "worker-lost");
}

function blockReason(
  unit: PlanUnit,
  row: UnitStateRow | undefined,
  input: DecideInput,
  byUnit: ReadonlyMap<string, UnitStateRow>,
  unknownByUnit: ReadonlySet<string>,
): BlockedReason | "waiting" | "exhausted" | "backoff" | undefined {
  if (attemptsExhausted(unit, row)) return "exhausted";
  if (row?.hold) return { unit: unit.id, reason: row.hold.reason, detail: row.hold.detail };
  const stopped = input.stopped?.get(unit.id);
  if (stopped) return { unit: unit.id, reason: "no-progress", detail: stopped };
  for (const need of unit.needs) {
    if (need.nodeType === "unit" && byUnit.get(need.node)?.state !== "succeeded") return "waiting";
  }
  // After a counted failure the next attempt waits out the unit's retry backoff (worker.ts sleeps until the soonest).
  if (row?.notBefore !== undefined && row.notBefore > input.now) return "backoff";
  if (unknownByUnit.has(unit.id)) return undefined; // reconciliation decides first; the engine reconciles before claiming
  if (unit.approval && !input.approvedGates.has(unit.id)) {
    return {
      unit: unit.id,
      reason: "approval",
      detail:
        input.gateDetails?.get(unit.id) ??
        `unit ${unit.id} waits for a ${unit.approval} approval bound to this plan version and its input artifacts`,
    };
  }
  const short = budgetShortfall(unit.cost, input.run.budgetUsed, input.run.caps);
  if (short) {
    return {
      unit: unit.id,
      reason: "budget",
      detail: `unit ${unit.id} needs ${short.need} ${short.budget} per attempt; ${short.left} left`,
    };
  }
  return undefined;
}
