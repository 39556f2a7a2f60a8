/**
 * `taskspec gc`, the adapter: for each run of the store it reads the rows and
 * the files of the run's artifact backend, asks `planCollection`
 * (operator/gc-plan.ts) what may go, removes those files, then records the
 * collection (the event payloads and a `collected` event, one transaction
 * that refuses a run gone back in flight). Files go first: a collection cut
 * short leaves files removed and not yet recorded, and running gc again
 * records them (a removed file is not an error). `dryRun` removes nothing.
 * A first pass reads which paths every run holds current, so a file a branch
 * reuses from its origin survives the gc of either.
 */
import type { ArtifactStorage } from "../artifacts/storage.js";
import { InvalidTransitionError } from "../errors.js";
import type { ArtifactManifest, UnitRecord } from "../model/facts.js";
import type { Store } from "../store/types.js";
import { COLLECTED_EVENT, currentPaths, isEmpty, planCollection, type GcPlan } from "./gc-plan.js";

export interface GcOptions {
  /** The window's start: only what is older may go. */
  cutoff: string;
  /** The window as the operator wrote it (`30d`), recorded with the collection. */
  olderThan: string;
  now: string;
  dryRun: boolean;
  /** Only runs whose artifacts live at this location (as recorded); absent: every run. */
  location?: string;
}

export type GcOutcome = GcPlan & { location: string; state: "collected" | "would-collect" | "nothing" | "skipped" };

/** `storageFor` opens a run's artifact location (the caller closes what it opened). */
export async function collectGarbage(
  store: Store,
  storageFor: (location: string) => Promise<ArtifactStorage>,
  o: GcOptions,
): Promise<GcOutcome[]> {
  const out: GcOutcome[] = [];
  const rows = await store.listRuns();
  const holders = new Map<string, string[]>(); // location + NUL + path -> runs holding it current
  // read once: the first pass needs every run's rows, and the second plans from the same ones
  const rowsOf = new Map<string, [UnitRecord[], ArtifactManifest[]]>();
  for (const row of rows) {
    const [records, artifacts] = await Promise.all([store.getRecords(row.run), store.listArtifacts(row.run)]);
    rowsOf.set(row.run, [records, artifacts]);
    for (const path of currentPaths(records, artifacts)) {
      const k = `${row.origin.artifactRoot}\0${path}`;
      holders.set(k, [...(holders.get(k) ?? []), row.run]);
    }
  }
  const heldElsewhere = (run: string, location: string, paths: Iterable<string>): Map<string, string[]> => {
    const m = new Map<string, string[]>();
    for (const path of paths) {
      const others = (holders.get(`${location}\0${path}`) ?? []).filter((r) => r !== run);
      if (others.length > 0) m.set(path, others);
    }
    return m;
  };
  for (const row of rows) {
    const location = row.origin.artifactRoot;
    if (o.location !== undefined && location !== o.location) continue;
    const run = row.run;
    const [records, artifacts] = rowsOf.get(run)!;
    const [facts, events] = await Promise.all([store.loadFacts(run), store.listEvents(run)]);
    // in flight: decided before the backend is opened, so a run whose location this host cannot open is still reported
    const early = planCollection({ run: facts.run, leases: facts.leases, records, artifacts, events, files: [], cutoff: o.cutoff });
    if (early.kind === "skip") {
      out.push({ ...early, location, state: "skipped" });
      continue;
    }
    const storage = await storageFor(location);
    const files = await storage.listRunFiles(run);
    const held = heldElsewhere(run, location, [...artifacts.map((a) => a.path), ...files]);
    const plan = planCollection({
      run: facts.run,
      leases: facts.leases,
      records,
      artifacts,
      events,
      files,
      cutoff: o.cutoff,
      heldElsewhere: held,
    });
    if (plan.kind === "skip") {
      out.push({ ...plan, location, state: "skipped" });
      continue;
    }
    if (isEmpty(plan) || o.dryRun) {
      out.push({ ...plan, location, state: isEmpty(plan) ? "nothing" : "would-collect" });
      continue;
    }
    await storage.remove([...plan.superseded, ...plan.rejected, ...plan.orphans]);
    try {
      await store.recordCollection(run, plan.payloads, {
        at: o.now,
        type: COLLECTED_EVENT,
        data: {
          olderThan: o.olderThan,
          cutoff: o.cutoff,
          superseded: plan.superseded,
          rejected: plan.rejected,
          orphans: plan.orphans,
          payloads: plan.payloads.length,
        },
      });
    } catch (err) {
      if (!(err instanceof InvalidTransitionError)) throw err;
      out.push({ kind: "skip", run, reason: err.message, location, state: "skipped" });
      continue;
    }
    out.push({ ...plan, location, state: "collected" });
  }
  return out;
}
