/**
 * `taskspec gc`'s decision, pure: from the rows of one run (its row, leases,
 * records, artifact manifests, events) and the files its artifact backend
 * lists, what may go once the audit window has passed. A run in flight (still
 * active, or holding a lease) is never collected from, nor one that changed
 * inside the window. What goes: the files of superseded and rejected
 * artifacts (their manifests and hashes stay), orphan files (no manifest),
 * and the payloads of events that are not audit facts. What stays: every
 * checkpoint and record (the baseline commits), current artifacts, and the
 * events of decisions, approvals, effects (their receipts are effect rows,
 * never collected), budgets and the collections themselves. A collection is
 * recorded as a `collected` event; what an earlier one recorded is not
 * counted again. A branch's manifests name its origin's files (it reuses them
 * in place), so a file another run still holds current is kept, whichever
 * run's gc looks at it. Table-tested in runtime/test/gc-plan.test.ts.
 */
import type { ArtifactManifest, Lease, RunEvent, RunRow, UnitRecord } from "../model/facts.js";

export const COLLECTED_EVENT = "collected";

/** Events whose payload is an audit fact: kept whatever their age. */
const KEPT_PREFIXES = ["effect-", "compensation-", "evidence-", "budget-", "approval-", "resume-token-", "run-"] as const;
const KEPT_TYPES = new Set([COLLECTED_EVENT, "decision", "checkpoint-committed", "verifier-module", "tools-module", "isolation"]);

export function keepsPayload(type: string): boolean {
  return KEPT_TYPES.has(type) || KEPT_PREFIXES.some((p) => type.startsWith(p));
}

export interface GcInput {
  run: RunRow;
  leases: readonly Lease[];
  records: readonly UnitRecord[];
  artifacts: readonly ArtifactManifest[];
  events: readonly RunEvent[];
  /** Every file the run's artifact backend holds under `runs/<run>/`. */
  files: readonly string[];
  /** The window's start (ISO time): only what is older may go. */
  cutoff: string;
  /** Paths other runs at the same location hold current (a branch reuses its origin's files), with those runs. */
  heldElsewhere?: ReadonlyMap<string, readonly string[]>;
}

export type GcPlan =
  | { kind: "skip"; run: string; reason: string }
  | {
      kind: "collect";
      run: string;
      /** Files of committed artifacts whose record is no longer current. */
      superseded: string[];
      /** Files of artifacts never made current (earlier loop iterations, failed attempts). */
      rejected: string[];
      /** Files with no manifest. */
      orphans: string[];
      /** Sequence numbers of the events whose payload goes. */
      payloads: number[];
      /** Files that would go but another run still holds current: kept. */
      shared: Array<{ path: string; runs: string[] }>;
    };

/** What the `collected` events of the run already recorded (paths), so a second gc counts nothing twice. */
export function collectedPaths(events: readonly RunEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of events) {
    if (e.type !== COLLECTED_EVENT || !e.data) continue;
    for (const key of ["superseded", "rejected"] as const) {
      const list = e.data[key];
      if (Array.isArray(list)) for (const p of list) if (typeof p === "string") out.add(p);
    }
  }
  return out;
}

export function planCollection(i: GcInput): GcPlan {
  const run = i.run.run;
  if (i.run.status === "active") return { kind: "skip", run, reason: "active: a run in flight is never collected from" };
  if (i.leases.length > 0)
    return { kind: "skip", run, reason: `holds ${i.leases.length} lease(s): a run in flight is never collected from` };
  // a collection itself is no change of the run: a second gc inside the window still sees it as old
  const lastChange = [i.run.updatedAt, ...i.events.filter((e) => e.type !== COLLECTED_EVENT).map((e) => e.at)].reduce((a, b) =>
    b > a ? b : a,
  );
  if (lastChange > i.cutoff) return { kind: "skip", run, reason: `changed at ${lastChange}, inside the window` };
  const done = collectedPaths(i.events);
  const current = new Set(i.records.filter((r) => r.status === "current").map((r) => r.id));
  const old = (a: ArtifactManifest) => a.createdAt <= i.cutoff && !done.has(a.path);
  const held = i.heldElsewhere ?? new Map<string, readonly string[]>();
  const shared = new Map<string, string[]>();
  const free = (path: string): boolean => {
    const runs = held.get(path);
    if (runs === undefined || runs.length === 0) return true;
    shared.set(path, [...runs].sort());
    return false;
  };
  const superseded = i.artifacts
    .filter((a) => a.status === "committed" && (a.recordId === undefined || !current.has(a.recordId)) && old(a))
    .map((a) => a.path)
    .filter(free);
  const rejected = i.artifacts
    .filter((a) => a.status === "rejected" && old(a))
    .map((a) => a.path)
    .filter(free);
  const known = new Set(i.artifacts.map((a) => a.path));
  const orphans = i.files.filter((f) => !known.has(f)).filter(free);
  const payloads = i.events.flatMap((e) =>
    e.seq !== undefined && e.data !== undefined && e.at <= i.cutoff && !keepsPayload(e.type) ? [e.seq] : [],
  );
  return {
    kind: "collect",
    run,
    superseded: superseded.sort(),
    rejected: rejected.sort(),
    orphans: [...orphans].sort(),
    payloads,
    shared: [...shared].map(([path, runs]) => ({ path, runs })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
  };
}

/**
 * The paths each run holds current (its current records' artifacts), by
 * artifact location: what `heldElsewhere` is built from.
 */
export function currentPaths(records: readonly UnitRecord[], artifacts: readonly ArtifactManifest[]): string[] {
  const current = new Set(records.filter((r) => r.status === "current").map((r) => r.id));
  return artifacts.filter((a) => a.status === "committed" && a.recordId !== undefined && current.has(a.recordId)).map((a) => a.path);
}

/** Nothing to remove: a collection that would record only itself. */
export function isEmpty(p: Extract<GcPlan, { kind: "collect" }>): boolean {
  return p.superseded.length + p.rejected.length + p.orphans.length + p.payloads.length === 0;
}

/** What the gc of a run removed so far, summed over its `collected` events (status, show, handoff explain it). */
export interface CollectionSummary {
  /** How many collections removed something. */
  times: number;
  /** The last one: when, and the window it kept. */
  last: { at: string; olderThan: string };
  superseded: number;
  rejected: number;
  orphans: number;
  payloads: number;
  /** When each removed artifact file went, by path. */
  removedAt: Record<string, string>;
}

export function collectionsOf(events: readonly RunEvent[]): CollectionSummary | undefined {
  let out: CollectionSummary | undefined;
  for (const e of events) {
    if (e.type !== COLLECTED_EVENT || !e.data) continue;
    const d = e.data;
    const paths = (key: string): string[] =>
      Array.isArray(d[key]) ? (d[key] as unknown[]).filter((p): p is string => typeof p === "string") : [];
    out ??= { times: 0, last: { at: e.at, olderThan: "" }, superseded: 0, rejected: 0, orphans: 0, payloads: 0, removedAt: {} };
    out.times++;
    out.last = { at: e.at, olderThan: typeof d.olderThan === "string" ? d.olderThan : "" };
    out.superseded += paths("superseded").length;
    out.rejected += paths("rejected").length;
    out.orphans += paths("orphans").length;
    out.payloads += typeof d.payloads === "number" ? d.payloads : 0;
    for (const p of [...paths("superseded"), ...paths("rejected"), ...paths("orphans")]) out.removedAt[p] = e.at;
  }
  return out;
}

/** One line for people: what gc removed and what it kept. */
export function describeCollections(c: CollectionSummary): string {
  return (
    `collected by gc ${c.times === 1 ? "once" : `${c.times} times`} (last ${c.last.at}${c.last.olderThan ? `, older than ${c.last.olderThan}` : ""}): ` +
    `${c.superseded} superseded and ${c.rejected} rejected artifact file(s), ${c.orphans} orphan file(s), ${c.payloads} event payload(s) removed; ` +
    "their manifests and hashes, every checkpoint and record, and the audit events are kept"
  );
}
