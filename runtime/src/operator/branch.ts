/**
 * Branching a run: reads the original run's facts, asks branch-plan.ts what
 * the branch reuses, and on a decision creates the new run and commits the
 * reused results into it as one decision checkpoint. The original run gets
 * only a `decision` event naming the branch; its units, records and ledger
 * are untouched. The decision is checked against the basis of the preview
 * the person confirmed (basis.ts), on the original run's checkpoint version.
 */
import { InvalidTransitionError, NotFoundError } from "../errors.js";
import { assertRunId } from "../model/ids.js";
import type { RunRow } from "../model/facts.js";
import type { Store } from "../store/types.js";
import { actorOf, type Acting } from "./authority.js";
import { basisOf, checkBasis, type PreviewBasis } from "./basis.js";
import { branchIdOf, planBranch, versionAtEvent, type BranchPlan } from "./branch-plan.js";
import type { Expectation } from "./flag.js";
import { decisionEvent, type Preview } from "./preview.js";
import { planOfRun } from "./status.js";

export interface BranchOptions {
  /** The branch point: an event number of the original run (absent: its latest baseline). */
  at?: number;
  /** The new run's id (absent: the next branch number, `<run>.b<n>`). */
  as?: string;
}

async function branchOf(store: Store, run: string, o: BranchOptions): Promise<BranchPlan & { version: number; branch: string }> {
  const r = await store.getRun(run);
  if (!r) throw new NotFoundError(`no run ${run} in this store`);
  const plan = await planOfRun(store, run);
  const branch =
    o.as ??
    branchIdOf(
      run,
      (await store.listRuns()).map((x) => x.run),
    );
  assertRunId(branch);
  if (await store.getRun(branch)) throw new InvalidTransitionError(`run ${branch} exists already; name the branch another way (--as)`);
  let at: { event: number; version: number } | undefined;
  if (o.at !== undefined) {
    const version = versionAtEvent(await store.listEvents(run), o.at);
    if (version === undefined) throw new NotFoundError(`run ${run} has no event #${o.at} (\`taskspec events ${run}\` lists them)`);
    at = { event: o.at, version };
  }
  const records = await store.getRecords(run, { status: "current" });
  const artifacts = (await store.listArtifacts(run)).filter((a) => a.status !== "rejected");
  const units = [...plan.units]
    .sort((a, b) => a.level - b.level)
    .map((u) => ({ id: u.id, needs: u.needs.filter((n) => n.nodeType === "unit").map((n) => n.node) }));
  const made = planBranch({
    run,
    branch,
    ...(at ? { at } : {}),
    plan: units,
    units: (await store.loadFacts(run)).units,
    records,
    artifacts,
    effects: await store.listEffects(run),
  });
  return { ...made, version: r.version, branch };
}

export async function previewBranch(store: Store, run: string, o: BranchOptions = {}): Promise<{ preview: Preview; basis: PreviewBasis }> {
  const made = await branchOf(store, run, o);
  return { preview: made.preview, basis: basisOf(made.preview, made.version) };
}

/**
 * Creates the branch; needs an operator key when the store has operator
 * identities. Returns the preview it decided on and the new run's id.
 */
export async function branch(
  store: Store,
  run: string,
  o: BranchOptions,
  acting: Acting,
  now: string,
  reason?: string,
  expected?: Expectation,
): Promise<{ preview: Preview; basis: PreviewBasis; branch: string }> {
  const actor = await actorOf(store, acting, `branch ${run}`);
  const made = await branchOf(store, run, o);
  checkBasis(`branch ${run}`, expected, made.preview, made.version);
  const r = (await store.getRun(run))!;
  const plan = await planOfRun(store, run);
  const start = await store.createRun({
    run: made.branch,
    taskId: r.taskId,
    planVersion: r.planVersion,
    inputVersion: r.inputVersion,
    plan,
    caps: r.caps,
    units: plan.units.map((u) => u.id),
    // a branch of an imported run is this store's own run: its ledger starts here, so it may be driven here
    origin: withoutImport(r.origin),
    now,
  });
  const data = {
    from: run,
    fromVersion: made.version,
    ...(o.at !== undefined ? { atEvent: o.at } : {}),
    reuse: made.preview.reuse,
    ...(reason ? { reason } : {}),
  };
  await store.commitCheckpoint(made.branch, start.version, {
    kind: "decision",
    changes: made.copies,
    approvals: [],
    nextAction: { kind: "run", units: [] },
    events: [decisionEvent(now, "branch", actor, data)],
    now,
  });
  await store.appendEvents(run, [
    decisionEvent(now, "branch", actor, {
      to: made.branch,
      ...(o.at !== undefined ? { atEvent: o.at } : {}),
      ...(reason ? { reason } : {}),
    }),
  ]);
  return { preview: made.preview, basis: basisOf(made.preview, made.version), branch: made.branch };
}

function withoutImport(origin: RunRow["origin"]): RunRow["origin"] {
  const { imported: _imported, ...own } = origin;
  return own;
}
