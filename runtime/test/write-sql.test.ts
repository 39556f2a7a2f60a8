import { describe, expect, it } from "vitest";
import { InvalidTransitionError } from "../src/errors.js";
import { pgText } from "../src/store/postgres-connection.js";
import { POSTGRES_DIALECT, SQLITE_DIALECT, writeStatements } from "../src/store/write-sql.js";
import { writeContext, type StoreWrite } from "../src/store/writes.js";

const NOW = "2026-01-01T01:00:00.000Z";
const refused = new InvalidTransitionError("refused");
const art = {
  run: "R",
  unit: "a",
  attempt: 1,
  name: "out",
  path: "runs/R/a/a1/out",
  sha256: "s",
  size: 1,
  mediaType: "text/plain",
  planVersion: "p1",
  verifierResults: [],
  createdAt: NOW,
};

/** One write of every kind (the type makes the table name them all). */
const SAMPLES: { [K in StoreWrite["op"]]: Extract<StoreWrite, { op: K }> } = {
  "insert-record": { op: "insert-record", unit: "a", attempt: 1, planVersion: "p1", result: 1, sources: {}, version: 2, now: NOW },
  "mark-record": { op: "mark-record", record: 3, status: "superseded", reason: "x" },
  "insert-artifacts": {
    op: "insert-artifacts",
    artifacts: [art, { ...art, path: "runs/R/a/a1/b" }],
    status: "committed",
    record: { inserted: 0 },
  },
  "set-unit": {
    op: "set-unit",
    unit: "a",
    state: "succeeded",
    currentRecord: { inserted: 0 },
    supersededRecord: null,
    superseded: null,
    lastError: null,
    failures: 0,
    version: 2,
  },
  "insert-unit": { op: "insert-unit", unit: "a", version: 2 },
  "delete-unit": { op: "delete-unit", unit: "a" },
  "set-failures": { op: "set-failures", unit: "a", failures: 1, lastError: null, notBefore: NOW },
  "close-iterations": { op: "close-iterations", unit: "a", at: NOW },
  "close-journal": { op: "close-journal", unit: "a", at: NOW },
  "delete-lease": { op: "delete-lease", unit: "a", token: 7 },
  "set-budget-used": { op: "set-budget-used", used: { tool_calls: 1 } },
  "insert-events": {
    op: "insert-events",
    events: [
      { at: NOW, type: "x" },
      { at: NOW, type: "y", unit: "a", attempt: 1, data: {} },
    ],
  },
  "insert-plan": { op: "insert-plan", planVersion: "p1", plan: {} },
  "insert-run": {
    op: "insert-run",
    taskId: "t",
    planVersion: "p1",
    inputVersion: "i1",
    caps: {},
    origin: {} as never,
    now: NOW,
    exists: refused,
  },
  "insert-units": { op: "insert-units", units: ["a", "b", "c"] },
  "insert-checkpoint": {
    op: "insert-checkpoint",
    version: 1,
    header: {
      kind: "unit",
      planVersion: "p1",
      inputVersion: "i1",
      budgetUsed: {},
      approvals: [],
      nextAction: { kind: "run", units: [] },
      delta: [{ unit: "a", state: "succeeded", record: { inserted: 0 } }],
      createdAt: NOW,
      committedAt: NOW,
    },
  },
  "update-run": { op: "update-run", set: { version: 2, status: "done", hold: null, updatedAt: NOW, lastProgressAt: NOW } },
  "close-loops": { op: "close-loops", units: ["a", "b"], at: NOW },
  "set-attempts": { op: "set-attempts", unit: "a", attempts: 2 },
  "set-unit-hold": { op: "set-unit-hold", unit: "a", hold: null },
  "put-lease": {
    op: "put-lease",
    lease: { run: "R", unit: "a", owner: "w", token: 7, attempt: 1, expiresAt: NOW, renewedAt: NOW, reserved: { tool_calls: 1 } },
  },
  "renew-lease": { op: "renew-lease", unit: "a", token: 7, expiresAt: NOW, renewedAt: NOW },
  "set-lease-reserved": { op: "set-lease-reserved", unit: "a", token: 7, reserved: null },
  "insert-effect": {
    op: "insert-effect",
    effect: {
      id: "e",
      run: "R",
      unit: "a",
      attempt: 1,
      seq: 1,
      tool: "t",
      toolClass: "reversible",
      intent: "i",
      argsDigest: "d",
      token: 7,
      preparedAt: NOW,
    } as never,
  },
  "update-effect": { op: "update-effect", id: "e", columns: { state: "COMMITTED", receipt: "{}" }, commitSeq: true },
  "insert-approval": {
    op: "insert-approval",
    approval: {
      id: "ap",
      run: "R",
      unit: "g",
      planVersion: "p1",
      artifactHashes: {},
      scope: "unit",
      expiresAt: NOW,
      grantedBy: "ana",
      grantedAt: NOW,
    } as never,
  },
  "revoke-approval": { op: "revoke-approval", id: "ap", at: NOW },
  "insert-resume-token": { op: "insert-resume-token", tokenHash: "h", unit: "g", expiresAt: NOW, createdAt: NOW },
  "use-resume-token": { op: "use-resume-token", tokenHash: "h", at: NOW },
  "insert-iteration": {
    op: "insert-iteration",
    iteration: { run: "R", unit: "a", loop: "l", iteration: 1, max: 2, attempt: 1, result: null, artifacts: [], committedAt: NOW },
    committed: refused,
  },
  "insert-paid-call": {
    op: "insert-paid-call",
    call: { run: "R", unit: "a", attempt: 1, seq: 1, iteration: 0, kind: "model", requestHash: "h", state: "started", at: NOW } as never,
  },
  "answer-paid-call": {
    op: "answer-paid-call",
    key: { unit: "a", attempt: 1, seq: 1 },
    answer: { state: "answered", reply: 1, answeredAt: NOW },
  },
  "mark-artifact-corrupt": { op: "mark-artifact-corrupt", path: "p" },
  "clear-event-payloads": { op: "clear-event-payloads", seqs: [3, 5] },
  "insert-operator": { op: "insert-operator", name: "ana", keyHash: "k", createdAt: NOW },
};

const marks = (sql: string) => (sql.match(/\?/g) ?? []).length;

describe("the write vocabulary as SQL: one text, two dialects", () => {
  for (const [name, dialect] of [
    ["SQLite", SQLITE_DIALECT],
    ["PostgreSQL", POSTGRES_DIALECT],
  ] as const)
    for (const w of Object.values(SAMPLES))
      it(`${name}: ${w.op} has a value for each placeholder`, () => {
        const ctx = writeContext("parent");
        ctx.inserted.push(41);
        const statements = writeStatements(w, "R", ctx, dialect);
        expect(statements.length).toBeGreaterThan(0);
        for (const s of statements) expect(marks(s.sql)).toBe(s.args.length);
      });

  it("a symbolic record is the id inserted before it; a checkpoint chains on the last digest and joins the context", () => {
    const ctx = writeContext("parent");
    const [insert] = writeStatements(SAMPLES["insert-record"], "R", ctx, SQLITE_DIALECT);
    insert!.row!({ id: 41 });
    expect(writeStatements(SAMPLES["set-unit"], "R", ctx, SQLITE_DIALECT)[0]!.args[1]).toBe(41);
    writeStatements(SAMPLES["insert-checkpoint"], "R", ctx, SQLITE_DIALECT);
    expect(ctx.headers).toMatchObject([{ run: "R", version: 1, parent: 0, delta: [{ record: 41 }] }]);
    expect(ctx.digest).toBe(ctx.headers[0]!.digest);
    expect(ctx.digest).not.toBe("parent");
  });

  it("an insert the store refuses by its key (a run that exists, an iteration committed) throws the rule's refusal", () => {
    for (const w of [SAMPLES["insert-run"], SAMPLES["insert-iteration"]]) {
      const [s] = writeStatements(w, "R", writeContext(), POSTGRES_DIALECT);
      expect(() => s!.row!(undefined)).toThrow(refused);
      expect(() => s!.row!({ run: "R" })).not.toThrow();
    }
  });

  it("many rows: one statement a row on SQLite, one unnest on PostgreSQL", () => {
    expect(writeStatements(SAMPLES["insert-units"], "R", writeContext(), SQLITE_DIALECT)).toHaveLength(3);
    const [pg] = writeStatements(SAMPLES["insert-units"], "R", writeContext(), POSTGRES_DIALECT);
    expect(pg!.sql).toMatch(/unnest\(\?::text\[\], \?::text\[\], \?::text\[\], \?::int\[\]\)/);
    expect(pg!.args).toEqual([
      ["R", "R", "R"],
      ["a", "b", "c"],
      ["pending", "pending", "pending"],
      [0, 0, 0],
    ]);
  });

  it("event payloads cleared in statements of at most a thousand events, only of the executor's run", () => {
    const seqs = Array.from({ length: 2500 }, (_, i) => i + 1);
    const statements = writeStatements({ op: "clear-event-payloads", seqs }, "R", writeContext(), SQLITE_DIALECT);
    expect(statements.map((s) => s.args.length)).toEqual([1001, 1001, 501]);
    expect(statements.every((s) => s.args[0] === "R" && /^UPDATE events SET data = NULL WHERE run = \? AND seq IN/.test(s.sql))).toBe(true);
    expect(statements.flatMap((s) => s.args.slice(1))).toEqual(seqs);
  });

  it("PostgreSQL numbers the placeholders in order", () =>
    expect(pgText("UPDATE t SET a = ?, b = ? WHERE c IN (?, ?)")).toBe("UPDATE t SET a = $1, b = $2 WHERE c IN ($3, $4)"));
});
