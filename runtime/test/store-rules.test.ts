import { describe, expect, it } from "vitest";
import {
  InvalidTransitionError,
  NotFoundError,
  PlanVersionChangedError,
  ResumeTokenError,
  StaleFencingTokenError,
  type RuntimeError,
} from "../src/errors.js";
import type { EffectRecord, Lease, LoopIteration, PaidCall } from "../src/model/facts.js";
import { EffectKeyConflictError } from "../src/store/effect-identity.js";
import { decidePrepareEffect, decideUpdateEffect, type PrepareEffectState } from "../src/store/effect-rules.js";
import {
  decideAddOperator,
  decideConsumeResumeToken,
  decideIssueResumeToken,
  decideRevokeApproval,
  type ResumeTokenRow,
} from "../src/store/gate-rules.js";
import { commitWrites, decideCommitIteration, decideJournalPaidCall, decideRenewLease, endWrites } from "../src/store/lease-rules.js";
import {
  corruptArtifactWrites,
  decideCharge,
  decideCreateRun,
  decideRunChange,
  unitHoldWrites,
  type RunChange,
} from "../src/store/run-rules.js";
import { decideCommit, type CommitState } from "../src/store/unit-transition.js";
import { decideRecordCollection } from "../src/store/gc-rules.js";
import type { CheckpointCommit } from "../src/store/types.js";
import type { Decided, EventIn, StoreWrite } from "../src/store/writes.js";

const NOW = "2026-01-01T01:00:00.000Z";
const LATER = "2026-01-01T02:00:00.000Z";
const EARLIER = "2026-01-01T00:00:00.000Z";
const ev = (type: string, data?: Record<string, unknown>): EventIn => ({ at: NOW, type, ...(data ? { data } : {}) });
const events = (...list: EventIn[]): StoreWrite => ({ op: "insert-events", events: list });

/** The writes of an accepted answer, or the refusal's reason and error (class and message) for a table's expectation. */
function outcome(d: Decided): StoreWrite[] | { reason: string; error: RuntimeError } {
  return d.kind === "writes" ? d.writes : { reason: d.reason, error: d.error };
}

function expectRefused(d: Decided, reason: string, cls: new (...a: never[]) => RuntimeError, message: RegExp): void {
  expect(d.kind).toBe("refused");
  if (d.kind !== "refused") return;
  expect(d.reason).toBe(reason);
  expect(d.error).toBeInstanceOf(cls);
  expect(d.error.message).toMatch(message);
}

const effect: Omit<EffectRecord, "state" | "commitSeq"> = {
  id: "e1",
  run: "R",
  unit: "a",
  attempt: 2,
  seq: 1,
  tool: "mail",
  toolClass: "reversible",
  intent: "send",
  argsDigest: "d1",
  requestHash: "h1",
  key: "k1",
  token: 7,
  preparedAt: NOW,
} as Omit<EffectRecord, "state" | "commitSeq">;
const fence = { unit: "a", token: 7 };
const lease = { token: 7, owner: "w1" };
const prepared = (over: Partial<PrepareEffectState> = {}): PrepareEffectState => ({ lease, planVersion: "p1", sameKey: [], ...over });
const known = (over: Partial<EffectRecord>): EffectRecord => ({ ...effect, state: "COMMITTED", ...over }) as EffectRecord;

describe("effects: lease, plan, same-key effects + effect -> PREPARED row, or a refusal", () => {
  it("under the current lease and the run's plan, with a key nobody holds: the PREPARED row and effect-prepared", () => {
    expect(outcome(decidePrepareEffect(prepared(), effect, { ...fence, planVersion: "p1" }))).toEqual([
      { op: "insert-effect", effect },
      events({
        at: NOW,
        type: "effect-prepared",
        unit: "a",
        attempt: 2,
        data: { effect: "e1", tool: "mail", class: "reversible", key: "k1" },
      }),
    ]);
  });

  it("a request held at a gate says so in its event", () => {
    const held = { ...effect, held: { gate: "g" } as never };
    const d = decidePrepareEffect(prepared(), held, fence);
    expect(d.kind === "writes" && d.writes[1]).toMatchObject({ events: [{ data: { held: true } }] });
  });

  it("the same request under its key again (a retry of the same call) is recorded", () => {
    const same = known({ id: "e0", state: "COMMITTED" });
    expect(decidePrepareEffect(prepared({ sameKey: [same] }), effect, fence).kind).toBe("writes");
  });

  const refusals: Array<[string, PrepareEffectState, typeof fence & { planVersion?: string }, string, new () => RuntimeError, RegExp]> = [
    [
      "a lease taken over (the fence first)",
      prepared({ lease: { token: 9, owner: "w2" } }),
      fence,
      "stale-fence",
      StaleFencingTokenError as never,
      /token 9 held by w2/,
    ],
    ["no lease at all", prepared({ lease: undefined }), fence, "stale-fence", StaleFencingTokenError as never, /no lease/],
    [
      "a run under another plan than the caller's",
      prepared({ planVersion: "p2" }),
      { ...fence, planVersion: "p1" },
      "plan-changed",
      PlanVersionChangedError as never,
      /p1/,
    ],
    [
      "a key held by another request",
      prepared({ sameKey: [known({ id: "e0", requestHash: "other", argsDigest: "other" })] }),
      fence,
      "key-conflict",
      EffectKeyConflictError as never,
      /e0/,
    ],
  ];
  for (const [name, state, f, reason, cls, message] of refusals)
    it(`refuses ${name}`, () => expectRefused(decidePrepareEffect(state, effect, f), reason, cls, message));
});

describe("effect transitions: stored state + expected states + patch -> columns, or a refusal", () => {
  const at = (state: EffectRecord["state"]) => ({ id: "e1", run: "R", state });
  const cases: Array<[string, EffectRecord["state"], Parameters<typeof decideUpdateEffect>[3], EventIn | undefined, StoreWrite[]]> = [
    [
      "PREPARED -> STARTED sets the patched columns; no commit number",
      "PREPARED",
      { state: "STARTED", startedAt: NOW },
      undefined,
      [{ op: "update-effect", id: "e1", columns: { state: "STARTED", started_at: NOW }, commitSeq: false }],
    ],
    [
      "STARTED -> COMMITTED takes the run's next commit number; the event follows",
      "STARTED",
      { state: "COMMITTED", receipt: { id: 1 } },
      ev("effect-committed"),
      [
        { op: "update-effect", id: "e1", columns: { state: "COMMITTED", receipt: '{"id":1}' }, commitSeq: true },
        events(ev("effect-committed")),
      ],
    ],
    [
      "a COMMITTED effect patched again keeps its commit number",
      "COMMITTED",
      { state: "COMMITTED", compensationState: "pending" },
      undefined,
      [{ op: "update-effect", id: "e1", columns: { state: "COMMITTED", compensation_state: "pending" }, commitSeq: false }],
    ],
    [
      "a held request released: held cleared to NULL; fields outside the patchable columns are not written",
      "PREPARED",
      { held: null, commitSeq: 4 } as never,
      undefined,
      [{ op: "update-effect", id: "e1", columns: { held: null }, commitSeq: false }],
    ],
  ];
  for (const [name, state, patch, event, writes] of cases)
    it(name, () =>
      expect(outcome(decideUpdateEffect(at(state), "e1", ["PREPARED", "STARTED", "COMMITTED"], patch, event))).toEqual(writes),
    );

  it("refuses an effect in none of the expected states, naming both", () =>
    expectRefused(
      decideUpdateEffect(at("UNKNOWN"), "e1", ["PREPARED", "STARTED"], { state: "COMMITTED" }),
      "wrong-state",
      InvalidTransitionError,
      /e1 is UNKNOWN, expected PREPARED\|STARTED/,
    ));
  it("refuses an effect the store does not have", () =>
    expectRefused(decideUpdateEffect(undefined, "e9", ["PREPARED"], {}), "no-effect", NotFoundError, /no effect e9/));
});

describe("resume tokens, approvals, operators: row + request -> writes, or a refusal", () => {
  const token = (over: Partial<ResumeTokenRow> = {}): ResumeTokenRow => ({
    run: "R",
    unit: "gate",
    usedAt: null,
    expiresAt: LATER,
    ...over,
  });
  const gate = { run: "R", unit: "gate" };

  it("a token is issued with its expiry, said in resume-token-issued", () =>
    expect(outcome(decideIssueResumeToken("h", { run: "R", unit: "gate", expiresAt: LATER, createdAt: NOW }))).toEqual([
      { op: "insert-resume-token", tokenHash: "h", unit: "gate", expiresAt: LATER, createdAt: NOW },
      events({ at: NOW, type: "resume-token-issued", unit: "gate", data: { expiresAt: LATER } }),
    ]));

  it("a token of this gate, unused, before its expiry: marked used now, said in resume-token-used", () =>
    expect(outcome(decideConsumeResumeToken(token(), "h", NOW, gate))).toEqual([
      { op: "use-resume-token", tokenHash: "h", at: NOW },
      events({ at: NOW, type: "resume-token-used", unit: "gate" }),
    ]));

  const refusals: Array<[string, ResumeTokenRow | undefined, RegExp]> = [
    ["an unknown token", undefined, /^unknown resume token$/],
    ["another gate's token (and it stays unused)", token({ unit: "other" }), /belongs to gate R\/other, not R\/gate; it was not used/],
    ["a token used before", token({ usedAt: EARLIER }), /already used at 2026-01-01T00:00:00.000Z; tokens are single-use/],
    ["a token at its expiry", token({ expiresAt: NOW }), /expired at 2026-01-01T01:00:00.000Z/],
  ];
  for (const [name, row, message] of refusals)
    it(`refuses ${name}`, () => expectRefused(decideConsumeResumeToken(row, "h", NOW, gate), "bad-token", ResumeTokenError, message));

  it("an approval is revoked at now; an unknown one is refused", () => {
    expect(outcome(decideRevokeApproval({ run: "R" }, "ap1", NOW, ev("approval-revoked")))).toEqual([
      { op: "revoke-approval", id: "ap1", at: NOW },
      events(ev("approval-revoked")),
    ]);
    expectRefused(decideRevokeApproval(undefined, "ap9", NOW, ev("approval-revoked")), "no-approval", NotFoundError, /no approval ap9/);
  });

  it("an operator is added once: a name or key already taken is refused, naming the holder", () => {
    const row = { name: "ana", keyHash: "k", createdAt: NOW };
    expect(outcome(decideAddOperator(undefined, row))).toEqual([{ op: "insert-operator", ...row }]);
    expectRefused(decideAddOperator({ name: "bo" }, row), "operator-exists", InvalidTransitionError, /already has an operator bo/);
  });
});

describe("runs: run row + operator's change -> writes, or a refusal", () => {
  const run = { caps: { tool_calls: 5, cost_usd: 2 }, origin: { contract: "c1", by: "ana" } } as never;
  const cases: Array<[string, RunChange, Record<string, unknown>]> = [
    [
      "caps merge into the stored ones: a cap given replaces that cap only",
      { kind: "caps", caps: { tool_calls: 9 } },
      { caps: { tool_calls: 9, cost_usd: 2 } },
    ],
    ["an origin merges the same way", { kind: "origin", origin: { contract: "c2" } as never }, { origin: { contract: "c2", by: "ana" } }],
    ["a hold replaces the hold", { kind: "hold", hold: { reason: "look" } as never }, { hold: { reason: "look" } }],
    ["a hold lifted is NULL", { kind: "hold", hold: null }, { hold: null }],
    ["a status replaces the status", { kind: "status", status: "cancelled" }, { status: "cancelled" }],
  ];
  for (const [name, change, set] of cases)
    it(`${name}; dated by its event, which follows`, () =>
      expect(outcome(decideRunChange(run, "R", change, ev("x")))).toEqual([
        { op: "update-run", set: { ...set, updatedAt: NOW } },
        events(ev("x")),
      ]));

  it("refuses a change to a run the store does not have", () =>
    expectRefused(
      decideRunChange(undefined, "R9", { kind: "status", status: "done" }, ev("x")),
      "no-run",
      NotFoundError,
      /no run R9 in this store/,
    ));

  it("a unit's hold and a corrupt file are written as asked, with their events", () => {
    expect(unitHoldWrites("a", null, ev("unit-released"))).toEqual([
      { op: "set-unit-hold", unit: "a", hold: null },
      events(ev("unit-released")),
    ]);
    expect(corruptArtifactWrites("runs/R/a/x", ev("artifact-corrupt"))).toEqual([
      { op: "mark-artifact-corrupt", path: "runs/R/a/x" },
      events(ev("artifact-corrupt")),
    ]);
  });

  it("a new run: plan, row (refused by the insert if it exists), pending units, start checkpoint 0, run-created", () => {
    const spec = {
      run: "R",
      taskId: "t",
      planVersion: "p1",
      inputVersion: "i1",
      plan: { p: 1 },
      caps: {},
      units: ["a", "b"],
      origin: {} as never,
      now: NOW,
    };
    const d = decideCreateRun(spec);
    if (d.kind !== "writes") throw d.error;
    expect(d.writes.map((w) => w.op)).toEqual(["insert-plan", "insert-run", "insert-units", "insert-checkpoint", "insert-events"]);
    expect(d.writes[1]).toMatchObject({ exists: { message: "run R already exists" } });
    expect(d.writes[3]).toMatchObject({
      version: 0,
      header: {
        kind: "start",
        delta: [
          { unit: "a", state: "pending" },
          { unit: "b", state: "pending" },
        ],
      },
    });
  });
});

describe("a collection (gc): run row + leases -> payloads cleared and its event, or a refusal", () => {
  it("a run that ended and holds no lease: the payloads cleared, then the collected event", () =>
    expect(outcome(decideRecordCollection({ run: { status: "done" }, leases: 0 }, "R", [4, 9], ev("collected")))).toEqual([
      { op: "clear-event-payloads", seqs: [4, 9] },
      events(ev("collected")),
    ]));
  it("no payload to clear: only the event", () =>
    expect(outcome(decideRecordCollection({ run: { status: "cancelled" }, leases: 0 }, "R", [], ev("collected")))).toEqual([
      events(ev("collected")),
    ]));
  const refusals: Array<[string, Parameters<typeof decideRecordCollection>[0], string, RegExp]> = [
    ["a run the store does not have", { run: undefined, leases: 0 }, "no-run", /no run R in this store/],
    ["an active run (in flight)", { run: { status: "active" }, leases: 0 }, "in-flight", /run R is in flight \(active, 0 lease/],
    ["a run that ended but still holds a lease", { run: { status: "failed" }, leases: 1 }, "in-flight", /in flight \(failed, 1 lease/],
  ];
  for (const [name, state, reason, message] of refusals)
    it(`refuses ${name}`, () =>
      expectRefused(
        decideRecordCollection(state, "R", [1], ev("collected")),
        reason,
        reason === "no-run" ? NotFoundError : InvalidTransitionError,
        message,
      ));
});

describe("charges: used budgets, caps, booking + charge -> writes", () => {
  const run = { budgetUsed: { tool_calls: 3 }, caps: { tool_calls: 4 } };
  const booking = { unit: "a", token: 7 };
  const cases: Array<[string, Parameters<typeof decideCharge>[0], number, "check" | "record", StoreWrite[], boolean]> = [
    [
      "under the cap: the used budgets grow, the event follows",
      { run, booking: undefined },
      1,
      "check",
      [{ op: "update-run", set: { budgetUsed: { tool_calls: 4 }, updatedAt: NOW } }, events(ev("charged"))],
      true,
    ],
    ["past the cap: refused, nothing written", { run, booking: undefined }, 2, "check", [], false],
    [
      "past the cap but recorded (already spent): written",
      { run, booking: undefined },
      2,
      "record",
      [{ op: "update-run", set: { budgetUsed: { tool_calls: 5 }, updatedAt: NOW } }, events(ev("charged"))],
      true,
    ],
    [
      "drawn from the attempt's booking first: the lease keeps the rest, the event names what was drawn",
      { run, booking: { tool_calls: 3 } },
      2,
      "check",
      [
        { op: "update-run", set: { budgetUsed: { tool_calls: 3 }, updatedAt: NOW } },
        { op: "set-lease-reserved", unit: "a", token: 7, reserved: { tool_calls: 1 } },
        events({ ...ev("charged"), data: { reserved: { tool_calls: 2 } } }),
      ],
      true,
    ],
    [
      "a booking drawn to nothing is cleared",
      { run, booking: { tool_calls: 1 } },
      1,
      "check",
      [
        { op: "update-run", set: { budgetUsed: { tool_calls: 3 }, updatedAt: NOW } },
        { op: "set-lease-reserved", unit: "a", token: 7, reserved: null },
        events({ ...ev("charged"), data: { reserved: { tool_calls: 1 } } }),
      ],
      true,
    ],
  ];
  for (const [name, state, n, mode, writes, ok] of cases)
    it(name, () => {
      const d = decideCharge(state, { tool_calls: n }, ev("charged"), mode, state.booking ? booking : undefined);
      expect(d.outcome.ok).toBe(ok);
      expect(d.writes).toEqual(writes);
    });
});

describe("under a lease: renewals, loop iterations, paid calls", () => {
  const held: Lease = { run: "R", unit: "a", owner: "w1", token: 7, attempt: 2, expiresAt: NOW, renewedAt: EARLIER };
  const it1 = { run: "R", unit: "a", loop: "l", iteration: 1, max: 3, attempt: 2, result: null, artifacts: [], committedAt: NOW } as Omit<
    LoopIteration,
    "closedAt"
  >;
  const call = {
    run: "R",
    unit: "a",
    attempt: 2,
    seq: 1,
    iteration: 0,
    kind: "model",
    requestHash: "h",
    state: "started",
    at: NOW,
  } as Omit<PaidCall, "closedAt">;

  it("a renewal of the current lease moves its expiry to now + ttl", () => {
    const d = decideRenewLease(held, "R", fence, 60_000, NOW);
    expect(outcome(d)).toEqual([{ op: "renew-lease", unit: "a", token: 7, expiresAt: "2026-01-01T01:01:00.000Z", renewedAt: NOW }]);
    expect(d.kind === "writes" && d.lease).toEqual({ ...held, expiresAt: "2026-01-01T01:01:00.000Z", renewedAt: NOW });
  });

  it("an iteration is inserted (the open loop's index refuses it twice), its files recorded as rejected, its event", () => {
    const d = decideCommitIteration(lease, it1, fence, ev("iteration-committed"));
    if (d.kind !== "writes") throw d.error;
    expect(d.writes[0]).toMatchObject({
      op: "insert-iteration",
      iteration: it1,
      committed: { message: "iteration 1 of a's loop is already committed in run R" },
    });
    expect(d.writes.slice(1)).toEqual([
      { op: "insert-artifacts", artifacts: [], status: "rejected", record: null },
      events(ev("iteration-committed")),
    ]);
  });

  it("a paid call is journalled under the current lease", () =>
    expect(outcome(decideJournalPaidCall(lease, call, fence))).toEqual([{ op: "insert-paid-call", call }]));

  const stale = { token: 8, owner: "w2" };
  const refusals: Array<[string, () => Decided]> = [
    ["a renewal of a lease taken over", () => decideRenewLease({ ...held, token: 8, owner: "w2" }, "R", fence, 1000, NOW)],
    ["a renewal of a lease gone", () => decideRenewLease(undefined, "R", fence, 1000, NOW)],
    ["an iteration under a lease taken over", () => decideCommitIteration(stale, it1, fence, ev("x"))],
    ["a paid call under a lease taken over", () => decideJournalPaidCall(stale, call, fence)],
  ];
  for (const [name, d] of refusals) it(`refuses ${name}`, () => expectRefused(d(), "stale-fence", StaleFencingTokenError, /token 7/));
});

describe("commit and attempt-end writes: a decision -> the writes in order", () => {
  const state: CommitState = {
    run: { run: "R", version: 3, status: "active", planVersion: "p1", inputVersion: "i1", budgetUsed: {} },
    leases: new Map([["a", { token: 7, owner: "w1", attempt: 2 }]]),
    units: new Map([["a", { unit: "a", state: "pending", attempts: 2, failures: 0, version: 0 }]]),
  };
  const commit: CheckpointCommit = {
    kind: "unit",
    fence: { unit: "a", token: 7 },
    changes: [{ kind: "fail", unit: "a", attempt: 2, error: { class: "timeout", message: "slow" } }],
    approvals: [],
    nextAction: { kind: "run", units: [] },
    events: [{ at: NOW, type: "unit-failed", unit: "a" }],
    now: NOW,
  };

  it("a commit: unit writes (the test hook after them), the lease deleted, the chained checkpoint, its events; then loops closed and the run row", () => {
    const d = decideCommit(state, 3, [commit], NOW);
    if (d.kind !== "commit") throw d.error;
    const { writes, hookAfter } = commitWrites(d, ["a"]);
    expect(writes.map((w) => w.op)).toEqual([
      "set-unit",
      "delete-lease",
      "insert-checkpoint",
      "insert-events",
      "close-loops",
      "update-run",
    ]);
    expect(hookAfter).toBe(1);
    expect(writes[1]).toEqual({ op: "delete-lease", unit: "a", token: 7 });
    expect(writes[4]).toEqual({ op: "close-loops", units: ["a"], at: NOW });
    expect(writes[5]).toMatchObject({ op: "update-run", set: { version: 4, planVersion: "p1", status: "active", updatedAt: NOW } });
  });

  it("an attempt's end: its writes, then the request's events only if it ended anything, then the settlement's", () => {
    const settled = ev("budget-settled");
    const del: StoreWrite = { op: "delete-lease", unit: "a", token: 7 };
    expect(endWrites({ writes: [del], events: true, settled }, [ev("ended")])).toEqual([del, events(ev("ended")), events(settled)]);
    expect(endWrites({ writes: [], events: false }, [ev("ended")])).toEqual([]);
    expect(endWrites({ writes: [del], events: true }, [])).toEqual([del]);
  });
});
