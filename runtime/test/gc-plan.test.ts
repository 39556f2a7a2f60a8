/**
 * `taskspec gc`'s decision (runtime/src/operator/gc-plan.ts), as a table:
 * the rows of one run and its files in, what may go (or why the run is kept
 * whole) out; then what status says of the collections recorded.
 */
import { describe, expect, it } from "vitest";
import type { ArtifactManifest, Lease, RunEvent, RunRow, UnitRecord } from "../src/model/facts.js";
import { collectionsOf, describeCollections, keepsPayload, planCollection, type GcInput, type GcPlan } from "../src/operator/gc-plan.js";

const OLD = "2026-01-01T00:00:00.000Z";
const CUTOFF = "2026-02-01T00:00:00.000Z";
const RECENT = "2026-02-15T00:00:00.000Z";

const run = (o: Partial<RunRow> = {}): RunRow =>
  ({ run: "R", status: "done", updatedAt: OLD, origin: { artifactRoot: "/a" }, ...o }) as RunRow;
const record = (id: number, status: UnitRecord["status"]): UnitRecord => ({ id, unit: `u${id}`, status }) as UnitRecord;
const artifact = (path: string, o: Partial<ArtifactManifest> = {}): ArtifactManifest =>
  ({ run: "R", path, status: "committed", createdAt: OLD, ...o }) as ArtifactManifest;
const event = (seq: number, type: string, o: Partial<RunEvent> = {}): RunEvent => ({ seq, run: "R", at: OLD, type, data: { x: 1 }, ...o });
const lease = { run: "R", unit: "u1", owner: "h:1", token: 3 } as Lease;

/** A done run: u1's first record superseded by its second, a rejected loop file, an orphan, and events of each kind. */
const base: GcInput = {
  run: run(),
  leases: [],
  records: [record(1, "superseded"), record(2, "current")],
  artifacts: [
    artifact("runs/R/u1/a1/out", { recordId: 1 }),
    artifact("runs/R/u1/a2/out", { recordId: 2 }),
    artifact("runs/R/u1/a2/i1/draft", { status: "rejected" }),
    artifact("runs/R/u1/a3/out", { status: "corrupt", recordId: 1 }),
  ],
  events: [
    event(1, "run-created"),
    event(2, "text"),
    event(3, "attempt-failed"),
    event(4, "decision"),
    event(5, "approval-granted"),
    event(6, "effect-committed"),
    event(7, "budget-settled"),
    event(8, "leased", { data: undefined }),
  ],
  files: ["runs/R/u1/a1/out", "runs/R/u1/a2/out", "runs/R/u1/a2/i1/draft", "runs/R/u1/a9/stray"],
  cutoff: CUTOFF,
};

const collect = (o: Partial<Extract<GcPlan, { kind: "collect" }>>): GcPlan => ({
  kind: "collect",
  run: "R",
  superseded: [],
  rejected: [],
  orphans: [],
  payloads: [],
  shared: [],
  ...o,
});

const cases: Array<[string, Partial<GcInput>, GcPlan]> = [
  [
    "a run that ended before the window: superseded and rejected files, orphans and non-audit payloads go; current and corrupt stay",
    {},
    collect({
      superseded: ["runs/R/u1/a1/out"],
      rejected: ["runs/R/u1/a2/i1/draft"],
      orphans: ["runs/R/u1/a9/stray"],
      payloads: [2, 3],
    }),
  ],
  [
    "a superseded file a branch still holds current is kept, named with the branch; the rest goes as before",
    { heldElsewhere: new Map([["runs/R/u1/a1/out", ["R-b2", "R-b1"]]]) },
    collect({
      rejected: ["runs/R/u1/a2/i1/draft"],
      orphans: ["runs/R/u1/a9/stray"],
      payloads: [2, 3],
      shared: [{ path: "runs/R/u1/a1/out", runs: ["R-b1", "R-b2"] }],
    }),
  ],
  [
    "a run whose superseded and rejected files are all held by another run only has payloads to collect",
    {
      heldElsewhere: new Map([
        ["runs/R/u1/a1/out", ["B"]],
        ["runs/R/u1/a2/i1/draft", ["B"]],
      ]),
    },
    collect({
      orphans: ["runs/R/u1/a9/stray"],
      payloads: [2, 3],
      shared: [
        { path: "runs/R/u1/a1/out", runs: ["B"] },
        { path: "runs/R/u1/a2/i1/draft", runs: ["B"] },
      ],
    }),
  ],
  [
    "an active run is in flight: kept whole",
    { run: run({ status: "active" }) },
    { kind: "skip", run: "R", reason: "active: a run in flight is never collected from" },
  ],
  [
    "a run that ended but still holds a lease is in flight: kept whole",
    { run: run({ status: "cancelled" }), leases: [lease] },
    { kind: "skip", run: "R", reason: "holds 1 lease(s): a run in flight is never collected from" },
  ],
  [
    "a run changed inside the window (its row): kept whole",
    { run: run({ updatedAt: RECENT }) },
    { kind: "skip", run: "R", reason: `changed at ${RECENT}, inside the window` },
  ],
  [
    "a run changed inside the window (an event, e.g. an operator's decision): kept whole",
    { events: [...base.events, event(9, "decision", { at: RECENT })] },
    { kind: "skip", run: "R", reason: `changed at ${RECENT}, inside the window` },
  ],
  [
    "a collection inside the window is no change: the run is still collected, without what that collection recorded",
    {
      events: [
        ...base.events.map((e) => (e.seq === 2 || e.seq === 3 ? { ...e, data: undefined } : e)),
        event(10, "collected", { at: RECENT, data: { superseded: ["runs/R/u1/a1/out"], rejected: [], orphans: [], payloads: 2 } }),
      ],
      files: ["runs/R/u1/a2/out", "runs/R/u1/a2/i1/draft"],
    },
    collect({ rejected: ["runs/R/u1/a2/i1/draft"] }),
  ],
  [
    "a failed run is collected like a done one; a committed artifact of no record counts as superseded",
    { run: run({ status: "failed" }), artifacts: [artifact("runs/R/u2/a1/out")], files: [], events: [] },
    collect({ superseded: ["runs/R/u2/a1/out"] }),
  ],
];

describe("what gc may remove from one run: rows and files -> files and payloads, or the run kept whole", () => {
  for (const [name, patch, expected] of cases) it(name, () => expect(planCollection({ ...base, ...patch })).toEqual(expected));

  it("payloads kept: decisions, approvals, effects, budgets, the run's own, resume tokens, collections; others go", () => {
    const kept = [
      "decision",
      "approval-granted",
      "effect-committed",
      "effect-unknown",
      "compensation-verified",
      "budget-settled",
      "run-created",
      "run-cancelled",
      "resume-token-used",
      "collected",
      "checkpoint-committed",
      "evidence-read",
    ];
    const gone = ["text", "attempt-failed", "leased", "lease-broken", "blocked", "store-outage", "artifact-staged", "iteration-committed"];
    expect(kept.filter((t) => !keepsPayload(t))).toEqual([]);
    expect(gone.filter((t) => keepsPayload(t))).toEqual([]);
  });
});

describe("what status says of the collections recorded", () => {
  it("sums every collection, dates each removed file, names the last window", () => {
    const c = collectionsOf([
      event(1, "text"),
      event(2, "collected", { at: "T1", data: { olderThan: "30d", superseded: ["s1", "s2"], rejected: [], orphans: ["o1"], payloads: 7 } }),
      event(3, "collected", { at: "T2", data: { olderThan: "60d", superseded: [], rejected: ["r1"], orphans: [], payloads: 1 } }),
    ]);
    expect(c).toEqual({
      times: 2,
      last: { at: "T2", olderThan: "60d" },
      superseded: 2,
      rejected: 1,
      orphans: 1,
      payloads: 8,
      removedAt: { s1: "T1", s2: "T1", o1: "T1", r1: "T2" },
    });
    expect(describeCollections(c!)).toBe(
      "collected by gc 2 times (last T2, older than 60d): 2 superseded and 1 rejected artifact file(s), 1 orphan file(s), 8 event payload(s) removed; their manifests and hashes, every checkpoint and record, and the audit events are kept",
    );
  });
  it("no collection: nothing to say", () => expect(collectionsOf([event(1, "text")])).toBeUndefined());
});
