import { describe, expect, it } from "vitest";
import {
  BudgetBlockedError,
  InvalidTransitionError,
  LeaseHeldError,
  PlanVersionChangedError,
  StaleFencingTokenError,
  VersionConflictError,
} from "../src/errors.js";
import { recordContentDigest } from "../src/model/checkpoint-digest.js";
import type { BudgetAmounts, UnitStateRow } from "../src/model/facts.js";
import type { CheckpointCommit, UnitChange } from "../src/store/types.js";
import {
  claimEvents,
  decideClaim,
  decideBreakLease,
  decideCommit,
  decideEndAttempt,
  endAttemptRefusal,
  resolveHeader,
  unitTransition,
  type ClaimRequest,
  type AttemptWrite,
  type ClaimState,
  type CommitState,
  type EndAttemptState,
  type Refusal,
  type UnitWrite,
} from "../src/store/unit-transition.js";

const NOW = "2026-01-01T01:00:00.000Z";
const AT = { run: "R", version: 4, planVersion: "p1", now: NOW };
const row = (state: UnitStateRow["state"], extra: Partial<UnitStateRow> = {}): UnitStateRow => ({
  unit: "a",
  state,
  attempts: 1,
  failures: 0,
  version: 0,
  ...extra,
});
const art = (name: string) => ({
  run: "R",
  unit: "a",
  attempt: 2,
  name,
  path: `runs/R/a/a2/${name}`,
  sha256: "s",
  size: 1,
  mediaType: "text/plain",
  planVersion: "p1",
  verifierResults: [],
  createdAt: NOW,
});
const complete: UnitChange = { kind: "complete", unit: "a", attempt: 2, result: { x: 1 }, sources: {}, artifacts: [art("out")] };
const info = { path: "in --x--> a", direct: true, planVersion: "p2" };
const set = (over: Partial<Extract<UnitWrite, { op: "set-unit" }>>): UnitWrite => ({
  op: "set-unit",
  unit: "a",
  state: "pending",
  currentRecord: null,
  supersededRecord: null,
  superseded: null,
  lastError: null,
  failures: 0,
  version: 4,
  ...over,
});

describe("unit transitions: row + change -> writes", () => {
  const cases: Array<[string, UnitStateRow | undefined, UnitChange, UnitWrite[], Partial<UnitStateRow> | undefined]> = [
    [
      "commit of a pending unit: a new current record, its artifacts, succeeded",
      row("pending", { failures: 1 }),
      complete,
      [
        { op: "insert-record", unit: "a", attempt: 2, planVersion: "p1", result: { x: 1 }, sources: {}, version: 4, now: NOW },
        { op: "insert-artifacts", artifacts: [art("out")], status: "committed", record: { inserted: 0 } },
        set({ state: "succeeded", currentRecord: { inserted: 0 }, failures: 1 }),
      ],
      { state: "succeeded", failures: 1 },
    ],
    [
      "commit over a current record: the old record is superseded; rejected files recorded without a record",
      row("succeeded", { currentRecord: 5 }),
      { ...complete, rejected: [art("old")] } as UnitChange,
      [
        { op: "insert-record", unit: "a", attempt: 2, planVersion: "p1", result: { x: 1 }, sources: {}, version: 4, now: NOW },
        { op: "mark-record", record: 5, status: "superseded", reason: "replaced by a newer attempt" },
        { op: "insert-artifacts", artifacts: [art("out")], status: "committed", record: { inserted: 0 } },
        { op: "insert-artifacts", artifacts: [art("old")], status: "rejected", record: null },
        set({ state: "succeeded", currentRecord: { inserted: 0 } }),
      ],
      { state: "succeeded" },
    ],
    [
      "fail keeps the records and the superseded info, records the error with its attempt",
      row("superseded", { supersededRecord: 3, superseded: info, failures: 2 }),
      { kind: "fail", unit: "a", attempt: 3, error: { class: "timeout", message: "slow" } },
      [
        set({
          state: "failed",
          supersededRecord: 3,
          superseded: info,
          lastError: { class: "timeout", message: "slow", attempt: 3 },
          failures: 2,
        }),
      ],
      { state: "failed", supersededRecord: 3, failures: 2 },
    ],
    [
      "supersede of a succeeded unit: its record kept as superseded with the path, failures reset",
      row("succeeded", { currentRecord: 5, failures: 2 }),
      { kind: "supersede", unit: "a", info },
      [
        { op: "mark-record", record: 5, status: "superseded", reason: info.path },
        set({ state: "superseded", supersededRecord: 5, superseded: info }),
      ],
      { state: "superseded", supersededRecord: 5, superseded: info, failures: 0 },
    ],
    [
      "supersede of an already superseded unit keeps the record it waits to restore",
      row("superseded", { supersededRecord: 4 }),
      { kind: "supersede", unit: "a", info },
      [set({ state: "superseded", supersededRecord: 4, superseded: info })],
      { state: "superseded", supersededRecord: 4 },
    ],
    [
      "remove: superseded, then the unit row is deleted",
      row("succeeded", { currentRecord: 5 }),
      { kind: "remove", unit: "a", info },
      [
        { op: "mark-record", record: 5, status: "superseded", reason: info.path },
        set({ state: "superseded", supersededRecord: 5, superseded: info }),
        { op: "delete-unit", unit: "a" },
      ],
      undefined,
    ],
    [
      "restore (early cutoff): the superseded record is current again",
      row("superseded", { supersededRecord: 4, superseded: info, failures: 1 }),
      { kind: "restore", unit: "a" },
      [{ op: "mark-record", record: 4, status: "current", reason: null }, set({ state: "succeeded", currentRecord: 4, failures: 1 })],
      { state: "succeeded", currentRecord: 4 },
    ],
    [
      "reset of a unit new in the plan: a pending row",
      undefined,
      { kind: "reset", unit: "a" },
      [{ op: "insert-unit", unit: "a", version: 4 }],
      { state: "pending", attempts: 0 },
    ],
    [
      "reset of a succeeded unit (re-run): pending, its record kept for reference",
      row("succeeded", { currentRecord: 5, failures: 1 }),
      { kind: "reset", unit: "a" },
      [{ op: "mark-record", record: 5, status: "superseded", reason: "re-run requested" }, set({ supersededRecord: 5 })],
      { state: "pending", supersededRecord: 5, failures: 0 },
    ],
  ];
  for (const [name, before, change, writes, after] of cases) {
    it(name, () => {
      const t = unitTransition(before, change, AT);
      if (t.kind !== "transition") throw t.error;
      expect(t.writes).toEqual(writes);
      if (after === undefined) expect(t.after).toBeUndefined();
      else expect(t.after).toMatchObject(after);
    });
  }

  const refusals: Array<[string, UnitStateRow | undefined, UnitChange, string, RegExp]> = [
    ["a change to a unit the run does not have", undefined, { kind: "restore", unit: "a" }, "no-unit", /has no unit a/],
    [
      "restore without a superseded record",
      row("superseded"),
      { kind: "restore", unit: "a" },
      "nothing-to-restore",
      /no superseded record/,
    ],
  ];
  for (const [name, before, change, reason, message] of refusals) {
    it(`refuses ${name}`, () => {
      const t = unitTransition(before, change, AT);
      expect(t).toMatchObject({ kind: "refused", reason });
      if (t.kind === "refused") {
        expect(t.error).toBeInstanceOf(InvalidTransitionError);
        expect(t.error.message).toMatch(message);
      }
    });
  }
});

const runAt = (over: Partial<CommitState["run"]> = {}): CommitState["run"] => ({
  run: "R",
  version: 3,
  status: "active",
  planVersion: "p1",
  inputVersion: "i1",
  budgetUsed: { tool_calls: 2 },
  ...over,
});
const unitCommit = (unit: string, token: number, over: Partial<CheckpointCommit> = {}): CheckpointCommit => ({
  kind: "unit",
  fence: { unit, token },
  changes: [{ ...complete, unit } as UnitChange],
  approvals: [],
  nextAction: { kind: "run", units: [] },
  events: [{ at: NOW, type: "unit-succeeded", unit }],
  now: NOW,
  ...over,
});
const state = (over: Partial<CommitState> = {}): CommitState => ({
  run: runAt(),
  leases: new Map([
    ["a", { token: 7, owner: "w1" }],
    ["b", { token: 8, owner: "w1" }],
  ]),
  units: new Map([
    ["a", row("pending", { unit: "a" })],
    ["b", row("pending", { unit: "b" })],
  ]),
  ...over,
});

describe("checkpoint commits: run, leases, rows + commits -> steps or a refusal", () => {
  it("a group commit: versions expected+1.., each fence's lease deleted, events with checkpoint-committed", () => {
    const d = decideCommit(state(), 3, [unitCommit("a", 7), unitCommit("b", 8)], NOW);
    if (d.kind !== "commit") throw d.error;
    expect(d.steps.map((s) => [s.version, s.deleteLease, s.events.map((e) => e.type)])).toEqual([
      [4, { unit: "a", token: 7 }, ["unit-succeeded", "checkpoint-committed"]],
      [5, { unit: "b", token: 8 }, ["unit-succeeded", "checkpoint-committed"]],
    ]);
    // each completion chains its record's content (result and sources), so an edit of the row is told
    const content = recordContentDigest({ x: 1 }, {});
    expect(d.steps.map((s) => s.header.delta)).toEqual([
      [{ unit: "a", state: "succeeded", record: { inserted: 0 }, attempt: 2, content }],
      [{ unit: "b", state: "succeeded", record: { inserted: 1 }, attempt: 2, content }],
    ]);
    expect(resolveHeader(d.steps[1]!.header, [40, 41]).delta).toEqual([{ unit: "b", state: "succeeded", record: 41, attempt: 2, content }]);
    expect(d.steps[0]!.header).toMatchObject({ kind: "unit", planVersion: "p1", budgetUsed: { tool_calls: 2 }, committedAt: NOW });
    expect(d.run).toEqual({ version: 5, planVersion: "p1", inputVersion: "i1", status: "active", updatedAt: NOW, lastProgressAt: NOW });
  });

  it("a completion carrying its attempt's time books it: each checkpoint holds the spend up to it, the run the sum", () => {
    const d = decideCommit(state(), 3, [unitCommit("a", 7, { charge: { wall_clock_ms: 40 } }), unitCommit("b", 8)], NOW);
    if (d.kind !== "commit") throw d.error;
    expect(d.steps.map((s) => s.header.budgetUsed)).toEqual([
      { tool_calls: 2, wall_clock_ms: 40 },
      { tool_calls: 2, wall_clock_ms: 40 },
    ]);
    expect(d.run.budgetUsed).toEqual({ tool_calls: 2, wall_clock_ms: 40 });
    const both = decideCommit(
      state(),
      3,
      [unitCommit("a", 7, { charge: { wall_clock_ms: 40 } }), unitCommit("b", 8, { charge: { wall_clock_ms: 2, tool_calls: 1 } })],
      NOW,
    );
    if (both.kind !== "commit") throw both.error;
    expect(both.run.budgetUsed).toEqual({ tool_calls: 3, wall_clock_ms: 42 });
    // no charge, no budget write: the run row keeps what other transactions booked meanwhile
    const none = decideCommit(state(), 3, [unitCommit("a", 7)], NOW);
    if (none.kind !== "commit") throw none.error;
    expect(none.run).not.toHaveProperty("budgetUsed");
  });

  it("a later commit of the group sees the earlier one's rows: supersede of a record inserted in this group", () => {
    const supersede: CheckpointCommit = { ...unitCommit("a", 0), kind: "decision", changes: [{ kind: "supersede", unit: "a", info }] };
    delete supersede.fence;
    const d = decideCommit(state(), 3, [unitCommit("a", 7), supersede], NOW);
    if (d.kind !== "commit") throw d.error;
    expect(d.steps[1]!.writes[0]).toEqual({ op: "mark-record", record: { inserted: 0 }, status: "superseded", reason: info.path });
  });

  it("a plan change: later changes in it commit under the new plan version; no progress without a completion", () => {
    const change: CheckpointCommit = {
      kind: "plan-change",
      changes: [{ kind: "reset", unit: "c" }],
      plan: { planVersion: "p2", inputVersion: "i2", plan: { p: 2 } },
      approvals: [],
      nextAction: { kind: "run", units: [] },
      status: "active",
      events: [],
      now: NOW,
    };
    const d = decideCommit(state({ run: runAt({ status: "done" }) }), 3, [change], NOW);
    if (d.kind !== "commit") throw d.error;
    expect(d.steps[0]).toMatchObject({
      plan: { planVersion: "p2" },
      writes: [{ op: "insert-unit", unit: "c" }],
      header: { planVersion: "p2", inputVersion: "i2" },
    });
    expect(d.run).toEqual({ version: 4, planVersion: "p2", inputVersion: "i2", status: "active", updatedAt: NOW });
  });

  const planChange = (from: string, to: string): CheckpointCommit => ({
    kind: "plan-change",
    changes: [],
    plan: { planVersion: to, inputVersion: "i1", plan: { p: to } },
    planVersion: from,
    approvals: [],
    nextAction: { kind: "run", units: [] },
    events: [],
    now: NOW,
  });

  it("under the run's plan: a completion and a plan change from it commit; stating no plan is an operator's decision", () => {
    const d = decideCommit(state(), 3, [unitCommit("a", 7, { planVersion: "p1" }), planChange("p1", "p2"), unitCommit("b", 8)], NOW);
    if (d.kind !== "commit") throw d.error;
    expect(d.steps.map((s) => s.header.planVersion)).toEqual(["p1", "p2", "p2"]);
  });

  const refusals: Array<[string, CommitState, CheckpointCommit[], string, new (...a: never[]) => Error, RegExp]> = [
    [
      "a completion under a plan the run has left",
      state(),
      [unitCommit("a", 7, { planVersion: "p0" })],
      "plan-changed",
      PlanVersionChangedError,
      /under plan p1, not p0/,
    ],
    [
      "a plan change from a plan the run has left (a worker moving the run back to its older contract)",
      state(),
      [planChange("p0", "p0")],
      "plan-changed",
      PlanVersionChangedError,
      /under plan p1, not p0/,
    ],
    [
      "a completion under the plan an earlier commit of the group changed",
      state(),
      [planChange("p1", "p2"), unitCommit("a", 7, { planVersion: "p1" })],
      "plan-changed",
      PlanVersionChangedError,
      /under plan p2, not p1/,
    ],
    [
      "a stale worker under a plan the run has left: told it is stale (the fence first)",
      state(),
      [unitCommit("a", 6, { planVersion: "p0" })],
      "stale-fence",
      StaleFencingTokenError,
      /stale fencing token 6/,
    ],
    ["another version", state(), [unitCommit("a", 7)], "version-conflict", VersionConflictError, /expected version 2, the store is at 3/],
    ["a lease taken over", state(), [unitCommit("a", 6)], "stale-fence", StaleFencingTokenError, /current lease is token 7 held by w1/],
    ["no lease", state({ leases: new Map() }), [unitCommit("a", 7)], "stale-fence", StaleFencingTokenError, /no lease any more/],
    [
      "a completion in a cancelled run",
      state({ run: runAt({ status: "cancelled" }) }),
      [unitCommit("a", 7)],
      "run-not-active",
      InvalidTransitionError,
      /is cancelled; a unit completion is not accepted/,
    ],
    [
      "a stale worker in a cancelled run: told it is stale (the fence first)",
      state({ run: runAt({ status: "cancelled" }) }),
      [unitCommit("a", 6)],
      "stale-fence",
      StaleFencingTokenError,
      /stale fencing token 6/,
    ],
    [
      "a group with one stale member: the whole group",
      state(),
      [unitCommit("a", 7), unitCommit("b", 9)],
      "stale-fence",
      StaleFencingTokenError,
      /token 9 for unit b/,
    ],
    [
      "two commits under one lease: the first deletes it",
      state(),
      [unitCommit("a", 7), unitCommit("a", 7)],
      "stale-fence",
      StaleFencingTokenError,
      /no lease any more/,
    ],
    [
      "a change to a unit the run does not have",
      state({ units: new Map() }),
      [unitCommit("a", 7)],
      "no-unit",
      InvalidTransitionError,
      /has no unit a/,
    ],
  ];
  for (const [name, s, commits, reason, cls, message] of refusals) {
    it(`refuses ${name}`, () => {
      const d = decideCommit(s, name === "another version" ? 2 : 3, commits, NOW);
      expect(d).toMatchObject({ kind: "refused", reason });
      if (d.kind === "refused") {
        expect(d.error).toBeInstanceOf(cls);
        expect(d.error.message).toMatch(message);
      }
    });
  }
});

describe("claims: run, unit row, lease -> attempt and lease, or a refusal", () => {
  const claimState = (over: Partial<ClaimState> = {}): ClaimState => ({
    run: { run: "R", version: 3, status: "active", planVersion: "p1" },
    unit: row("pending", { attempts: 2 }),
    held: undefined,
    ...over,
  });
  const req = { unit: "a", owner: "w2", ttlMs: 1000, now: NOW };

  it("a pending unit: the next attempt number and a lease until now + ttl (under the run's plan, or none stated)", () => {
    expect(decideClaim(claimState(), { ...req, planVersion: "p1" })).toMatchObject({ kind: "claim", attempt: 3 });
    const d = decideClaim(claimState(), req);
    expect(d).toEqual({ kind: "claim", attempt: 3, newAttempt: true, expiresAt: "2026-01-01T01:00:01.000Z", reserved: {} });
    if (d.kind === "claim")
      expect(claimEvents(claimState(), req, d, 11).map((e) => [e.type, e.attempt, e.data?.token])).toEqual([["leased", 3, 11]]);
  });

  it("an expired lease is taken over (recorded); a recovery lease takes no attempt number", () => {
    const s = claimState({ unit: row("superseded", { attempts: 2 }), held: { owner: "w1", token: 9, attempt: 2, expiresAt: NOW } });
    const r = { ...req, recovery: true };
    const d = decideClaim(s, r);
    expect(d).toMatchObject({ kind: "claim", attempt: 2, newAttempt: false });
    if (d.kind === "claim")
      expect(claimEvents(s, r, d, 12)).toEqual([
        { at: NOW, type: "lease-taken-over", unit: "a", attempt: 2, data: { from: "w1", staleToken: 9, newToken: 12 } },
        {
          at: NOW,
          type: "leased",
          unit: "a",
          attempt: 2,
          data: { owner: "w2", token: 12, expiresAt: "2026-01-01T01:00:01.000Z", for: "recovery" },
        },
      ]);
  });

  const refusals: Array<
    [
      string,
      ClaimState,
      Partial<typeof req> & { expectedVersion?: number; planVersion?: string; recovery?: boolean },
      string,
      new (...a: never[]) => Error,
    ]
  > = [
    ["another run version than expected", claimState(), { expectedVersion: 2 }, "version-conflict", VersionConflictError],
    ["a claim under a plan the run has left", claimState(), { planVersion: "p0" }, "plan-changed", PlanVersionChangedError],
    [
      "a recovery lease under a plan the run has left",
      claimState(),
      { planVersion: "p0", recovery: true },
      "plan-changed",
      PlanVersionChangedError,
    ],
    [
      "a run that is not active",
      claimState({ run: { run: "R", version: 3, status: "done", planVersion: "p1" } }),
      {},
      "run-not-active",
      InvalidTransitionError,
    ],
    [
      "a new attempt of a run flagged as needing expert handling",
      claimState({
        run: { run: "R", version: 3, status: "active", planVersion: "p1", hold: { reason: "needs-expert", detail: "flagged by ada: x" } },
      }),
      {},
      "run-flagged",
      InvalidTransitionError,
    ],
    ["a unit the run does not have", claimState({ unit: undefined }), {}, "no-unit", InvalidTransitionError],
    [
      "a new attempt of a unit narrowed out of the run's scope",
      claimState({ unit: row("pending", { hold: { reason: "out-of-scope", detail: "narrowed by ada to b", at: NOW } }) }),
      {},
      "not-claimable",
      InvalidTransitionError,
    ],
    ["a succeeded unit", claimState({ unit: row("succeeded") }), {}, "not-claimable", InvalidTransitionError],
    ["a failed unit", claimState({ unit: row("failed") }), {}, "not-claimable", InvalidTransitionError],
    [
      "a unit under a live lease",
      claimState({ held: { owner: "w1", token: 9, attempt: 2, expiresAt: "2026-01-01T01:00:00.001Z" } }),
      {},
      "lease-held",
      LeaseHeldError,
    ],
    [
      "a unit still waiting out its retry backoff",
      claimState({ unit: row("pending", { failures: 1, notBefore: "2026-01-01T01:00:00.001Z" }) }),
      {},
      "not-claimable",
      InvalidTransitionError,
    ],
  ];
  it("a flagged run still grants a recovery lease (it starts no attempt); a run held for another reason is claimed", () => {
    const flagged = claimState({
      run: { run: "R", version: 3, status: "active", planVersion: "p1", hold: { reason: "needs-expert", detail: "flagged" } },
    });
    expect(decideClaim(flagged, { ...req, recovery: true })).toMatchObject({ kind: "claim", newAttempt: false });
    const budget = claimState({
      run: { run: "R", version: 3, status: "active", planVersion: "p1", hold: { reason: "budget", detail: "b" } },
    });
    expect(decideClaim(budget, req)).toMatchObject({ kind: "claim", newAttempt: true });
    const dropped = claimState({ unit: row("pending", { hold: { reason: "out-of-scope", detail: "narrowed", at: NOW } }) });
    expect(decideClaim(dropped, { ...req, recovery: true })).toMatchObject({ kind: "claim", newAttempt: false });
    const awaiting = claimState({ unit: row("pending", { hold: { reason: "approval", detail: "gate", at: NOW } }) });
    expect(decideClaim(awaiting, req)).toMatchObject({ kind: "claim", newAttempt: true });
  });
  it("a unit whose backoff is over is claimed; a recovery lease never waits for a backoff", () => {
    expect(decideClaim(claimState({ unit: row("pending", { failures: 1, notBefore: NOW }) }), req)).toMatchObject({ kind: "claim" });
    const waiting = claimState({ unit: row("pending", { failures: 1, notBefore: "2026-01-01T02:00:00.000Z" }) });
    expect(decideClaim(waiting, { ...req, recovery: true })).toMatchObject({ kind: "claim", newAttempt: false });
  });
  for (const [name, s, over, reason, cls] of refusals) {
    it(`refuses ${name}`, () => {
      const d = decideClaim(s, { ...req, ...over });
      expect(d).toMatchObject({ kind: "refused", reason });
      if (d.kind === "refused") expect(d.error).toBeInstanceOf(cls);
    });
  }

  // the declared cost is booked with the claim, or the claim is refused: budgets before -> booking after
  const budgeted = (used: BudgetAmounts, caps: BudgetAmounts): ClaimState =>
    claimState({ run: { run: "R", version: 3, status: "active", planVersion: "p1", budgetUsed: used, caps } });
  const bookings: Array<[string, ClaimState, ClaimRequest, BudgetAmounts | undefined | "refused"]> = [
    [
      "a cost that fits is added to used",
      budgeted({ model_calls: 3 }, { model_calls: 5 }),
      { ...req, reserve: { model_calls: 2 } },
      { model_calls: 5 },
    ],
    [
      "every dimension is booked, capped or not",
      budgeted({ tokens: 10 }, { model_calls: 5 }),
      { ...req, reserve: { model_calls: 1, tokens: 100, tool_calls: 2 } },
      { model_calls: 1, tokens: 110, tool_calls: 2 },
    ],
    [
      "one unit more than the cap leaves: refused",
      budgeted({ model_calls: 4 }, { model_calls: 5 }),
      { ...req, reserve: { model_calls: 2 } },
      "refused",
    ],
    ["wall-clock time at its cap: refused, whatever the cost", budgeted({ wall_clock_ms: 60 }, { wall_clock_ms: 60 }), req, "refused"],
    ["no declared cost: nothing is booked", budgeted({ model_calls: 5 }, { model_calls: 5 }), { ...req, reserve: {} }, undefined],
    [
      "a recovery lease books nothing, even past the cap",
      budgeted({ model_calls: 5 }, { model_calls: 5 }),
      { ...req, recovery: true, reserve: { model_calls: 2 } },
      undefined,
    ],
  ];
  for (const [name, s, r, after] of bookings) {
    it(`books the declared cost: ${name}`, () => {
      const d = decideClaim(s, r);
      if (after === "refused") {
        expect(d).toMatchObject({ kind: "refused", reason: "over-budget" });
        if (d.kind === "refused") expect(d.error).toBeInstanceOf(BudgetBlockedError);
        return;
      }
      expect(d.kind).toBe("claim");
      if (d.kind !== "claim") return;
      expect(d.budgetUsed).toEqual(after);
      expect(d.reserved).toEqual(after === undefined || r.recovery ? {} : r.reserve);
      const reservedEvents = claimEvents(s, r, d, 11).filter((e) => e.type === "budget-reserved");
      expect(reservedEvents.map((e) => e.data)).toEqual(after === undefined ? [] : [{ ...r.reserve, for: "declared cost" }]);
    });
  }
});

describe("ending an attempt: a failure counts only under the run's plan", () => {
  const run = { run: "R", planVersion: "p1" };
  const cases: Array<[string, { countsAsFailure: boolean; planVersion?: string }, string | undefined]> = [
    ["a failure under the run's plan counts", { countsAsFailure: true, planVersion: "p1" }, undefined],
    ["a failure stating no plan counts (an operator's or the store's own end)", { countsAsFailure: true }, undefined],
    ["a failure under a plan the run has left is refused", { countsAsFailure: true, planVersion: "p0" }, "plan-changed"],
    ["an uncounted end under a plan the run has left is accepted", { countsAsFailure: false, planVersion: "p0" }, undefined],
  ];
  for (const [name, outcome, reason] of cases)
    it(name, () => {
      const d = endAttemptRefusal(run, outcome);
      expect(d?.reason).toBe(reason);
      if (d) expect(d.error).toBeInstanceOf(PlanVersionChangedError);
    });
});

describe("ending an attempt without a commit: the writes each backend executes", () => {
  const err = { class: "handler-error" as const, message: "boom", attempt: 3 };
  const state = (over: Partial<EndAttemptState> = {}): EndAttemptState => ({
    run: { run: "R", planVersion: "p1" },
    lease: { token: 7, owner: "w1" },
    unit: { failures: 1 },
    ...over,
  });
  const release: AttemptWrite = { op: "delete-lease", unit: "a", token: 7 };
  type Outcome = Parameters<typeof decideEndAttempt>[1]["outcome"];
  const cases: Array<[string, EndAttemptState, Outcome, AttemptWrite[] | Refusal["reason"]]> = [
    [
      "a counted failure adds one, records the error and the backoff, releases the lease",
      state(),
      { countsAsFailure: true, error: err, rejected: [], notBefore: "2026-01-01T01:00:05.000Z", planVersion: "p1" },
      [{ op: "set-failures", unit: "a", failures: 2, lastError: err, notBefore: "2026-01-01T01:00:05.000Z" }, release],
    ],
    [
      "an uncounted end keeps the count and the stored error, and clears the backoff",
      state(),
      { countsAsFailure: false, rejected: [] },
      [{ op: "set-failures", unit: "a", failures: 1, lastError: null, notBefore: null }, release],
    ],
    [
      "rejected files are recorded, the loop closed when asked, in this order",
      state(),
      { countsAsFailure: true, error: err, rejected: [art("draft")], closeIterations: true },
      [
        { op: "set-failures", unit: "a", failures: 2, lastError: err, notBefore: null },
        { op: "insert-artifacts", artifacts: [art("draft")], status: "rejected", record: null },
        { op: "close-iterations", unit: "a", at: NOW },
        release,
      ],
    ],
    [
      "a verdict closes the unit's journal of paid calls: its next attempt calls afresh",
      state(),
      { countsAsFailure: true, error: err, rejected: [], closeJournal: true },
      [
        { op: "set-failures", unit: "a", failures: 2, lastError: err, notBefore: null },
        { op: "close-journal", unit: "a", at: NOW },
        release,
      ],
    ],
    [
      "a unit a plan change removed under the attempt: only the lease is released",
      state({ unit: undefined }),
      { countsAsFailure: false, rejected: [] },
      [release],
    ],
    ["no lease: a stale fence", state({ lease: undefined }), { countsAsFailure: true, error: err, rejected: [] }, "stale-fence"],
    [
      "another token holds the lease: a stale fence, before the plan check",
      state({ lease: { token: 8, owner: "w2" } }),
      { countsAsFailure: true, error: err, rejected: [], planVersion: "p0" },
      "stale-fence",
    ],
    [
      "a counted failure under a plan the run has left",
      state(),
      { countsAsFailure: true, error: err, rejected: [], planVersion: "p0" },
      "plan-changed",
    ],
  ];
  for (const [name, s, outcome, want] of cases)
    it(name, () => {
      const d = decideEndAttempt(s, { unit: "a", token: 7, outcome, at: NOW });
      if (typeof want === "string") {
        expect(d).toMatchObject({ kind: "refused", reason: want });
        if (d.kind === "refused") expect(d.error).toBeInstanceOf(want === "stale-fence" ? StaleFencingTokenError : PlanVersionChangedError);
        return;
      }
      expect(d).toEqual({ kind: "end-attempt", writes: want, events: true });
    });

  const breaks: Array<[string, Omit<EndAttemptState, "run">, boolean, AttemptWrite[] | "no-op"]> = [
    ["the lease is released; a plain break counts nothing", { lease: { token: 7, owner: "w1" }, unit: { failures: 1 } }, false, [release]],
    [
      "an attempt whose worker is gone counts as a failure with its error; the backoff is kept",
      { lease: { token: 7, owner: "w1" }, unit: { failures: 1 } },
      true,
      [release, { op: "set-failures", unit: "a", failures: 2, lastError: err }],
    ],
    [
      "a lease another token took over is left alone, with no event",
      { lease: { token: 8, owner: "w2" }, unit: { failures: 1 } },
      true,
      "no-op",
    ],
    ["a lease already gone: nothing, no event", { lease: undefined, unit: { failures: 1 } }, true, "no-op"],
    ["a removed unit: only the lease goes", { lease: { token: 7, owner: "w1" }, unit: undefined }, true, [release]],
  ];
  for (const [name, s, ended, want] of breaks)
    it(`breaking a lease: ${name}`, () => {
      const d = decideBreakLease(s, { unit: "a", token: 7, at: NOW, ...(ended ? { ended: { error: err } } : {}) });
      expect(d).toEqual(
        want === "no-op" ? { kind: "end-attempt", writes: [], events: false } : { kind: "end-attempt", writes: want, events: true },
      );
    });
});
