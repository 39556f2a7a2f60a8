import { describe, expect, it } from "vitest";
import type { Lease, RunRow, UnitStateRow } from "../src/model/facts.js";
import { decide, type DecideInput } from "../src/scheduler/decide.js";
import { fixturePlan } from "./fixtures/load.js";

const plan = fixturePlan("gate.task.yaml");
const NOW = "2026-01-01T01:00:00.000Z";
const run: RunRow = {
  run: "R",
  taskId: "gate",
  planVersion: "p",
  inputVersion: "i",
  version: 3,
  status: "active",
  caps: { model_calls: 10 },
  budgetUsed: {},
  origin: { artifactRoot: "/x" },
  createdAt: NOW,
  updatedAt: NOW,
  lastProgressAt: NOW,
};
const row = (unit: string, state: UnitStateRow["state"], extra: Partial<UnitStateRow> = {}): UnitStateRow => ({
  unit,
  state,
  attempts: 0,
  failures: 0,
  version: 0,
  ...extra,
});
const lease = (unit: string, expiresAt: string, owner = "w1"): Lease => ({
  run: "R",
  unit,
  owner,
  token: 7,
  attempt: 1,
  expiresAt,
  renewedAt: NOW,
});

function input(over: Partial<DecideInput> = {}): DecideInput {
  return {
    plan,
    run,
    units: [row("a", "pending"), row("b", "pending"), row("gate", "pending")],
    leases: [],
    openEffects: [],
    approvedGates: new Set(),
    now: NOW,
    ...over,
  };
}

describe("the pure scheduler: facts -> decision", () => {
  const cases: Array<[string, Partial<DecideInput>, Record<string, string>, string[]]> = [
    ["fresh run: only the root is ready", {}, { a: "ready", b: "pending", gate: "pending" }, ["a"]],
    [
      "a succeeded: b is ready",
      { units: [row("a", "succeeded"), row("b", "pending"), row("gate", "pending")] },
      { a: "succeeded", b: "ready", gate: "pending" },
      ["b"],
    ],
    [
      "a running under a live lease",
      { leases: [lease("a", "2026-01-01T02:00:00.000Z")] },
      { a: "running", b: "pending", gate: "pending" },
      [],
    ],
    [
      "a's lease expired: ready again, lease breakable",
      { leases: [lease("a", "2026-01-01T00:00:00.000Z")] },
      { a: "ready", b: "pending", gate: "pending" },
      ["a"],
    ],
    [
      "a's owner is dead: ready again",
      { leases: [lease("a", "2026-01-01T02:00:00.000Z", "dead")], deadOwners: new Set(["dead"]) },
      { a: "ready", b: "pending", gate: "pending" },
      ["a"],
    ],
    [
      "gate without approval: blocked(approval)",
      { units: [row("a", "succeeded"), row("b", "succeeded"), row("gate", "pending")] },
      { a: "succeeded", b: "succeeded", gate: "blocked" },
      [],
    ],
    [
      "gate with a current approval: ready",
      { units: [row("a", "succeeded"), row("b", "succeeded"), row("gate", "pending")], approvedGates: new Set(["gate"]) },
      { gate: "ready" },
      ["gate"],
    ],
    ["budget too small for a's declared cost: blocked(budget)", { run: { ...run, budgetUsed: { model_calls: 9 } } }, { a: "blocked" }, []],
    [
      "run-level hold (budget): nothing is ready",
      { run: { ...run, hold: { reason: "budget", detail: "d", at: NOW } } },
      { a: "pending" },
      [],
    ],
    [
      "unit hold (unknown effect): blocked",
      {
        units: [
          row("a", "pending", { hold: { reason: "unknown-effect", detail: "e", at: NOW } }),
          row("b", "pending"),
          row("gate", "pending"),
        ],
      },
      { a: "blocked" },
      [],
    ],
    [
      "failures past retry.max: exhausted (failed)",
      { units: [row("a", "pending", { failures: 2 }), row("b", "pending"), row("gate", "pending")] },
      { a: "failed" },
      [],
    ],
    [
      "failures within retry.max: ready again",
      { units: [row("a", "pending", { failures: 1 }), row("b", "pending"), row("gate", "pending")] },
      { a: "ready" },
      ["a"],
    ],
    [
      "superseded: re-runs when its needs are current",
      { units: [row("a", "superseded"), row("b", "succeeded"), row("gate", "pending")] },
      { a: "ready", b: "succeeded", gate: "blocked" },
      ["a"],
    ],
    [
      "superseded downstream waits for its upstream",
      { units: [row("a", "superseded"), row("b", "superseded"), row("gate", "pending")] },
      { a: "ready", b: "superseded", gate: "pending" },
      ["a"],
    ],
    ["a cancelled run claims nothing", { run: { ...run, status: "cancelled" } }, { a: "pending" }, []],
    [
      "a failure with attempts left, its backoff not over: pending, not ready",
      { units: [row("a", "pending", { failures: 1, notBefore: "2026-01-01T01:00:00.001Z" }), row("b", "pending"), row("gate", "pending")] },
      { a: "pending" },
      [],
    ],
    [
      "backoff over (notBefore is now): ready again",
      { units: [row("a", "pending", { failures: 1, notBefore: NOW }), row("b", "pending"), row("gate", "pending")] },
      { a: "ready" },
      ["a"],
    ],
    [
      "backoff never outlives exhaustion: failures past retry.max fail the unit at once",
      { units: [row("a", "pending", { failures: 2, notBefore: "2026-01-01T02:00:00.000Z" }), row("b", "pending"), row("gate", "pending")] },
      { a: "failed" },
      [],
    ],
    [
      "a backing-off superseded unit waits like a pending one",
      {
        units: [
          row("a", "succeeded"),
          row("b", "superseded", { failures: 1, notBefore: "2026-01-01T01:00:05.000Z" }),
          row("gate", "pending"),
        ],
      },
      { a: "succeeded", b: "pending", gate: "pending" },
      [],
    ],
  ];
  it.each(cases)("%s", (_name, over, states, ready) => {
    const d = decide(input(over));
    for (const [u, s] of Object.entries(states)) expect(d.states[u]).toBe(s);
    expect(d.ready).toEqual(ready);
  });

  it("lists the units backing off with when each may start; one that waits for its needs is not listed", () => {
    const d = decide(
      input({
        units: [
          row("a", "pending", { failures: 1, notBefore: "2026-01-01T01:00:09.000Z" }),
          row("b", "pending", { failures: 1, notBefore: "2026-01-01T01:00:02.000Z" }),
          row("gate", "pending"),
        ],
      }),
    );
    expect(d.backingOff).toEqual([{ unit: "a", notBefore: "2026-01-01T01:00:09.000Z" }]);
    expect([d.ready, d.blocked, d.counts.pending]).toEqual([[], [], 3]);
  });

  it("a unit dropped from the goal (out-of-scope) is never ready, never blocks, and is not needed for done", () => {
    const out = { hold: { reason: "out-of-scope" as const, detail: "narrowed to b", at: NOW } };
    const waiting = decide(input({ units: [row("a", "succeeded"), row("b", "pending"), row("gate", "pending", out)] }));
    expect(waiting.ready).toEqual(["b"]);
    expect(waiting.blocked).toEqual([]);
    expect(waiting.dropped).toEqual(["gate"]);
    expect(waiting.allSucceeded).toBe(false);
    const done = decide(input({ units: [row("a", "succeeded"), row("b", "succeeded"), row("gate", "pending", out)] }));
    expect(done.ready).toEqual([]);
    expect(done.blocked).toEqual([]);
    expect(done.allSucceeded).toBe(true);
  });

  it("every succeeded unit means all succeeded (task.done is next)", () => {
    const d = decide(input({ units: [row("a", "succeeded"), row("b", "succeeded"), row("gate", "succeeded")] }));
    expect(d.allSucceeded).toBe(true);
    expect(d.counts.succeeded).toBe(3);
  });

  it("open effects of units without a live lease are reconciled first", () => {
    const effect = {
      id: "e",
      run: "R",
      unit: "gate",
      attempt: 1,
      seq: 1,
      tool: "send",
      toolClass: "irreversible",
      intent: "send()",
      argsDigest: "d",
      state: "STARTED" as const,
      token: 7,
      preparedAt: NOW,
    };
    expect(decide(input({ openEffects: [effect] })).toReconcile.map((e) => e.id)).toEqual(["e"]);
    expect(decide(input({ openEffects: [effect], leases: [lease("gate", "2026-01-01T02:00:00.000Z")] })).toReconcile).toEqual([]);
  });

  it("is a function of its input: the same facts give the same decision (resume idempotence)", () => {
    const i = input({
      units: [row("a", "succeeded"), row("b", "pending", { failures: 1 }), row("gate", "pending")],
      leases: [lease("b", "2026-01-01T00:00:00.000Z")],
    });
    expect(decide(i)).toEqual(decide(structuredClone({ ...i, approvedGates: new Set<string>() })));
  });
});
