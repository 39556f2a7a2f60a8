/**
 * The shared store on PostgreSQL, for workers on several hosts. Same tables,
 * rules and write statements as SQLite (store/rows.ts, store/*-rules.ts,
 * store/write-sql.ts); what differs is concurrency:
 * - checkpoint commits lock the changed unit rows, then the run row, and
 *   compare-and-set the run version in one READ COMMITTED transaction;
 * - a claim locks its unit row with FOR UPDATE SKIP LOCKED: a row another
 *   claimer holds is reported as held instead of waited for;
 * - fencing tokens come from a SEQUENCE (only increases, never reused);
 * - locks are always taken in the order unit rows -> run row -> lease row, so
 *   concurrent writers queue instead of deadlocking.
 * Connection loss (store/postgres-connection.ts): a checkpoint commit lost
 * during COMMIT is re-checked by reading the run's checkpoint at the version it
 * would have written (same digest: it committed) before any error surfaces.
 */
import { LeaseHeldError, SchemaVersionError } from "../errors.js";
import type * as facts from "../model/facts.js";
import type { ChainLink } from "../model/checkpoint-digest.js";
import { PG_MIGRATIONS } from "./postgres-migrations.js";
import { endingLease, parse, toApproval, toEffect, toLease, toResumeToken, toRun, toUnitState, toWorker, type Row } from "./rows.js";
import { upsertWorker, workerRowsKeptAfter } from "./worker-rows.js";
import type { ClaimRequest, ClaimState, EndingLease } from "./unit-transition.js";
import { isClaimRefusal } from "./claim-refusal.js";
import * as rules from "./rules.js";
import { highestToken, ImportConflictError, importStatements, runExists, runRowsQueries, storedRow, type RunRows } from "./run-rows.js";
import { SqlReads } from "./sql-reads.js";
import type { Query } from "./sql-reads.js";
import { POSTGRES_DIALECT, writeStatements } from "./write-sql.js";
import { writeContext, type Decided, type EventIn, type StoreWrite, type WriteContext } from "./writes.js";
import { nameLostWrites } from "./lost-writes.js";
import { CommitOutcomeUnknown, PgConnection, StoreUnavailableError, type PostgresStoreOptions, type Q } from "./postgres-connection.js";
import type * as store from "./types.js";

export { postgresOptionsFromUrl, StoreUnavailableError, type PostgresStoreOptions } from "./postgres-connection.js";

/** Runs a rule's writes in order (store/write-sql.ts), one round trip a statement; what they return is in the context. */
async function execute(q: Q, run: string, writes: readonly StoreWrite[], ctx: WriteContext = writeContext()): Promise<WriteContext> {
  for (const w of writes)
    for (const s of writeStatements(w, run, ctx, POSTGRES_DIALECT)) {
      const rows = await q(s.sql, s.args);
      s.row?.(rows[0]);
    }
  return ctx;
}

/** The server's time as the ISO text leases hold (UTC, milliseconds): compared as text with theirs. */
const DB_NOW = `to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export class PostgresStore extends SqlReads implements store.Store {
  private readonly db: PgConnection;
  private readonly leaseClock: "database" | "caller";

  constructor(options: PostgresStoreOptions) {
    super();
    this.db = new PgConnection(options);
    this.leaseClock = options.leaseClock ?? "database";
    nameLostWrites(this);
  }

  /** The time a lease is granted or judged at: the server's, read with the rows, unless the caller drives time. */
  private leaseNow(row: Row | undefined, callerNow: string): string {
    return this.leaseClock === "database" && row?.db_now ? String(row.db_now) : callerNow;
  }

  /** The NOTIFY channel of this store's schema (stores in other schemas of one database are other stores). */
  private get workChannel(): string {
    return `"taskspec_work:${(this.db.schema ?? "").replace(/"/g, "")}"`;
  }

  async announceWork(): Promise<void> {
    await this.db.write(async (q) => void (await q(`NOTIFY ${this.workChannel}`)));
  }

  async onWork(wake: () => void): Promise<() => Promise<void>> {
    const client = await this.db.pool.connect();
    const onNotification = () => wake();
    // a dropped listening connection is not this method's to report: the listener polls as well
    const onError = () => undefined;
    client.on("notification", onNotification);
    client.on("error", onError);
    await client.query(`LISTEN ${this.workChannel}`);
    return async () => {
      client.off("notification", onNotification);
      await client.query(`UNLISTEN ${this.workChannel}`).catch(() => undefined);
      client.off("error", onError);
      client.release();
    };
  }

  async clock(): Promise<string> {
    return String((await this.db.read(`SELECT ${DB_NOW} AS now`))[0]!.now);
  }

  /** One statement: the row stamped, and every other row as the same snapshot saw it. */
  async heartbeat(w: store.WorkerIdentity): Promise<store.WorkersSnapshot> {
    const rows = await this.db.once(
      `WITH beat AS (${upsertWorker(DB_NOW)} RETURNING *)
       SELECT *, heartbeat_at AS db_now FROM beat
       UNION ALL SELECT *, NULL FROM workers WHERE id <> ?
       ORDER BY started_at, id`,
      [w.id, w.host, w.pid, w.id],
    );
    const at = String(rows.find((r) => r.db_now)!.db_now);
    return { at, workers: rows.map(toWorker) };
  }

  async stopWorker(id: string): Promise<void> {
    await this.db.write(async (q) => {
      const [row] = await q(`UPDATE workers SET stopped_at = ${DB_NOW} WHERE id = ? RETURNING stopped_at`, [id]);
      if (row) await q("DELETE FROM workers WHERE heartbeat_at < ?", [workerRowsKeptAfter(String(row.stopped_at))]);
    });
  }

  async listWorkers(): Promise<store.WorkersSnapshot & { leases: facts.Lease[] }> {
    const [row] = await this.db.read(
      `SELECT ${DB_NOW} AS at,
         (SELECT COALESCE(json_agg(w ORDER BY w.started_at, w.id), '[]') FROM workers w) AS workers,
         (SELECT COALESCE(json_agg(l ORDER BY l.run, l.unit), '[]') FROM leases l) AS leases`,
    );
    return { at: String(row!.at), workers: (row!.workers as Row[]).map(toWorker), leases: (row!.leases as Row[]).map(toLease) };
  }

  protected async rows(q: Query): Promise<Row[]> {
    return this.db.read(q.sql, q.args);
  }

  async init(): Promise<void> {
    const schema = this.db.schema;
    await this.db.write(async (q) => {
      // One migrator at a time per schema: workers starting together do not race.
      await q("SELECT pg_advisory_xact_lock(hashtext(?))", [`taskspec-migrate:${schema ?? ""}`]);
      if (schema) await q(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await q("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
      const current = Number((await q("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version"))[0]!.v);
      if (current > PG_MIGRATIONS.length) throw new SchemaVersionError(current, PG_MIGRATIONS.length);
      for (let v = current; v < PG_MIGRATIONS.length; v++) {
        await q(PG_MIGRATIONS[v]!, [], "raw");
        await q("INSERT INTO schema_version (version) VALUES (?)", [v + 1]);
      }
    });
  }

  async close(): Promise<void> {
    await this.db.pool.end();
  }

  async exportRunRows(run: string): Promise<RunRows | undefined> {
    return this.db.tx(async (q) => {
      const out = {} as RunRows;
      for (const { table, query } of runRowsQueries(run)) out[table] = (await q(query.sql, query.args)).map((r) => storedRow(table, r));
      return out.runs.length === 0 ? undefined : out;
    }, "read");
  }

  async importRunRows(rows: RunRows): Promise<void> {
    const run = String(rows.runs[0]?.run);
    await this.db.write(async (q) => {
      if ((await q("SELECT 1 AS x FROM runs WHERE run = ? FOR UPDATE", [run])).length > 0) throw runExists(run);
      for (const st of importStatements(rows)) {
        // a savepoint per statement: a duplicate is reported as the import's refusal, the transaction still rolled back whole
        await q("SAVEPOINT import_row");
        try {
          await q(st.sql, st.args);
        } catch (err) {
          if (st.conflict && (err as { code?: string }).code === "23505") throw new ImportConflictError(st.conflict);
          throw err;
        }
        await q("RELEASE SAVEPOINT import_row");
      }
      // explicit ids do not move the sequences: advance them past what was imported (a gap is harmless)
      const top = (table: string, col: string) => `(SELECT COALESCE(MAX(${col}), 0) FROM ${table})`;
      await q(
        `SELECT setval(pg_get_serial_sequence('events', 'seq'), GREATEST(nextval(pg_get_serial_sequence('events', 'seq')), ${top("events", "seq")}))`,
      );
      await q(
        `SELECT setval(pg_get_serial_sequence('unit_records', 'id'), GREATEST(nextval(pg_get_serial_sequence('unit_records', 'id')), ${top("unit_records", "id")}))`,
      );
      await q("SELECT setval('fencing_tokens', GREATEST(nextval('fencing_tokens'), ?))", [highestToken(rows)]);
    });
  }

  async schemaVersion(): Promise<number> {
    return Number((await this.db.read("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version"))[0]!.v);
  }

  /** Every PostgreSQL commit is durable when it returns (synchronous_commit on): nothing to wait for. */
  async sync(): Promise<void> {}

  private async runOf(q: Q, run: string, lock: "FOR UPDATE" | "FOR SHARE" | "" = "FOR UPDATE"): Promise<facts.RunRow | undefined> {
    const [row] = await q(`SELECT * FROM runs WHERE run = ? ${lock}`, [run]);
    return row ? toRun(row) : undefined;
  }

  private async knownRun(q: Q, run: string, lock: "FOR UPDATE" | "" = "FOR UPDATE"): Promise<facts.RunRow> {
    const r = await this.runOf(q, run, lock);
    if (!r) throw rules.unknownRun(run);
    return r;
  }

  /** One rule's transaction: read, decide, execute. */
  private async decided(run: string, decide: (q: Q) => Promise<Decided>): Promise<void> {
    await this.db.write(async (q) => void (await execute(q, run, rules.accepted(await decide(q)).writes)));
  }

  async createRun(spec: store.CreateRunSpec): Promise<facts.CheckpointHeader> {
    return this.db.write(async (q) => (await execute(q, spec.run, rules.accepted(rules.decideCreateRun(spec)).writes)).headers[0]!);
  }

  /** One statement, so one snapshot and one round trip: the rows come back as JSON arrays for the shared mappers. */
  async loadFacts(run: string, since?: number): Promise<store.RunFacts> {
    const [row] = await this.db.read(
      `SELECT r.*,
         (SELECT COALESCE(json_agg(u ORDER BY u.unit), '[]') FROM unit_states u WHERE u.run = r.run AND ($2::bigint IS NULL OR u.changed_seq > $2)) AS facts_units,
         (SELECT COALESCE(json_agg(l), '[]') FROM leases l WHERE l.run = r.run) AS facts_leases,
         (SELECT COALESCE(json_agg(e ORDER BY e.prepared_at, e.seq), '[]') FROM effects e
           WHERE e.run = r.run AND (e.state IN ('PREPARED','STARTED','UNKNOWN') OR e.compensation_state IN ('pending','failed'))) AS facts_effects,
         (SELECT COALESCE(json_agg(a), '[]') FROM approvals a WHERE a.run = r.run) AS facts_approvals
       FROM runs r WHERE r.run = $1`,
      [run, since ?? null],
    );
    if (!row) throw rules.unknownRun(run);
    return {
      run: toRun(row),
      units: (row.facts_units as Row[]).map(toUnitState),
      changeSeq: Number(row.change_seq),
      leases: (row.facts_leases as Row[]).map(toLease),
      openEffects: (row.facts_effects as Row[]).map(toEffect),
      approvals: (row.facts_approvals as Row[]).map(toApproval),
    };
  }

  async commitCheckpoint(...[run, expectedVersion, commit, hooks]: rules.Args<"commitCheckpoint">): Promise<facts.CheckpointHeader> {
    const [header] = await this.commitCheckpoints(run, expectedVersion, [commit], hooks);
    return header!;
  }

  async commitCheckpoints(...[run, expectedVersion, commits, hooks]: rules.Args<"commitCheckpoints">): Promise<facts.CheckpointHeader[]> {
    let ctx = writeContext();
    try {
      return await this.db.tx(async (q) => {
        const changed = new Set(commits.flatMap((c) => c.changes.map((ch) => ch.unit)));
        const fenced = [...new Set(commits.flatMap((c) => (c.fence ? [c.fence.unit] : [])))].sort();
        const locked = await q("SELECT * FROM unit_states WHERE run = ? AND unit = ANY(?::text[]) ORDER BY unit FOR UPDATE", [
          run,
          [...new Set([...changed, ...fenced])].sort(),
        ]);
        const units = new Map(locked.filter((u) => changed.has(String(u.unit))).map((u) => [String(u.unit), toUnitState(u)]));
        const r = await this.knownRun(q, run);
        const leases = new Map<string, EndingLease>();
        if (fenced.length)
          for (const l of await q("SELECT * FROM leases WHERE run = ? AND unit = ANY(?::text[]) ORDER BY unit FOR UPDATE", [run, fenced]))
            leases.set(String(l.unit), endingLease(l));
        const d = rules.decideCommit({ run: r, leases, units }, expectedVersion, commits, new Date().toISOString());
        if (d.kind === "refused") throw d.error;
        const { writes, hookAfter } = rules.commitWrites(d, [...changed]);
        const [prev] = await q("SELECT digest FROM checkpoints WHERE run = ? AND version = ?", [run, r.version]);
        ctx = await execute(q, run, writes.slice(0, hookAfter), writeContext(String(prev!.digest)));
        hooks?.insideTransaction?.();
        return (await execute(q, run, writes.slice(hookAfter), ctx)).headers;
      });
    } catch (e) {
      if (!(e instanceof CommitOutcomeUnknown)) throw e;
      return this.recheckCommit(run, ctx.headers, e.cause);
    }
  }

  /** The connection dropped during COMMIT: our last checkpoint is there with our digest, or it was not written. */
  private async recheckCommit(run: string, headers: facts.CheckpointHeader[], cause: unknown): Promise<facts.CheckpointHeader[]> {
    const last = headers[headers.length - 1]!;
    let rows: Row[];
    try {
      rows = await this.db.read("SELECT digest FROM checkpoints WHERE run = ? AND version = ?", [run, last.version]);
    } catch {
      throw new StoreUnavailableError("unknown", cause);
    }
    if (rows[0] && String(rows[0].digest) === last.digest) return headers;
    throw new StoreUnavailableError("not-written", cause);
  }

  /** The fence of the lease on a unit, locked as the caller asks. */
  private async fenceOf(
    q: Q,
    run: string,
    unit: string,
    lock: "FOR UPDATE" | "FOR SHARE",
  ): Promise<{ token: number; owner: string } | undefined> {
    const [lease] = await q(`SELECT token, owner FROM leases WHERE run = ? AND unit = ? ${lock}`, [run, unit]);
    return lease ? { token: Number(lease.token), owner: String(lease.owner) } : undefined;
  }

  async claimUnit(...[run, unit, owner, ttlMs, callerNow, expectedVersion, options = {}]: rules.Args<"claimUnit">): Promise<store.Claim> {
    const books = !options.recovery && Object.keys(options.reserve ?? {}).length > 0;
    const asked: ClaimRequest = {
      unit,
      owner,
      ttlMs,
      now: callerNow,
      ...(expectedVersion !== undefined ? { expectedVersion } : {}),
      recovery: options.recovery === true,
      ...(options.planVersion !== undefined ? { planVersion: options.planVersion } : {}),
      ...(options.reserve ? { reserve: options.reserve } : {}),
    };
    return this.db.write(async (q) => {
      const [u] = await q(
        `SELECT u.*, r.version AS run_version, r.status AS run_status, r.plan_version AS run_plan_version, r.hold AS run_hold, ${DB_NOW} AS db_now FROM unit_states u JOIN runs r ON r.run = u.run WHERE u.run = ? AND u.unit = ? FOR UPDATE OF u SKIP LOCKED`,
        [run, unit],
      );
      const now = this.leaseNow(u, callerNow);
      const req: ClaimRequest = { ...asked, now };
      // A claim that books a cost locks the run row (after the unit row, the order commits take), so
      // two workers claiming different units read each other's booking, never the same used amount.
      let r: ClaimState["run"] =
        u && !books
          ? {
              run,
              version: Number(u.run_version),
              status: String(u.run_status) as facts.RunStatus,
              planVersion: String(u.run_plan_version),
              ...(u.run_hold ? { hold: parse<facts.Hold>(u.run_hold) } : {}),
            }
          : await this.knownRun(q, run, books ? "FOR UPDATE" : "");
      const [held] = u ? await q("SELECT * FROM leases WHERE run = ? AND unit = ?", [run, unit]) : [];
      const heldLease = held ? toLease(held) : undefined;
      // an expired lease taken over has its booking settled: the used budgets are read and written
      if (!books && heldLease && heldLease.expiresAt <= now && rules.holdsBooking(heldLease)) r = await this.knownRun(q, run);
      const state = { run: r, unit: u ? toUnitState(u) : undefined, held: heldLease };
      const d = rules.decideClaim(state, req);
      if (d.kind === "refused") {
        if (d.reason === "no-unit" && (await q("SELECT 1 FROM unit_states WHERE run = ? AND unit = ?", [run, unit])).length)
          // Another worker is claiming or committing this unit right now.
          throw new LeaseHeldError(run, unit, "another worker (claim in progress)", now);
        throw d.error;
      }
      const token = Number((await q("SELECT nextval('fencing_tokens') AS token"))[0]!.token);
      await execute(q, run, rules.claimWrites(state, req, d, token));
      return { token, attempt: d.attempt, lease: rules.claimedLease(req, d, token, run), reserved: d.reserved };
    });
  }

  async claimUnits(...[run, requests, owner, ttlMs, now, expectedVersion]: rules.Args<"claimUnits">): Promise<store.ClaimRound> {
    // A transaction per claim: each takes its unit row with SKIP LOCKED and, when it books a cost,
    // the run row; one transaction for the round would hold the first units' rows while taking the
    // run row for a later one. What the round saves on SQLite (WAL pages written once) is not
    // what a claim costs here (a round trip per statement).
    const claims: store.Claim[] = [];
    for (const q of requests) {
      try {
        claims.push(await this.claimUnit(run, q.unit, owner, ttlMs, now, expectedVersion, q));
      } catch (err) {
        if (isClaimRefusal(err)) return { claims, refused: err };
        throw err;
      }
    }
    return { claims };
  }

  async renewLease(run: string, unit: string, token: number, ttlMs: number, now: string): Promise<facts.Lease> {
    return this.db.write(async (q) => {
      const [row] = await q(`SELECT *, ${DB_NOW} AS db_now FROM leases WHERE run = ? AND unit = ? FOR UPDATE`, [run, unit]);
      const d = rules.accepted(
        rules.decideRenewLease(row ? toLease(row) : undefined, run, { unit, token }, ttlMs, this.leaseNow(row, now)),
      );
      await execute(q, run, d.writes);
      return d.lease;
    });
  }

  /**
   * What the end of a lease reads, locked in the order every lease's end takes:
   * the unit row, the lease, then the run row (for update when the lease's
   * booking is settled, else as `runLock` says).
   */
  private async ending(q: Q, run: string, unit: string, runLock: "FOR SHARE" | "" = "") {
    const [u] = await q("SELECT failures FROM unit_states WHERE run = ? AND unit = ? FOR UPDATE", [run, unit]);
    const [l] = await q("SELECT * FROM leases WHERE run = ? AND unit = ? FOR UPDATE", [run, unit]);
    const lease = l ? endingLease(l) : undefined;
    const books = rules.holdsBooking(lease);
    const r = books || runLock ? await this.runOf(q, run, books ? "FOR UPDATE" : runLock) : undefined;
    return { unit: u ? { failures: Number(u.failures) } : undefined, lease, run: r };
  }

  async releaseLease(run: string, unit: string, token: number, event?: EventIn): Promise<void> {
    await this.db.write(async (q) => {
      const s = await this.ending(q, run, unit);
      const d = rules.decideReleaseLease(
        { lease: s.lease, ...(s.run ? { run: s.run } : {}) },
        { unit, token, at: event?.at ?? new Date().toISOString() },
      );
      await execute(q, run, rules.endWrites(d, event ? [event] : []));
    });
  }

  async breakLease(...[run, unit, token, event, ended]: rules.Args<"breakLease">): Promise<void> {
    await this.db.write(async (q) => {
      const s = await this.ending(q, run, unit);
      const d = rules.decideBreakLease(
        { lease: s.lease, unit: s.unit, ...(s.run ? { run: s.run } : {}) },
        { unit, token, at: event.at, ...(ended ? { ended } : {}) },
      );
      await execute(q, run, rules.endWrites(d, [event]));
    });
  }

  async endAttempt(...[run, unit, token, outcome, events]: rules.Args<"endAttempt">): Promise<void> {
    await this.db.write(async (q) => {
      // the run row shared: a plan change (which locks it for update) is ordered before or after this end, never beside it
      const s = await this.ending(q, run, unit, "FOR SHARE");
      const d = rules.decideEndAttempt(
        { run: s.run ?? { run, planVersion: "undefined" }, lease: s.lease, unit: s.unit },
        { unit, token, outcome, at: events[0]?.at ?? new Date().toISOString() },
      );
      if (d.kind === "refused") throw d.error;
      await execute(q, run, rules.endWrites(d, events));
    });
  }

  async commitIteration(it: Omit<facts.LoopIteration, "closedAt">, fence: { unit: string; token: number }, event: EventIn): Promise<void> {
    await this.decided(it.run, async (q) =>
      rules.decideCommitIteration(await this.fenceOf(q, it.run, fence.unit, "FOR UPDATE"), it, fence, event),
    );
  }

  async journalPaidCall(call: Omit<facts.PaidCall, "closedAt">, fence: { unit: string; token: number }): Promise<void> {
    // FOR SHARE: a takeover cannot replace the lease until this call is recorded under it
    await this.decided(call.run, async (q) =>
      rules.decideJournalPaidCall(await this.fenceOf(q, call.run, fence.unit, "FOR SHARE"), call, fence),
    );
  }

  async answerPaidCall(...[key, answer]: rules.Args<"answerPaidCall">): Promise<void> {
    const { run, ...at } = key;
    await this.db.write(async (q) => void (await execute(q, run, [{ op: "answer-paid-call", key: at, answer }])));
  }

  async chargeBudget(...[run, delta, event, mode = "check", booking]: rules.Args<"chargeBudget">): Promise<store.ChargeOutcome> {
    return this.db.write(async (q) => {
      // drawing on a booking: the unit row, the run row, then the lease, the order a commit takes
      if (booking) await q("SELECT failures FROM unit_states WHERE run = ? AND unit = ? FOR UPDATE", [run, booking.unit]);
      const r = await this.knownRun(q, run);
      const [l] = booking ? await q("SELECT * FROM leases WHERE run = ? AND unit = ? FOR UPDATE", [run, booking.unit]) : [];
      const held = l && Number(l.token) === booking?.token ? endingLease(l).reserved : undefined;
      const d = rules.decideCharge({ run: r, booking: held }, delta, event, mode, booking);
      await execute(q, run, d.writes);
      return d.outcome;
    });
  }

  /** An operator's change of the run row, locked. */
  private async changeRun(run: string, change: rules.RunChange, event: EventIn): Promise<void> {
    await this.decided(run, async (q) => rules.decideRunChange(await this.runOf(q, run), run, change, event));
  }

  async setCaps(run: string, caps: facts.BudgetAmounts, event: EventIn): Promise<void> {
    await this.changeRun(run, { kind: "caps", caps }, event);
  }

  async setRunHold(run: string, hold: facts.Hold | null, event: EventIn): Promise<void> {
    await this.changeRun(run, { kind: "hold", hold }, event);
  }

  async setRunStatus(run: string, status: facts.RunStatus, event: EventIn): Promise<void> {
    await this.changeRun(run, { kind: "status", status }, event);
  }

  async setRunOrigin(run: string, origin: Partial<facts.RunRow["origin"]>, event: EventIn): Promise<void> {
    await this.changeRun(run, { kind: "origin", origin }, event);
  }

  async setUnitHold(run: string, unit: string, hold: facts.Hold | null, event: EventIn): Promise<void> {
    await this.db.write(async (q) => void (await execute(q, run, rules.unitHoldWrites(unit, hold, event))));
  }

  /** One INSERT is atomic on its own: no BEGIN/COMMIT round trips. */
  async appendEvents(run: string, events: EventIn[]): Promise<void> {
    for (const s of writeStatements({ op: "insert-events", events }, run, writeContext(), POSTGRES_DIALECT))
      await this.db.once(s.sql, s.args);
  }

  async markArtifactCorrupt(run: string, path: string, event: EventIn): Promise<void> {
    await this.db.write(async (q) => void (await execute(q, run, rules.corruptArtifactWrites(path, event))));
  }

  /** The run row locked FOR UPDATE: a change of its status (which locks it too) comes before or after, never between. */
  async recordCollection(...[run, payloads, event]: rules.Args<"recordCollection">): Promise<void> {
    await this.decided(run, async (q) => {
      const r = await this.runOf(q, run);
      const leases = Number((await q("SELECT COUNT(*) AS n FROM leases WHERE run = ?", [run]))[0]!.n);
      return rules.decideRecordCollection({ run: r, leases }, run, payloads, event);
    });
  }

  async prepareEffect(...[effect, fence]: rules.Args<"prepareEffect">): Promise<facts.EffectRecord> {
    return this.db.write(async (q) => {
      // FOR SHARE: a takeover cannot replace the lease until this effect is recorded under it.
      const lease = await this.fenceOf(q, effect.run, fence.unit, "FOR SHARE");
      // shared too: a plan change (which locks the run row for update) is ordered before or after this effect
      const run = fence.planVersion !== undefined ? await this.runOf(q, effect.run, "FOR SHARE") : undefined;
      let sameKey: facts.EffectRecord[] = [];
      if (effect.key !== undefined) {
        // two workers recording the same key at once: the second waits for the first's commit, then sees it
        await q("SELECT pg_advisory_xact_lock(hashtextextended(?, 0))", [
          JSON.stringify(["effect-key", effect.run, effect.tool, effect.key]),
        ]);
        sameKey = (await q("SELECT * FROM effects WHERE run = ? AND tool = ? AND key = ?", [effect.run, effect.tool, effect.key])).map(
          toEffect,
        );
      }
      const state = { lease, ...(run ? { planVersion: run.planVersion } : {}), sameKey };
      return toEffect((await execute(q, effect.run, rules.accepted(rules.decidePrepareEffect(state, effect, fence)).writes)).effect!);
    });
  }

  async updateEffect(...[id, from, patch, event]: rules.Args<"updateEffect">): Promise<facts.EffectRecord> {
    return this.db.write(async (q) => {
      const [row] = await q("SELECT * FROM effects WHERE id = ? FOR UPDATE", [id]);
      const d = rules.accepted(rules.decideUpdateEffect(row ? toEffect(row) : undefined, id, from, patch, event));
      return toEffect((await execute(q, String(row!.run), d.writes)).effect!);
    });
  }

  async grantApproval(a: facts.Approval, event: EventIn): Promise<void> {
    await this.decided(a.run, async () => rules.decideGrantApproval(a, event));
  }

  async revokeApproval(id: string, now: string, event: EventIn): Promise<void> {
    await this.db.write(async (q) => {
      const [row] = await q("SELECT run FROM approvals WHERE id = ? FOR UPDATE", [id]);
      const found = row ? { run: String(row.run) } : undefined;
      await execute(q, found?.run ?? "", rules.accepted(rules.decideRevokeApproval(found, id, now, event)).writes);
    });
  }

  async issueResumeToken(tokenHash: string, row: { run: string; unit: string; expiresAt: string; createdAt: string }): Promise<void> {
    await this.decided(row.run, async () => rules.decideIssueResumeToken(tokenHash, row));
  }

  async consumeResumeToken(tokenHash: string, now: string, gate: { run: string; unit: string }): Promise<{ run: string; unit: string }> {
    await this.decided(gate.run, async (q) => {
      const [row] = await q("SELECT * FROM resume_tokens WHERE token_hash = ? FOR UPDATE", [tokenHash]);
      return rules.decideConsumeResumeToken(row ? toResumeToken(row) : undefined, tokenHash, now, gate);
    });
    return gate;
  }

  async addOperator(row: { name: string; keyHash: string; createdAt: string }): Promise<void> {
    await this.decided("", async (q) => {
      const [taken] = await q("SELECT name FROM operators WHERE name = ? OR key_hash = ? FOR UPDATE", [row.name, row.keyHash]);
      return rules.decideAddOperator(taken ? { name: String(taken.name) } : undefined, row);
    });
  }

  async listChainLinks(run: string): Promise<ChainLink[]> {
    const rows = await this.db.read("SELECT * FROM checkpoints WHERE run = ? ORDER BY version", [run]);
    return rows.map((r) => ({
      digest: String(r.digest),
      material: {
        run,
        version: Number(r.version),
        parent: r.parent === null ? null : Number(r.parent),
        kind: String(r.kind),
        planVersion: String(r.plan_version),
        inputVersion: String(r.input_version),
        budgetUsed: String(r.budget_used),
        approvals: String(r.approvals),
        nextAction: String(r.next_action),
        delta: String(r.delta),
        createdAt: String(r.created_at),
        committedAt: String(r.committed_at),
      },
    }));
  }
}
