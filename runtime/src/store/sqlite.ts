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
 *
 * Every method reads the rows its rule needs, asks the rule (store/*-rules.ts,
 * store/unit-transition.ts) and runs the answer through `execute`, the one
 * place this store writes; SQLite is single-writer, so no read here locks.
 */
import Database from "better-sqlite3";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { SchemaVersionError } from "../errors.js";
import type * as facts from "../model/facts.js";
import type { ChainLink } from "../model/checkpoint-digest.js";
import { endingLease, toApproval, toEffect, toLease, toResumeToken, toRun, toUnitState, toWorker, type Row } from "./rows.js";
import { upsertWorker, workerRowsKeptAfter } from "./worker-rows.js";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
import { unitFromTuple, useWal, type UnitTuple } from "./sqlite-connection.js";
import type { ClaimRequest, EndingLease } from "./unit-transition.js";
import { isClaimRefusal } from "./claim-refusal.js";
import * as rules from "./rules.js";
import { highestToken, ImportConflictError, importStatements, runExists, runRowsQueries, storedRow, type RunRows } from "./run-rows.js";
import { SqlReads } from "./sql-reads.js";
import type { Query } from "./sql-reads.js";
import { SQLITE_DIALECT, writeStatements } from "./write-sql.js";
import { writeContext, type EventIn, type StoreWrite, type WriteContext } from "./writes.js";
import type * as store from "./types.js";

export interface SqliteStoreOptions {
  /** Path of the database file, or ":memory:". */
  path: string;
}

export class SqliteStore extends SqlReads implements store.Store {
  private readonly db: Database.Database;
  private durable = true;

  constructor(options: SqliteStoreOptions) {
    super();
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

  /** One host by nature: its clock is the clock of every caller. */
  async clock(): Promise<string> {
    return new Date().toISOString();
  }

  async heartbeat(w: store.WorkerIdentity): Promise<store.WorkersSnapshot> {
    const at = new Date().toISOString();
    const rows = this.tx(false, () => {
      this.stmt(upsertWorker("?")).run(w.id, w.host, w.pid, at, at);
      return this.stmt("SELECT * FROM workers ORDER BY started_at, id").all() as Row[];
    });
    return { at, workers: rows.map(toWorker) };
  }

  async stopWorker(id: string): Promise<void> {
    const at = new Date().toISOString();
    this.tx(false, () => {
      this.stmt("UPDATE workers SET stopped_at = ? WHERE id = ?").run(at, id);
      this.stmt("DELETE FROM workers WHERE heartbeat_at < ?").run(workerRowsKeptAfter(at));
    });
  }

  async listWorkers(): Promise<store.WorkersSnapshot & { leases: facts.Lease[] }> {
    const at = new Date().toISOString();
    return this.deferred(() => ({
      at,
      workers: (this.stmt("SELECT * FROM workers ORDER BY started_at, id").all() as Row[]).map(toWorker),
      leases: (this.stmt("SELECT * FROM leases ORDER BY run, unit").all() as Row[]).map(toLease),
    }));
  }

  /** No server to tell: SQLite's workers poll. */
  async announceWork(): Promise<void> {}

  async onWork(): Promise<() => Promise<void>> {
    return async () => undefined;
  }

  async exportRunRows(run: string): Promise<RunRows | undefined> {
    return this.deferred(() => {
      const out = {} as RunRows;
      for (const { table, query } of runRowsQueries(run))
        out[table] = (this.stmt(query.sql).all(...query.args) as Row[]).map((r) => storedRow(table, r));
      return out.runs.length === 0 ? undefined : out;
    });
  }

  async importRunRows(rows: RunRows): Promise<void> {
    const run = String(rows.runs[0]?.run);
    this.tx(true, () => {
      if (this.row("SELECT 1 AS x FROM runs WHERE run = ?", run)) throw runExists(run);
      for (const st of importStatements(rows)) {
        try {
          this.db.prepare(st.sql).run(...st.args);
        } catch (err) {
          if (st.conflict && /UNIQUE constraint failed/.test((err as Error).message)) throw new ImportConflictError(st.conflict);
          throw err;
        }
      }
      // AUTOINCREMENT follows the explicit ids by itself; the fencing counter must pass the run's tokens
      this.stmt("UPDATE meta SET value = MAX(CAST(value AS INTEGER), ?) WHERE key = 'fencing_counter'").run(highestToken(rows));
    });
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

  protected async rows(q: Query): Promise<Row[]> {
    return this.stmt(q.sql).all(...q.args) as Row[];
  }

  private row(sql: string, ...args: unknown[]): Row | undefined {
    return this.stmt(sql).get(...args) as Row | undefined;
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

  /** Runs a rule's writes in order (store/write-sql.ts); what they return is in the context. */
  private execute(run: string, writes: readonly StoreWrite[], ctx: WriteContext = writeContext()): WriteContext {
    for (const w of writes)
      for (const s of writeStatements(w, run, ctx, SQLITE_DIALECT)) {
        const st = this.stmt(s.sql);
        if (s.row) s.row(st.get(...s.args) as Row | undefined);
        else st.run(...s.args);
      }
    return ctx;
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

  private runOf(run: string): facts.RunRow | undefined {
    const row = this.row("SELECT * FROM runs WHERE run = ?", run);
    return row ? toRun(row) : undefined;
  }

  private knownRun(run: string): facts.RunRow {
    const r = this.runOf(run);
    if (!r) throw rules.unknownRun(run);
    return r;
  }

  async createRun(spec: store.CreateRunSpec) {
    return this.tx(true, () => this.execute(spec.run, rules.accepted(rules.decideCreateRun(spec)).writes).headers[0]!);
  }

  async loadFacts(run: string, since?: number): Promise<store.RunFacts> {
    return this.deferred(() => {
      const row = this.row("SELECT * FROM runs WHERE run = ?", run);
      if (!row) throw rules.unknownRun(run);
      // Arrays, not row objects: this runs at every scheduling step and on every resume.
      const cols = "unit, state, attempts, failures, current_record, superseded_record, superseded, hold, last_error, version, not_before";
      const units = (
        since === undefined
          ? (this.rawStmt(`SELECT ${cols} FROM unit_states INDEXED BY sqlite_autoindex_unit_states_1 WHERE run = ?`).all(
              run,
            ) as UnitTuple[])
          : (this.rawStmt(`SELECT ${cols} FROM unit_states WHERE run = ? AND changed_seq > ?`).all(run, since) as UnitTuple[])
      ).map(unitFromTuple);
      const all = (sql: string) => this.stmt(sql).all(run) as Row[];
      return {
        run: toRun(row),
        units,
        changeSeq: Number(row.change_seq),
        leases: all("SELECT * FROM leases WHERE run = ?").map(toLease),
        openEffects: all(
          `SELECT * FROM effects WHERE run = ? AND (state IN ('PREPARED','STARTED','UNKNOWN') OR compensation_state IN ('pending','failed')) ORDER BY prepared_at, seq`,
        ).map(toEffect),
        approvals: all("SELECT * FROM approvals WHERE run = ?").map(toApproval),
      };
    });
  }

  async commitCheckpoint(run: string, expectedVersion: number, commit: store.CheckpointCommit, hooks?: store.CommitHooks) {
    return (await this.commitCheckpoints(run, expectedVersion, [commit], hooks))[0]!;
  }

  async commitCheckpoints(run: string, expectedVersion: number, commits: store.CheckpointCommit[], hooks?: store.CommitHooks) {
    return this.tx(true, () => {
      const r = this.knownRun(run);
      const leases = new Map<string, EndingLease>();
      for (const unit of new Set(commits.flatMap((c) => (c.fence ? [c.fence.unit] : [])))) {
        const l = this.leaseOf(run, unit);
        if (l) leases.set(unit, l);
      }
      const changed = [...new Set(commits.flatMap((c) => c.changes.map((ch) => ch.unit)))];
      const units = new Map(changed.flatMap((unit) => this.unitsOf(run, unit)));
      const d = rules.decideCommit({ run: r, leases, units }, expectedVersion, commits, new Date().toISOString());
      if (d.kind === "refused") throw d.error;
      const { writes, hookAfter } = rules.commitWrites(d, changed);
      const prev = this.row("SELECT digest FROM checkpoints WHERE run = ? AND version = ?", run, r.version)!;
      const ctx = this.execute(run, writes.slice(0, hookAfter), writeContext(String(prev.digest)));
      hooks?.insideTransaction?.();
      return this.execute(run, writes.slice(hookAfter), ctx).headers;
    });
  }

  private unitsOf(run: string, unit: string): Array<[string, ReturnType<typeof toUnitState>]> {
    const u = this.row("SELECT * FROM unit_states WHERE run = ? AND unit = ?", run, unit);
    return u ? [[unit, toUnitState(u)]] : [];
  }

  async claimUnit(...[run, unit, owner, ttlMs, now, expectedVersion, options = {}]: rules.Args<"claimUnit">): Promise<store.Claim> {
    // NORMAL: the caller makes it durable with sync() before the attempt (or the lookup that carries
    // the token) does anything outside the store, and claims made together share that one fsync.
    return this.tx(false, () => this.claimIn(run, { unit, owner, ttlMs, now, expectedVersion, ...options }));
  }

  async claimUnits(run: string, requests: store.ClaimRequestOf[], owner: string, ttlMs: number, now: string, expectedVersion?: number) {
    // One transaction for the round: a claim's commit writes the WAL pages it touched, and a
    // level's claims touch the same few pages. A refusal is decided before its claim writes
    // anything, so the claims before it stand.
    return this.tx(false, (): store.ClaimRound => {
      const claims: store.Claim[] = [];
      for (const q of requests) {
        try {
          claims.push(this.claimIn(run, { owner, ttlMs, now, expectedVersion, ...q }));
        } catch (err) {
          if (isClaimRefusal(err)) return { claims, refused: err };
          throw err;
        }
      }
      return { claims };
    });
  }

  private claimIn(run: string, request: Omit<ClaimRequest, "expectedVersion"> & { expectedVersion?: number | undefined }): store.Claim {
    const { expectedVersion, ...rest } = request;
    const req: ClaimRequest = { ...rest, recovery: rest.recovery === true, ...(expectedVersion !== undefined ? { expectedVersion } : {}) };
    const u = this.row("SELECT * FROM unit_states WHERE run = ? AND unit = ?", run, req.unit);
    const held = this.row("SELECT * FROM leases WHERE run = ? AND unit = ?", run, req.unit);
    const state = { run: this.knownRun(run), unit: u ? toUnitState(u) : undefined, held: held ? toLease(held) : undefined };
    const d = rules.decideClaim(state, req);
    if (d.kind === "refused") throw d.error;
    const token = Number(this.row("UPDATE meta SET value = value + 1 WHERE key = 'fencing_counter' RETURNING value")!.value);
    this.execute(run, rules.claimWrites(state, req, d, token));
    return { token, attempt: d.attempt, lease: rules.claimedLease(req, d, token, run), reserved: d.reserved };
  }

  async renewLease(run: string, unit: string, token: number, ttlMs: number, now: string): Promise<facts.Lease> {
    return this.tx(false, () => {
      const row = this.row("SELECT * FROM leases WHERE run = ? AND unit = ?", run, unit);
      const d = rules.accepted(rules.decideRenewLease(row ? toLease(row) : undefined, run, { unit, token }, ttlMs, now));
      this.execute(run, d.writes);
      return d.lease;
    });
  }

  async releaseLease(run: string, unit: string, token: number, event?: EventIn): Promise<void> {
    this.tx(false, () => {
      const lease = this.leaseOf(run, unit);
      const d = rules.decideReleaseLease(
        { lease, ...(rules.holdsBooking(lease) ? { run: this.knownRun(run) } : {}) },
        { unit, token, at: event?.at ?? new Date().toISOString() },
      );
      this.execute(run, rules.endWrites(d, event ? [event] : []));
    });
  }

  async breakLease(...[run, unit, token, event, ended]: rules.Args<"breakLease">): Promise<void> {
    this.tx(false, () => {
      const lease = this.leaseOf(run, unit);
      const d = rules.decideBreakLease(
        { lease, unit: this.failuresOf(run, unit), ...(rules.holdsBooking(lease) ? { run: this.knownRun(run) } : {}) },
        { unit, token, at: event.at, ...(ended ? { ended } : {}) },
      );
      this.execute(run, rules.endWrites(d, [event]));
    });
  }

  /** The lease on a unit as an attempt's end reads it (its booking included). */
  private leaseOf(run: string, unit: string): EndingLease | undefined {
    const row = this.row("SELECT * FROM leases WHERE run = ? AND unit = ?", run, unit);
    return row ? endingLease(row) : undefined;
  }

  private failuresOf(run: string, unit: string): { failures: number } | undefined {
    const u = this.row("SELECT failures FROM unit_states WHERE run = ? AND unit = ?", run, unit);
    return u ? { failures: Number(u.failures) } : undefined;
  }

  async endAttempt(...[run, unit, token, outcome, events]: rules.Args<"endAttempt">): Promise<void> {
    this.tx(false, () => {
      const state = { run: this.knownRun(run), lease: this.leaseOf(run, unit), unit: this.failuresOf(run, unit) };
      const d = rules.decideEndAttempt(state, { unit, token, outcome, at: events[0]?.at ?? new Date().toISOString() });
      if (d.kind === "refused") throw d.error;
      this.execute(run, rules.endWrites(d, events));
    });
  }

  private fenceOf(run: string, unit: string): { token: number; owner: string } | undefined {
    const lease = this.row("SELECT token, owner FROM leases WHERE run = ? AND unit = ?", run, unit);
    return lease ? { token: Number(lease.token), owner: String(lease.owner) } : undefined;
  }

  async commitIteration(it: Omit<facts.LoopIteration, "closedAt">, fence: { unit: string; token: number }, event: EventIn): Promise<void> {
    this.tx(
      true,
      () =>
        void this.execute(it.run, rules.accepted(rules.decideCommitIteration(this.fenceOf(it.run, fence.unit), it, fence, event)).writes),
    );
  }

  async journalPaidCall(call: Omit<facts.PaidCall, "closedAt">, fence: { unit: string; token: number }): Promise<void> {
    // fsynced before a request leaves (a started call was paid); a replayed one or an answer need not be
    this.tx(call.state === "started", () => {
      this.execute(call.run, rules.accepted(rules.decideJournalPaidCall(this.fenceOf(call.run, fence.unit), call, fence)).writes);
    });
  }

  async answerPaidCall(...[key, answer]: rules.Args<"answerPaidCall">): Promise<void> {
    const { run, ...at } = key;
    this.tx(false, () => void this.execute(run, [{ op: "answer-paid-call", key: at, answer }]));
  }

  async chargeBudget(...[run, delta, event, mode = "check", booking]: rules.Args<"chargeBudget">): Promise<store.ChargeOutcome> {
    return this.tx(false, () => {
      const r = this.knownRun(run);
      const lease = booking ? this.leaseOf(run, booking.unit) : undefined;
      const held = lease && lease.token === booking?.token ? lease.reserved : undefined;
      const d = rules.decideCharge({ run: r, booking: held }, delta, event, mode, booking);
      this.execute(run, d.writes);
      return d.outcome;
    });
  }

  /** An operator's change of the run row; a hold's commit, like a lease's, is made durable by the next FULL one. */
  private changeRun(run: string, durable: boolean, change: rules.RunChange, event: EventIn): void {
    this.tx(durable, () => void this.execute(run, rules.accepted(rules.decideRunChange(this.runOf(run), run, change, event)).writes));
  }

  async setCaps(run: string, caps: facts.BudgetAmounts, event: EventIn): Promise<void> {
    this.changeRun(run, true, { kind: "caps", caps }, event);
  }

  async setRunHold(run: string, hold: facts.Hold | null, event: EventIn): Promise<void> {
    this.changeRun(run, false, { kind: "hold", hold }, event);
  }

  async setRunStatus(run: string, status: facts.RunStatus, event: EventIn): Promise<void> {
    this.changeRun(run, true, { kind: "status", status }, event);
  }

  async setRunOrigin(run: string, origin: Partial<facts.RunRow["origin"]>, event: EventIn): Promise<void> {
    this.changeRun(run, true, { kind: "origin", origin }, event);
  }

  async setUnitHold(run: string, unit: string, hold: facts.Hold | null, event: EventIn): Promise<void> {
    this.tx(false, () => void this.execute(run, rules.unitHoldWrites(unit, hold, event)));
  }

  async appendEvents(run: string, events: EventIn[]): Promise<void> {
    this.tx(false, () => void this.execute(run, [{ op: "insert-events", events }]));
  }

  async markArtifactCorrupt(run: string, path: string, event: EventIn): Promise<void> {
    this.tx(true, () => void this.execute(run, rules.corruptArtifactWrites(path, event)));
  }

  async recordCollection(...[run, payloads, event]: rules.Args<"recordCollection">): Promise<void> {
    this.tx(true, () => {
      const state = { run: this.runOf(run), leases: Number(this.row("SELECT COUNT(*) AS n FROM leases WHERE run = ?", run)!.n) };
      this.execute(run, rules.accepted(rules.decideRecordCollection(state, run, payloads, event)).writes);
    });
  }

  async prepareEffect(...[effect, fence]: rules.Args<"prepareEffect">): Promise<facts.EffectRecord> {
    return this.tx(true, () => {
      const run = this.runOf(effect.run);
      const sameKey =
        effect.key === undefined
          ? []
          : (
              this.stmt("SELECT * FROM effects WHERE run = ? AND tool = ? AND key = ?").all(effect.run, effect.tool, effect.key) as Row[]
            ).map(toEffect);
      const state = { lease: this.fenceOf(effect.run, fence.unit), ...(run ? { planVersion: run.planVersion } : {}), sameKey };
      return toEffect(this.execute(effect.run, rules.accepted(rules.decidePrepareEffect(state, effect, fence)).writes).effect!);
    });
  }

  async updateEffect(...[id, from, patch, event]: rules.Args<"updateEffect">): Promise<facts.EffectRecord> {
    return this.tx(true, () => {
      const row = this.row("SELECT * FROM effects WHERE id = ?", id);
      const d = rules.accepted(rules.decideUpdateEffect(row ? toEffect(row) : undefined, id, from, patch, event));
      return toEffect(this.execute(String(row!.run), d.writes).effect!);
    });
  }

  async grantApproval(a: facts.Approval, event: EventIn): Promise<void> {
    this.tx(true, () => void this.execute(a.run, rules.accepted(rules.decideGrantApproval(a, event)).writes));
  }

  async revokeApproval(id: string, now: string, event: EventIn): Promise<void> {
    this.tx(true, () => {
      const row = this.row("SELECT run FROM approvals WHERE id = ?", id);
      const found = row ? { run: String(row.run) } : undefined;
      this.execute(found?.run ?? "", rules.accepted(rules.decideRevokeApproval(found, id, now, event)).writes);
    });
  }

  async issueResumeToken(tokenHash: string, row: { run: string; unit: string; expiresAt: string; createdAt: string }): Promise<void> {
    this.tx(true, () => void this.execute(row.run, rules.accepted(rules.decideIssueResumeToken(tokenHash, row)).writes));
  }

  async consumeResumeToken(tokenHash: string, now: string, gate: { run: string; unit: string }): Promise<{ run: string; unit: string }> {
    return this.tx(true, () => {
      const row = this.row("SELECT * FROM resume_tokens WHERE token_hash = ?", tokenHash);
      this.execute(
        gate.run,
        rules.accepted(rules.decideConsumeResumeToken(row ? toResumeToken(row) : undefined, tokenHash, now, gate)).writes,
      );
      return gate;
    });
  }

  async addOperator(row: { name: string; keyHash: string; createdAt: string }): Promise<void> {
    this.tx(true, () => {
      const taken = this.row("SELECT name FROM operators WHERE name = ? OR key_hash = ?", row.name, row.keyHash);
      this.execute("", rules.accepted(rules.decideAddOperator(taken ? { name: String(taken.name) } : undefined, row)).writes);
    });
  }

  async listChainLinks(run: string): Promise<ChainLink[]> {
    const rows = this.rawStmt(
      "SELECT version, parent, kind, plan_version, input_version, budget_used, approvals, next_action, delta, created_at, committed_at, digest FROM checkpoints WHERE run = ? ORDER BY version",
    ).all(run) as Array<[number, number | null, string, string, string, string, string, string, string, string, string, string]>;
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
}
