/**
 * The scheduler's decision over a run's facts as they are in the store: the
 * facts `decide()` needs that the store does not hold as rows (which gates
 * an approval opens, which lease owners are gone) are gathered here, once,
 * for the worker and for `status` alike.
 */
import type { Plan } from "@taskspec/compiler";
import { decide, type Decision } from "../scheduler/decide.js";
import type { RunFacts, Store } from "../store/types.js";
import { openGates } from "./approvals.js";
import { ownerIsDead, type Liveness } from "./owner.js";

/** What the one asking holds: a worker passes its identity, its attempts in flight and the units it stopped. */
export interface Asker {
  /** The plan version the gates are judged under. */
  planVersion: string;
  /** The asker's own lease owner (never dead to itself); "" for an onlooker. */
  owner: string;
  /** Units whose attempts run in the asker: their leases are live whatever their owner looks like. */
  inflight?: { has(unit: string): boolean };
  stopped?: ReadonlyMap<string, string>;
  /** The asker's last snapshot of the workers' heartbeats: a lease of a silent or stopped worker is broken at once. */
  liveness?: Liveness;
}

export async function decideRun(
  store: Store,
  plan: Plan,
  run: string,
  facts: RunFacts,
  now: string,
  asker: Asker,
): Promise<{ decision: Decision; approvalIds: string[] }> {
  const gates = await openGates(store, plan, run, asker.planVersion, facts, now);
  const deadOwners = new Set(
    facts.leases.filter((l) => !asker.inflight?.has(l.unit) && ownerIsDead(l.owner, asker.owner, asker.liveness, now)).map((l) => l.owner),
  );
  const decision = decide({
    plan,
    run: facts.run,
    units: facts.units,
    leases: facts.leases,
    openEffects: facts.openEffects,
    approvedGates: gates.gates,
    gateDetails: gates.details,
    ...(asker.stopped ? { stopped: asker.stopped } : {}),
    deadOwners,
    now,
  });
  return { decision, approvalIds: gates.approvalIds };
}
