/**
 * The embedded store on SQLite (better-sqlite3, WAL). Checkpoint commits,
 * effect transitions and approvals are written with synchronous=FULL (one WAL
 * fsync per transaction); leases, events and charges with synchronous=NORMAL,
 * which in WAL mode survives a process crash (the crash model of a worker) and
 * is made durable by the next FULL commit, since the WAL is written in order.
 * An attempt calls `sync()` before its number or token leaves the store (its
 * directory, a handler process, a tool call, a model call), so a power loss
 * never hands out again what anyone outside has seen; an attempt that acts
 * only through its result lets its commit's fsync carry the claim
 * (test/runtime-power-loss.test.ts).
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { InvalidTransitionError, NotFoundError, ResumeTokenError, SchemaVersionError } from "../errors.js";
import type {
  Approval,
  ArtifactManifest,
  BudgetAmounts,
  CheckpointHeader,
  EffectRecord,
  EffectState,
  Hold,
  Lease,
  LoopIteration,
  PaidCall,
  RunEvent,
  RunRow,
  RunStatus,
  UnitRecord,
  UnitStateRow,
} from "../model/facts.js";
import { checkpointDigest, materialOf, type ChainLink } from "../model/checkpoint-digest.js";
import {
  ARTIFACT_COLUMNS,
  artifactArgs,
  EFFECT_PATCH_COLUMNS,
  effectPatchValue,
  ITERATION_COLUMNS,
  iterationArgs,
  iterationFilter,
  json,
  PAID_CALL_COLUMNS,
  paidCallAnswer,
  paidCallArgs,
  paidCallFilter,
  parse,
  toApproval,
  toArtifact,
  toCheckpoint,
  toEffect,
  toEvent,
  toLease,
  endingLease,
  toPaidCall,
  toRecord,
  toIteration,
  toRun,
  toUnitState,
  type Row,
} from "./rows.js";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
import {
  claimEvents,
  claimedLease,
  decideClaim,
  decideCommit,
  decideBreakLease,
  decideEndAttempt,
  type EndingLease,
  decideReleaseLease,
  holdsBooking,
  fenceRefusal,
  planRefusal,
  resolveHeader,
  resolveRecord,
  type RecordRef,
  type AttemptWrite,
  type UnitWrite,
} from "./unit-transition.js";
import { bookedChargeOutcome } from "./budget-charge.js";
import { EffectKeyConflictError, keyConflict } from "./effect-identity.js";
import { isClaimRefusal } from "./claim-refusal.js";
import type {
  ChargeOutcome,
  CheckpointCommit,
  Claim,
  ClaimRequestOf,
  ClaimRound,
  CommitHooks,
  CreateRunSpec,
  RunFacts,
  Store,
} from "./types.js";

type EventIn = Omit<RunEvent, "run" | "seq">;

export interface SqliteStoreOptions {
  /** Path of the database file, or ":memory:". */
  path: string;
}

/**
 * WAL is a property of the file, so only its first opener switches it. Two
 * processes opening a new file together both try, and the loser's switch fails
 * with SQLITE_BUSY at once (SQLite does not wait on that lock); it then finds
 * the file already in WAL.
 */
function useWal(db: Database.Database): void {
  const deadline = Date.now() + 5000;
  for (;;) {
    try {
      if (db.pragma("journal_mode", { simple: true }) === "wal") return;
      db.pragma("journal_mode = WAL");
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private durable = true;

  constructor(options: SqliteStoreOptions) {
    if (options.path !== ":memory:") mkdirSync(dirname(options.path), { recursive: true });
    this.db = new Database(options.path);
    this.db.pragma("busy_timeout = 5000");
    useWal(this.db);
    this.db.pragma("synchronous = FULL");
    this.db.pragma("foreign_keys = ON");
    const inTransaction = this.db.transaction((fn: () => unknown) => fn());
    this.immediate = <T>(fn: () => T) => inTransaction.immediate(fn) as T;
    this.deferred = <T>(fn: () => T) => inTransaction.deferred(fn) as T;
  }

  async init(): Promise<void> {
    // The version is read inside the write lock: workers opening a new store
    // together migrate it once, and the later ones find it current.
    this.db
      .transaction(() => {
        const current = this.db.pragma("user_version", { simple: true }) as number;
        if (current > SQLITE_MIGRATIONS.length) throw new SchemaVersionError(current, SQLITE_MIGRATIONS.length);
        for (let v = current; v < SQLITE_MIGRATIONS.length; v++) {
          this.db.exec(SQLITE_MIGRATIONS[v]!);
          this.db.pragma(`user_version = ${v + 1}`);
        }
      })
      .immediate();
  }

  async close(): Promise<void> {
    this.db.close();
  }

  async schemaVersion(): Promise<number> {
    return this.db.pragma("user_version", { simple: true }) as number;
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** Prepared statements are cached: preparing is most of the CPU cost of a small query. */
  private stmt(sql: string): Database.Statement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  private readonly rawStatements = new Map<string, Database.Statement>();

  private rawStmt(sql: string): Database.Statement {
    let st = this.rawStatements.get(sql);
    if (!st) {
      st = this.db.prepare(sql).raw();
      this.rawStatements.set(sql, st);
    }
    return st;
  }

  /**
   * Transaction runners made once: better-sqlite3 builds four wrapper
   * functions each time `transaction()` is called, a cost every claim and
   * commit paid.
   */
  private readonly immediate: <T>(fn: () => T) => T;
  private readonly deferred: <T>(fn: () => T) => T;

  /** One immediate transaction; `durable` picks the fsync policy for its commit. */
  private tx<T>(durable: boolean, fn: () => T): T {
    if (durable !== this.durable) {
      // prepared once: `pragma()` prepares its statement on every call
      this.stmt(durable ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = NORMAL").run();
      this.durable = durable;
    }
    const out = this.immediate(fn);
    // a FULL commit fsyncs the whole WAL, so every NORMAL commit before it is durable too
    this.unsynced = !durable;
    return out;
  }

  /** A NORMAL commit since the last FULL one: not yet durable against a power loss. */
  private unsynced = false;
  private pendingSync: Promise<void> | undefined;

  /**
   * One FULL commit of a one-row write fsyncs the WAL with every frame before
   * it. Callers that ask in the same turn of the event loop (a worker
   * claiming a level's units one after another) share it: one fsync, not one
   * per claim (bench/runtime/claim-durability.js).
   */
  async sync(): Promise<void> {
    if (!this.unsynced) return;
    this.pendingSync ??= new Promise<void>((resolve, reject) =>
      setImmediate(() => {
        this.pendingSync = undefined;
        try {
          if (this.unsynced)
            this.tx(true, () =>
              this.stmt("INSERT OR REPLACE INTO meta (key, value) VALUES ('synced_at', ?)").run(new Date().toISOString()),
            );
          resolve();
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      }),
    );
    return this.pendingSync;
  }

  private insertEvents(run: string, events: EventIn[]): void {
    const stmt = this.stmt("INSERT INTO events (run, at, type, unit, attempt, data) VALUES (?, ?, ?, ?, ?, ?)");
    for (const e of events) stmt.run(run, e.at, e.type, e.unit ?? null, e.attempt ?? null, e.data === undefined ? null : json(e.data));
  }

  private runRow(run: string): Row {
    const row = this.stmt("SELECT * FROM runs WHERE run = ?").get(run) as Row | undefined;
    if (!row) throw new NotFoundError(`no run ${run} in this store`);
    return row;
  }

  async createRun(spec: CreateRunSpec): Promise<CheckpointHeader> {
    return this.tx(true, () => {
      if (this.stmt("SELECT 1 FROM runs WHERE run = ?").get(spec.run)) throw new InvalidTransitionError(`run ${spec.run} already exists`);
      this.stmt("INSERT OR IGNORE INTO plans (plan_version, plan_json) VALUES (?, ?)").run(spec.planVersion, json(spec.plan));
      this.stmt(
        `INSERT INTO runs (run, task_id, plan_version, input_version, version, status, caps, budget_used, hold, origin, created_at, updated_at, last_progress_at)
           VALUES (?, ?, ?, ?, 0, 'active', ?, '{}', NULL, ?, ?, ?, ?)`,
      ).run(spec.run, spec.taskId, spec.planVersion, spec.inputVersion, json(spec.caps), json(spec.origin), spec.now, spec.now, spec.now);
      const ins = this.stmt("INSERT INTO unit_states (run, unit, state, version) VALUES (?, ?, 'pending', 0)");
      for (const u of spec.units) ins.run(spec.run, u);
      const header = this.writeCheckpoint(spec.run, 0, null, "", {
        kind: "start",
        planVersion: spec.planVersion,
        inputVersion: spec.inputVersion,
        budgetUsed: {},
        approvals: [],
        nextAction: { kind: "run", units: [] },
        delta: spec.units.map((unit) => ({ unit, state: "pending" as const })),
        createdAt: spec.now,
        committedAt: spec.now,
      });
      this.insertEvents(spec.run, [
        { at: spec.now, type: "run-created", data: { planVersion: spec.planVersion, inputVersion: spec.inputVersion } },
      ]);
      return header;
    });
  }

  private writeCheckpoint(
    run: string,
    version: number,
    parent: number | null,
    parentDigest: string,
    h: Omit<CheckpointHeader, "run" | "version" | "parent" | "digest">,
  ): CheckpointHeader {
    const body = { run, version, parent, ...h };
    const m = materialOf(body);
    const digest = checkpointDigest(parentDigest, m);
    this.stmt(
      `INSERT INTO checkpoints (run, version, parent, kind, plan_version, input_version, budget_used, approvals, next_action, delta, digest, created_at, committed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      run,
      version,
      parent,
      h.kind,
      h.planVersion,
      h.inputVersion,
      m.budgetUsed,
      m.approvals,
      m.nextAction,
      m.delta,
      digest,
      h.createdAt,
      h.committedAt,
    );
    return { ...body, digest };
  }

  async getRun(run: string): Promise<RunRow | undefined> {
    const row = this.stmt("SELECT * FROM runs WHERE run = ?").get(run) as Row | undefined;
    return row ? toRun(row) : undefined;
  }

  async listRuns(): Promise<RunRow[]> {
    return (this.stmt("SELECT * FROM runs ORDER BY created_at, run").all() as Row[]).map(toRun);
  }

  async getPlan(planVersion: string): Promise<unknown | undefined> {
    const row = this.stmt("SELECT plan_json FROM plans WHERE plan_version = ?").get(planVersion) as Row | undefined;
    return row ? parse(row.plan_json) : undefined;
  }

  async loadFacts(run: string, since?: number): Promise<RunFacts> {
    return this.deferred(() => {
      const row = this.runRow(run);
      const r = toRun(row);
      // Arrays, not row objects: this runs at every scheduling step and on every resume.
      const cols = "unit, state, attempts, failures, current_record, superseded_record, superseded, hold, last_error, version, not_before";
      const units = (
        since === undefined
          ? (this.rawStmt(`SELECT ${cols} FROM unit_states INDEXED BY sqlite_autoindex_unit_states_1 WHERE run = ?`).all(
              run,
            ) as UnitTuple[])
          : (this.rawStmt(`SELECT ${cols} FROM unit_states WHERE run = ? AND changed_seq > ?`).all(run, since) as UnitTuple[])
      ).map(unitFromTuple);
      const leases = (this.stmt("SELECT * FROM leases WHERE run = ?").all(run) as Row[]).map(toLease);
      const openEffects = (
        this.stmt(
          `SELECT * FROM effects WHERE run = ? AND (state IN ('PREPARED','STARTED','UNKNOWN') OR compensation_state IN ('pending','failed')) ORDER BY prepared_at, seq`,
        ).all(run) as Row[]
      ).map(toEffect);
      const approvals = (this.stmt("SELECT * FROM approvals WHERE run = ?").all(run) as Row[]).map(toApproval);
      return { run: r, units, changeSeq: Number(row.change_seq), leases, openEffects, approvals };
    });
  }

  async commitCheckpoint(run: string, expectedVersion: number, commit: CheckpointCommit, hooks?: CommitHooks): Promise<CheckpointHeader> {
    const [header] = await this.commitCheckpoints(run, expectedVersion, [commit], hooks);
    return header!;
  }

  async commitCheckpoints(
    run: string,
    expectedVersion: number,
    commits: CheckpointCommit[],
    hooks?: CommitHooks,
  ): Promise<CheckpointHeader[]> {
    return this.tx(true, () => {
      const r = toRun(this.runRow(run));
      const leases = new Map<string, EndingLease>();
      for (const unit of new Set(commits.flatMap((c) => (c.fence ? [c.fence.unit] : [])))) {
        const l = this.stmt("SELECT * FROM leases WHERE run = ? AND unit = ?").get(run, unit) as Row | undefined;
        if (l) leases.set(unit, endingLease(l));
      }
      const units = new Map<string, UnitStateRow>();
      for (const unit of new Set(commits.flatMap((c) => c.changes.map((ch) => ch.unit)))) {
        const u = this.stmt("SELECT * FROM unit_states WHERE run = ? AND unit = ?").get(run, unit) as Row | undefined;
        if (u) units.set(unit, toUnitState(u));
      }
      const d = decideCommit({ run: r, leases, units }, expectedVersion, commits, new Date().toISOString());
      if (d.kind === "refused") throw d.error;
      const prev = this.stmt("SELECT digest FROM checkpoints WHERE run = ? AND version = ?").get(run, r.version) as Row;
      let parentDigest = String(prev.digest);
      const inserted: number[] = [];
      const headers: CheckpointHeader[] = [];
      for (const [i, step] of d.steps.entries()) {
        if (step.plan)
          this.stmt("INSERT OR IGNORE INTO plans (plan_version, plan_json) VALUES (?, ?)").run(step.plan.planVersion, json(step.plan.plan));
        for (const w of step.writes) this.applyWrite(run, w, inserted);
        if (i === 0) hooks?.insideTransaction?.();
        if (step.deleteLease)
          this.stmt("DELETE FROM leases WHERE run = ? AND unit = ? AND token = ?").run(run, step.deleteLease.unit, step.deleteLease.token);
        const header = this.writeCheckpoint(run, step.version, step.version - 1, parentDigest, resolveHeader(step.header, inserted));
        parentDigest = header.digest;
        headers.push(header);
        this.insertEvents(run, step.events);
      }
      // the loop of every unit this commit changes is over: no later attempt resumes from it
      // and so is its journal of paid calls: a verdict (or a change that re-runs it) ends replay
      for (const unit of new Set(commits.flatMap((c) => c.changes.map((ch) => ch.unit)))) {
        this.closeIterations(run, unit, d.run.updatedAt);
        this.closeJournal(run, unit, d.run.updatedAt);
      }
      const n = d.run;
      this.stmt(
        `UPDATE runs SET version = ?, plan_version = ?, input_version = ?, status = ?, updated_at = ?${n.lastProgressAt ? ", last_progress_at = ?" : ""}${n.budgetUsed ? ", budget_used = ?" : ""} WHERE run = ?`,
      ).run(
        ...[
          n.version,
          n.planVersion,
          n.inputVersion,
          n.status,
          n.updatedAt,
          ...(n.lastProgressAt ? [n.lastProgressAt] : []),
          ...(n.budgetUsed ? [json(n.budgetUsed)] : []),
          run,
        ],
      );
      return headers;
    });
  }

  private checkFence(run: string, unit: string, token: number): void {
    const lease = this.stmt("SELECT token, owner FROM leases WHERE run = ? AND unit = ?").get(run, unit) as Row | undefined;
    const stale = fenceRefusal(run, { unit, token }, lease ? { token: Number(lease.token), owner: String(lease.owner) } : undefined);
    if (stale) throw stale.error;
  }

  /** Executes one write of a commit decision (store/unit-transition.ts); a new record's id is appended to `inserted`. */
  private applyWrite(run: string, w: UnitWrite, inserted: number[]): void {
    const ref = (x: RecordRef | null) => (x === null ? null : resolveRecord(x, inserted));
    switch (w.op) {
      case "insert-record": {
        const rec = this.stmt(
          `INSERT INTO unit_records (run, unit, attempt, plan_version, status, result, sources, committed_version, created_at)
             VALUES (?, ?, ?, ?, 'current', ?, ?, ?, ?)`,
        ).run(run, w.unit, w.attempt, w.planVersion, json(w.result), json(w.sources), w.version, w.now);
        inserted.push(Number(rec.lastInsertRowid));
        return;
      }
      case "mark-record":
        this.stmt("UPDATE unit_records SET status = ?, superseded_reason = ? WHERE id = ?").run(w.status, w.reason, ref(w.record));
        return;
      case "insert-artifacts": {
        // OR REPLACE: a file a committed loop iteration recorded as `rejected` becomes the unit's output
        const ins = this.stmt(`INSERT OR REPLACE INTO artifacts (${ARTIFACT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
        for (const a of w.artifacts) ins.run(...artifactArgs(run, a, w.status, ref(w.record)));
        return;
      }
      case "set-unit":
        this.stmt(
          "UPDATE unit_states SET state = ?, current_record = ?, superseded_record = ?, superseded = ?, hold = NULL, not_before = NULL, last_error = ?, failures = ?, version = ? WHERE run = ? AND unit = ?",
        ).run(
          w.state,
          ref(w.currentRecord),
          ref(w.supersededRecord),
          w.superseded ? json(w.superseded) : null,
          w.lastError ? json(w.lastError) : null,
          w.failures,
          w.version,
          run,
          w.unit,
        );
        return;
      case "insert-unit":
        this.stmt("INSERT INTO unit_states (run, unit, state, version) VALUES (?, ?, 'pending', ?)").run(run, w.unit, w.version);
        return;
      case "delete-unit":
        this.stmt("DELETE FROM unit_states WHERE run = ? AND unit = ?").run(run, w.unit);
        return;
    }
  }

  async listCheckpoints(run: string): Promise<CheckpointHeader[]> {
    return (this.stmt("SELECT * FROM checkpoints WHERE run = ? ORDER BY version").all(run) as Row[]).map(toCheckpoint);
  }

  async listChainLinks(run: string): Promise<ChainLink[]> {
    const rows = this.stmt(
      "SELECT version, parent, kind, plan_version, input_version, budget_used, approvals, next_action, delta, created_at, committed_at, digest FROM checkpoints WHERE run = ? ORDER BY version",
    )
      .raw()
      .all(run) as Array<[number, number | null, string, string, string, string, string, string, string, string, string, string]>;
    return rows.map(
      ([version, parent, kind, planVersion, inputVersion, budgetUsed, approvals, nextAction, delta, createdAt, committedAt, digest]) => ({
        digest,
        material: {
          run,
          version,
          parent,
          kind,
          planVersion,
          inputVersion,
          budgetUsed,
          approvals,
          nextAction,
          delta,
          createdAt,
          committedAt,
        },
      }),
    );
  }

  async latestCheckpoint(run: string): Promise<CheckpointHeader> {
    const row = this.stmt("SELECT c.* FROM checkpoints c JOIN runs r ON r.run = c.run AND r.version = c.version WHERE c.run = ?").get(
      run,
    ) as Row | undefined;
    if (!row) throw new NotFoundError(`no run ${run} in this store`);
    return toCheckpoint(row);
  }

  async claimUnit(
    run: string,
    unit: string,
    owner: string,
    ttlMs: number,
    now: string,
    expectedVersion?: number,
    options: { recovery?: boolean; planVersion?: string; reserve?: BudgetAmounts } = {},
  ): Promise<Claim> {
    // NORMAL: the caller makes it durable with sync() before the attempt (or the lookup that carries
    // the token) does anything outside the store, and claims made together share that one fsync.
    return this.tx(false, () => this.claimIn(run, unit, owner, ttlMs, now, expectedVersion, options));
  }

  async claimUnits(
    run: string,
    requests: ClaimRequestOf[],
    owner: string,
    ttlMs: number,
    now: string,
    expectedVersion?: number,
  ): Promise<ClaimRound> {
    // One transaction for the round: a claim's commit writes the WAL pages it touched, and a
    // level's claims touch the same few pages. A refusal is decided before its claim writes
    // anything, so the claims before it stand.
    return this.tx(false, () => {
      const claims: Claim[] = [];
      for (const q of requests) {
        try {
          claims.push(this.claimIn(run, q.unit, owner, ttlMs, now, expectedVersion, q));
        } catch (err) {
          if (isClaimRefusal(err)) return { claims, refused: err };
          throw err;
        }
      }
      return { claims };
    });
  }

  private claimIn(
    run: string,
    unit: string,
    owner: string,
    ttlMs: number,
    now: string,
    expectedVersion: number | undefined,
    options: { recovery?: boolean; planVersion?: string; reserve?: BudgetAmounts },
  ): Claim {
    {
      const r = toRun(this.runRow(run));
      const u = this.stmt("SELECT * FROM unit_states WHERE run = ? AND unit = ?").get(run, unit) as Row | undefined;
      const held = this.stmt("SELECT * FROM leases WHERE run = ? AND unit = ?").get(run, unit) as Row | undefined;
      const state = { run: r, unit: u ? toUnitState(u) : undefined, held: held ? toLease(held) : undefined };
      const req = {
        unit,
        owner,
        ttlMs,
        now,
        ...(expectedVersion !== undefined ? { expectedVersion } : {}),
        recovery: options.recovery === true,
        ...(options.planVersion !== undefined ? { planVersion: options.planVersion } : {}),
        ...(options.reserve ? { reserve: options.reserve } : {}),
      };
      const d = decideClaim(state, req);
      if (d.kind === "refused") throw d.error;
      const token = Number((this.stmt("SELECT value FROM meta WHERE key = 'fencing_counter'").get() as Row).value) + 1;
      this.stmt("UPDATE meta SET value = ? WHERE key = 'fencing_counter'").run(String(token));
      if (d.newAttempt) this.stmt("UPDATE unit_states SET attempts = ? WHERE run = ? AND unit = ?").run(d.attempt, run, unit);
      if (d.budgetUsed) this.stmt("UPDATE runs SET budget_used = ?, updated_at = ? WHERE run = ?").run(json(d.budgetUsed), now, run);
      const reserved = Object.keys(d.reserved).length ? d.reserved : undefined;
      this.stmt(
        "INSERT OR REPLACE INTO leases (run, unit, owner, token, attempt, expires_at, renewed_at, reserved) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      ).run(run, unit, owner, token, d.attempt, d.expiresAt, now, reserved ? json(reserved) : null);
      this.insertEvents(run, claimEvents(state, req, d, token));
      return { token, attempt: d.attempt, lease: claimedLease(req, d, token, run), reserved: d.reserved };
    }
  }

  async renewLease(run: string, unit: string, token: number, ttlMs: number, now: string): Promise<Lease> {
    return this.tx(false, () => {
      this.checkFence(run, unit, token);
      const expiresAt = new Date(Date.parse(now) + ttlMs).toISOString();
      this.stmt("UPDATE leases SET expires_at = ?, renewed_at = ? WHERE run = ? AND unit = ?").run(expiresAt, now, run, unit);
      return toLease(this.stmt("SELECT * FROM leases WHERE run = ? AND unit = ?").get(run, unit) as Row);
    });
  }

  async releaseLease(run: string, unit: string, token: number, event?: EventIn): Promise<void> {
    this.tx(false, () => {
      const lease = this.leaseOf(run, unit);
      const d = decideReleaseLease(
        { lease, ...(holdsBooking(lease) ? { run: toRun(this.runRow(run)) } : {}) },
        { unit, token, at: event?.at ?? new Date().toISOString() },
      );
      this.applyAttemptWrites(run, d.writes);
      if (d.events && event) this.insertEvents(run, [event]);
      if (d.settled) this.insertEvents(run, [d.settled]);
    });
  }

  async breakLease(run: string, unit: string, token: number, event: EventIn, ended?: Parameters<Store["breakLease"]>[4]): Promise<void> {
    this.tx(false, () => {
      const lease = this.leaseOf(run, unit);
      const d = decideBreakLease(
        { lease, unit: this.failuresOf(run, unit), ...(holdsBooking(lease) ? { run: toRun(this.runRow(run)) } : {}) },
        { unit, token, at: event.at, ...(ended ? { ended } : {}) },
      );
      this.applyAttemptWrites(run, d.writes);
      if (d.events) this.insertEvents(run, [event]);
      if (d.settled) this.insertEvents(run, [d.settled]);
    });
  }

  /** The lease on a unit as an attempt's end reads it (its booking included). */
  private leaseOf(run: string, unit: string): EndingLease | undefined {
    const row = this.stmt("SELECT * FROM leases WHERE run = ? AND unit = ?").get(run, unit) as Row | undefined;
    return row ? endingLease(row) : undefined;
  }

  async endAttempt(
    run: string,
    unit: string,
    token: number,
    outcome: Parameters<Store["endAttempt"]>[3],
    events: EventIn[],
  ): Promise<void> {
    this.tx(false, () => {
      const d = decideEndAttempt(
        { run: toRun(this.runRow(run)), lease: this.leaseOf(run, unit), unit: this.failuresOf(run, unit) },
        { unit, token, outcome, at: events[0]?.at ?? new Date().toISOString() },
      );
      if (d.kind === "refused") throw d.error;
      this.applyAttemptWrites(run, d.writes);
      if (d.events) this.insertEvents(run, events);
      if (d.settled) this.insertEvents(run, [d.settled]);
    });
  }

  private failuresOf(run: string, unit: string): { failures: number } | undefined {
    const u = this.stmt("SELECT failures FROM unit_states WHERE run = ? AND unit = ?").get(run, unit) as Row | undefined;
    return u ? { failures: Number(u.failures) } : undefined;
  }

  /** Executes the writes of an ended attempt's decision (store/unit-transition.ts). */
  private applyAttemptWrites(run: string, writes: readonly AttemptWrite[]): void {
    for (const w of writes)
      switch (w.op) {
        case "set-failures":
          this.stmt(
            `UPDATE unit_states SET failures = ?, last_error = COALESCE(?, last_error)${w.notBefore !== undefined ? ", not_before = ?" : ""} WHERE run = ? AND unit = ?`,
          ).run(w.failures, w.lastError ? json(w.lastError) : null, ...(w.notBefore !== undefined ? [w.notBefore] : []), run, w.unit);
          break;
        case "insert-artifacts":
          this.applyWrite(run, w, []);
          break;
        case "close-iterations":
          this.closeIterations(run, w.unit, w.at);
          break;
        case "close-journal":
          this.closeJournal(run, w.unit, w.at);
          break;
        case "delete-lease":
          this.stmt("DELETE FROM leases WHERE run = ? AND unit = ? AND token = ?").run(run, w.unit, w.token);
          break;
        case "set-budget-used":
          this.stmt("UPDATE runs SET budget_used = ? WHERE run = ?").run(json(w.used), run);
          break;
      }
  }

  async commitIteration(it: Omit<LoopIteration, "closedAt">, fence: { unit: string; token: number }, event: EventIn): Promise<void> {
    this.tx(true, () => {
      this.checkFence(it.run, fence.unit, fence.token);
      // the open-iteration unique index decides, as on PostgreSQL
      const inserted = this.stmt(
        `INSERT INTO loop_iterations (${ITERATION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      ).run(...iterationArgs(it));
      if (inserted.changes === 0)
        throw new InvalidTransitionError(`iteration ${it.iteration} of ${it.unit}'s loop is already committed in run ${it.run}`);
      const ins = this.stmt(`INSERT OR REPLACE INTO artifacts (${ARTIFACT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      for (const a of it.artifacts) ins.run(...artifactArgs(it.run, a, "rejected", null));
      this.insertEvents(it.run, [event]);
    });
  }

  /** Ends the unit's open loop: no later attempt resumes from its iterations. */
  private closeIterations(run: string, unit: string, at: string): void {
    this.stmt("UPDATE loop_iterations SET closed_at = ? WHERE run = ? AND unit = ? AND closed_at IS NULL").run(at, run, unit);
  }

  /** Ends the unit's replay: its next attempt makes its paid calls afresh. */
  private closeJournal(run: string, unit: string, at: string): void {
    this.stmt("UPDATE paid_calls SET closed_at = ? WHERE run = ? AND unit = ? AND closed_at IS NULL").run(at, run, unit);
  }

  async journalPaidCall(call: Omit<PaidCall, "closedAt">, fence: { unit: string; token: number }): Promise<void> {
    // fsynced before a request leaves (a started call was paid); a replayed one or an answer need not be
    this.tx(call.state === "started", () => {
      this.checkFence(call.run, fence.unit, fence.token);
      this.stmt(`INSERT INTO paid_calls (${PAID_CALL_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(...paidCallArgs(call));
    });
  }

  async answerPaidCall(
    key: { run: string; unit: string; attempt: number; seq: number },
    answer: { state: "answered" | "failed"; reply?: unknown; replayable?: boolean; answeredAt: string },
  ): Promise<void> {
    const { sql, args } = paidCallAnswer(key, answer, () => "?");
    this.tx(false, () => void this.stmt(sql).run(...args));
  }

  async listPaidCalls(run: string, filter: { unit?: string; open?: boolean } = {}): Promise<PaidCall[]> {
    const { where, args } = paidCallFilter(run, filter, () => "?");
    return (this.stmt(`SELECT * FROM paid_calls WHERE ${where} ORDER BY unit, attempt, seq`).all(...args) as Row[]).map(toPaidCall);
  }

  async listIterations(run: string, filter: { unit?: string; loop?: string; open?: boolean } = {}): Promise<LoopIteration[]> {
    const { where, args } = iterationFilter(run, filter, () => "?");
    return (
      this.stmt(`SELECT * FROM loop_iterations WHERE ${where} ORDER BY unit, loop, iteration, committed_at`).all(...args) as Row[]
    ).map(toIteration);
  }

  async chargeBudget(
    run: string,
    delta: BudgetAmounts,
    event: EventIn,
    mode: "check" | "record" = "check",
    booking?: { unit: string; token: number },
  ): Promise<ChargeOutcome> {
    return this.tx(false, () => {
      const r = this.runRow(run);
      const lease = booking ? this.leaseOf(run, booking.unit) : undefined;
      const held = lease && lease.token === booking?.token ? lease.reserved : undefined;
      const { outcome, draw } = bookedChargeOutcome(parse<BudgetAmounts>(r.budget_used), parse<BudgetAmounts>(r.caps), delta, mode, held);
      if (!outcome.ok) return outcome;
      this.stmt("UPDATE runs SET budget_used = ?, updated_at = ? WHERE run = ?").run(json(outcome.used), event.at, run);
      if (Object.keys(draw.drawn).length) {
        this.stmt("UPDATE leases SET reserved = ? WHERE run = ? AND unit = ? AND token = ?").run(
          Object.keys(draw.left).length ? json(draw.left) : null,
          run,
          booking!.unit,
          booking!.token,
        );
        this.insertEvents(run, [{ ...event, data: { ...event.data, reserved: draw.drawn } }]);
      } else this.insertEvents(run, [event]);
      return outcome;
    });
  }

  async setCaps(run: string, caps: BudgetAmounts, event: EventIn): Promise<void> {
    this.tx(true, () => {
      const r = this.runRow(run);
      const merged = { ...parse<BudgetAmounts>(r.caps), ...caps };
      this.stmt("UPDATE runs SET caps = ?, updated_at = ? WHERE run = ?").run(json(merged), event.at, run);
      this.insertEvents(run, [event]);
    });
  }

  async setRunHold(run: string, hold: Hold | null, event: EventIn): Promise<void> {
    this.tx(false, () => {
      this.runRow(run);
      this.stmt("UPDATE runs SET hold = ?, updated_at = ? WHERE run = ?").run(hold ? json(hold) : null, event.at, run);
      this.insertEvents(run, [event]);
    });
  }

  async setUnitHold(run: string, unit: string, hold: Hold | null, event: EventIn): Promise<void> {
    this.tx(false, () => {
      this.stmt("UPDATE unit_states SET hold = ? WHERE run = ? AND unit = ?").run(hold ? json(hold) : null, run, unit);
      this.insertEvents(run, [event]);
    });
  }

  async setRunStatus(run: string, status: RunStatus, event: EventIn): Promise<void> {
    this.tx(true, () => {
      this.runRow(run);
      this.stmt("UPDATE runs SET status = ?, updated_at = ? WHERE run = ?").run(status, event.at, run);
      this.insertEvents(run, [event]);
    });
  }

  async setRunOrigin(run: string, origin: Partial<RunRow["origin"]>, event: EventIn): Promise<void> {
    this.tx(true, () => {
      const merged = { ...parse<RunRow["origin"]>(this.runRow(run).origin), ...origin };
      this.stmt("UPDATE runs SET origin = ?, updated_at = ? WHERE run = ?").run(json(merged), event.at, run);
      this.insertEvents(run, [event]);
    });
  }

  async appendEvents(run: string, events: EventIn[]): Promise<void> {
    this.tx(false, () => this.insertEvents(run, events));
  }

  async listEvents(run: string, options: { afterSeq?: number; type?: string } = {}): Promise<RunEvent[]> {
    const rows = this.stmt(`SELECT * FROM events WHERE run = ? AND seq > ?${options.type ? " AND type = ?" : ""} ORDER BY seq`).all(
      ...[run, options.afterSeq ?? 0, ...(options.type ? [options.type] : [])],
    ) as Row[];
    return rows.map(toEvent);
  }

  async getRecords(run: string, filter: { unit?: string; status?: UnitRecord["status"] } = {}): Promise<UnitRecord[]> {
    const where = ["run = ?"];
    const args: unknown[] = [run];
    if (filter.unit) {
      where.push("unit = ?");
      args.push(filter.unit);
    }
    if (filter.status) {
      where.push("status = ?");
      args.push(filter.status);
    }
    return (this.stmt(`SELECT * FROM unit_records WHERE ${where.join(" AND ")} ORDER BY id`).all(...args) as Row[]).map(toRecord);
  }

  async listArtifacts(
    run: string,
    filter: { unit?: string; status?: ArtifactManifest["status"]; recordId?: number } = {},
  ): Promise<ArtifactManifest[]> {
    const where = ["run = ?"];
    const args: unknown[] = [run];
    if (filter.unit) {
      where.push("unit = ?");
      args.push(filter.unit);
    }
    if (filter.status) {
      where.push("status = ?");
      args.push(filter.status);
    }
    if (filter.recordId !== undefined) {
      where.push("record_id = ?");
      args.push(filter.recordId);
    }
    return (this.stmt(`SELECT * FROM artifacts WHERE ${where.join(" AND ")} ORDER BY path`).all(...args) as Row[]).map(toArtifact);
  }

  async markArtifactCorrupt(run: string, path: string, event: EventIn): Promise<void> {
    this.tx(true, () => {
      this.stmt("UPDATE artifacts SET status = 'corrupt' WHERE run = ? AND path = ?").run(run, path);
      this.insertEvents(run, [event]);
    });
  }

  async prepareEffect(
    effect: Omit<EffectRecord, "state" | "commitSeq">,
    fence: { unit: string; token: number; planVersion?: string },
  ): Promise<EffectRecord> {
    return this.tx(true, () => {
      this.checkFence(effect.run, fence.unit, fence.token);
      if (fence.planVersion !== undefined) {
        const run = this.stmt("SELECT plan_version FROM runs WHERE run = ?").get(effect.run) as Row | undefined;
        const changed = planRefusal(effect.run, fence.planVersion, String(run?.plan_version));
        if (changed) throw changed.error;
      }
      if (effect.key !== undefined) {
        const known = (
          this.stmt("SELECT * FROM effects WHERE run = ? AND tool = ? AND key = ?").all(effect.run, effect.tool, effect.key) as Row[]
        ).map(toEffect);
        const prior = keyConflict(effect, known);
        if (prior) throw new EffectKeyConflictError(effect.id, prior);
      }
      this.stmt(
        `INSERT INTO effects (id, run, unit, attempt, seq, tool, tool_class, intent, args_digest, request_hash, request, iteration, key, state, token, prepared_at, held)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'PREPARED', ?, ?, ?)`,
      ).run(
        effect.id,
        effect.run,
        effect.unit,
        effect.attempt,
        effect.seq,
        effect.tool,
        effect.toolClass,
        effect.intent,
        effect.argsDigest,
        effect.requestHash ?? null,
        effect.request ? json(effect.request) : null,
        effect.iteration ?? null,
        effect.key ?? null,
        effect.token,
        effect.preparedAt,
        effect.held ? json(effect.held) : null,
      );
      this.insertEvents(effect.run, [
        {
          at: effect.preparedAt,
          type: "effect-prepared",
          unit: effect.unit,
          attempt: effect.attempt,
          data: { effect: effect.id, tool: effect.tool, class: effect.toolClass, key: effect.key, ...(effect.held ? { held: true } : {}) },
        },
      ]);
      return toEffect(this.stmt("SELECT * FROM effects WHERE id = ?").get(effect.id) as Row);
    });
  }

  async updateEffect(
    id: string,
    from: EffectState[],
    patch: Partial<Omit<EffectRecord, "id" | "run" | "commitSeq">>,
    event?: EventIn,
  ): Promise<EffectRecord> {
    return this.tx(true, () => {
      const row = this.stmt("SELECT * FROM effects WHERE id = ?").get(id) as Row | undefined;
      if (!row) throw new NotFoundError(`no effect ${id}`);
      if (!from.includes(row.state as EffectState))
        throw new InvalidTransitionError(`effect ${id} is ${String(row.state)}, expected ${from.join("|")}`);
      const cols: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(patch)) {
        const col = EFFECT_PATCH_COLUMNS[k];
        if (col) cols[col] = effectPatchValue(k, v);
      }
      if (patch.state === "COMMITTED" && row.state !== "COMMITTED") {
        const seq = Number((this.stmt("SELECT effect_commit_seq FROM runs WHERE run = ?").get(row.run) as Row).effect_commit_seq) + 1;
        this.stmt("UPDATE runs SET effect_commit_seq = ? WHERE run = ?").run(seq, row.run);
        cols.commit_seq = seq;
      }
      const keys = Object.keys(cols);
      if (keys.length)
        this.stmt(`UPDATE effects SET ${keys.map((k) => `${k} = ?`).join(", ")} WHERE id = ?`).run(...keys.map((k) => cols[k]), id);
      if (event) this.insertEvents(String(row.run), [event]);
      return toEffect(this.stmt("SELECT * FROM effects WHERE id = ?").get(id) as Row);
    });
  }

  async listEffects(
    run: string,
    filter: { unit?: string; tool?: string; key?: string; states?: EffectState[] } = {},
  ): Promise<EffectRecord[]> {
    const where = ["run = ?"];
    const args: unknown[] = [run];
    for (const col of ["unit", "tool", "key"] as const) {
      const value = filter[col];
      if (value) {
        where.push(`${col} = ?`);
        args.push(value);
      }
    }
    if (filter.states?.length) {
      where.push(`state IN (${filter.states.map(() => "?").join(",")})`);
      args.push(...filter.states);
    }
    return (this.stmt(`SELECT * FROM effects WHERE ${where.join(" AND ")} ORDER BY prepared_at, attempt, seq`).all(...args) as Row[]).map(
      toEffect,
    );
  }

  async grantApproval(a: Approval, event: EventIn): Promise<void> {
    this.tx(true, () => {
      this.stmt(
        `INSERT INTO approvals (id, run, unit, plan_version, artifact_hashes, scope, expires_at, granted_by, granted_at, revoked_at, binding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
      ).run(
        a.id,
        a.run,
        a.unit,
        a.planVersion,
        json(a.artifactHashes),
        a.scope,
        a.expiresAt,
        a.grantedBy,
        a.grantedAt,
        a.binding ? json(a.binding) : null,
      );
      this.insertEvents(a.run, [event]);
    });
  }

  async revokeApproval(id: string, now: string, event: EventIn): Promise<void> {
    this.tx(true, () => {
      const row = this.stmt("SELECT run FROM approvals WHERE id = ?").get(id) as Row | undefined;
      if (!row) throw new NotFoundError(`no approval ${id}`);
      this.stmt("UPDATE approvals SET revoked_at = ? WHERE id = ?").run(now, id);
      this.insertEvents(String(row.run), [event]);
    });
  }

  async listApprovals(run: string): Promise<Approval[]> {
    return (this.stmt("SELECT * FROM approvals WHERE run = ? ORDER BY granted_at").all(run) as Row[]).map(toApproval);
  }

  async issueResumeToken(tokenHash: string, row: { run: string; unit: string; expiresAt: string; createdAt: string }): Promise<void> {
    this.tx(true, () => {
      this.stmt("INSERT INTO resume_tokens (token_hash, run, unit, expires_at, used_at, created_at) VALUES (?, ?, ?, ?, NULL, ?)").run(
        tokenHash,
        row.run,
        row.unit,
        row.expiresAt,
        row.createdAt,
      );
      this.insertEvents(row.run, [{ at: row.createdAt, type: "resume-token-issued", unit: row.unit, data: { expiresAt: row.expiresAt } }]);
    });
  }

  async consumeResumeToken(tokenHash: string, now: string, gate: { run: string; unit: string }): Promise<{ run: string; unit: string }> {
    return this.tx(true, () => {
      const row = this.stmt("SELECT * FROM resume_tokens WHERE token_hash = ?").get(tokenHash) as Row | undefined;
      if (!row) throw new ResumeTokenError("unknown resume token");
      if (String(row.run) !== gate.run || String(row.unit) !== gate.unit)
        throw new ResumeTokenError(
          `resume token belongs to gate ${String(row.run)}/${String(row.unit)}, not ${gate.run}/${gate.unit}; it was not used`,
        );
      if (row.used_at !== null)
        throw new ResumeTokenError(
          `resume token for gate ${String(row.unit)} was already used at ${String(row.used_at)}; tokens are single-use`,
        );
      if (String(row.expires_at) <= now)
        throw new ResumeTokenError(`resume token for gate ${String(row.unit)} expired at ${String(row.expires_at)}`);
      this.stmt("UPDATE resume_tokens SET used_at = ? WHERE token_hash = ?").run(now, tokenHash);
      this.insertEvents(String(row.run), [{ at: now, type: "resume-token-used", unit: String(row.unit) }]);
      return { run: String(row.run), unit: String(row.unit) };
    });
  }

  async addOperator(row: { name: string; keyHash: string; createdAt: string }): Promise<void> {
    this.tx(true, () => {
      const taken = this.stmt("SELECT name FROM operators WHERE name = ? OR key_hash = ?").get(row.name, row.keyHash) as Row | undefined;
      if (taken) throw new InvalidTransitionError(`the store already has an operator ${String(taken.name)}`);
      this.stmt("INSERT INTO operators (name, key_hash, created_at) VALUES (?, ?, ?)").run(row.name, row.keyHash, row.createdAt);
    });
  }

  async findOperator(keyHash: string): Promise<{ name: string; createdAt: string } | undefined> {
    const row = this.stmt("SELECT name, created_at FROM operators WHERE key_hash = ?").get(keyHash) as Row | undefined;
    return row ? { name: String(row.name), createdAt: String(row.created_at) } : undefined;
  }

  async countOperators(): Promise<number> {
    return Number((this.stmt("SELECT COUNT(*) AS n FROM operators").get() as Row).n);
  }

  async pendingResumeTokens(run: string, now: string): Promise<Array<{ unit: string; expiresAt: string }>> {
    return (
      this.stmt("SELECT unit, expires_at FROM resume_tokens WHERE run = ? AND used_at IS NULL AND expires_at > ? ORDER BY created_at").all(
        run,
        now,
      ) as Row[]
    ).map((r) => ({ unit: String(r.unit), expiresAt: String(r.expires_at) }));
  }
}

/** A unit row as the raw statement returns it (column order of loadFacts' query). */
type UnitTuple = [
  string,
  string,
  number,
  number,
  number | null,
  number | null,
  string | null,
  string | null,
  string | null,
  number,
  string | null,
];

function unitFromTuple([
  unit,
  state,
  attempts,
  failures,
  current,
  superseded,
  supersededInfo,
  hold,
  lastError,
  version,
  notBefore,
]: UnitTuple): UnitStateRow {
  const row: UnitStateRow = { unit, state: state as UnitStateRow["state"], attempts, failures, version };
  if (current !== null) row.currentRecord = current;
  if (superseded !== null) row.supersededRecord = superseded;
  if (supersededInfo !== null) row.superseded = JSON.parse(supersededInfo) as UnitStateRow["superseded"];
  if (hold !== null) row.hold = JSON.parse(hold) as UnitStateRow["hold"];
  if (lastError !== null) row.lastError = JSON.parse(lastError) as UnitStateRow["lastError"];
  if (notBefore !== null) row.notBefore = notBefore;
  return row;
}
