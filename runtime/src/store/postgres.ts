/**
 * The shared store on PostgreSQL, for workers on several hosts. Same tables
 * and row mappers as SQLite (store/rows.ts); what differs is concurrency:
 * - checkpoint commits lock the changed unit rows, then the run row, and
 *   compare-and-set the run version in one READ COMMITTED transaction;
 * - a claim locks its unit row with FOR UPDATE SKIP LOCKED: a row another
 *   claimer holds is reported as held instead of waited for;
 * - fencing tokens come from a SEQUENCE (only increases, never reused);
 * - locks are always taken in the order unit rows -> run row -> lease row, so
 *   concurrent writers queue instead of deadlocking.
 * Connection loss: reads are retried; a write lost before COMMIT was rolled
 * back by the server and is reported as not written; a checkpoint commit lost
 * during COMMIT is re-checked by reading the run's checkpoint at the version it
 * would have written (same digest: it committed) before any error surfaces.
 */
import pg from "pg";
import { InvalidTransitionError, LeaseHeldError, NotFoundError, ResumeTokenError, RuntimeError, SchemaVersionError } from "../errors.js";
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
} from "../model/facts.js";
import { checkpointDigest, materialOf, type ChainLink } from "../model/checkpoint-digest.js";
import { PG_MIGRATIONS } from "./postgres-migrations.js";
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
  toIteration,
  toLease,
  endingLease,
  toPaidCall,
  toRecord,
  toRun,
  toUnitState,
  type Row,
} from "./rows.js";
import {
  claimEvents,
  claimedLease,
  decideClaim,
  decideCommit,
  decideBreakLease,
  decideEndAttempt,
  decideReleaseLease,
  holdsBooking,
  type EndingLease,
  type ClaimState,
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

/** Upsert of an artifact row by its path (a loop iteration's `rejected` file committed as the unit's output). */
const ARTIFACT_UPSERT = `ON CONFLICT (run, path) DO UPDATE SET unit = EXCLUDED.unit, attempt = EXCLUDED.attempt, name = EXCLUDED.name, sha256 = EXCLUDED.sha256, size = EXCLUDED.size, media_type = EXCLUDED.media_type, facets = EXCLUDED.facets, plan_version = EXCLUDED.plan_version, verifier_results = EXCLUDED.verifier_results, status = EXCLUDED.status, record_id = EXCLUDED.record_id, created_at = EXCLUDED.created_at`;

type EventIn = Omit<RunEvent, "run" | "seq">;
type Q = (sql: string, args?: unknown[]) => Promise<Row[]>;

/** The database could not be reached; `outcome` says whether the write may have happened. */
export class StoreUnavailableError extends RuntimeError {
  override readonly name = "StoreUnavailableError";
  constructor(
    readonly outcome: "not-written" | "unknown",
    cause: unknown,
  ) {
    super(
      `the PostgreSQL store is unreachable (${cause instanceof Error ? cause.message : String(cause)}); ` +
        (outcome === "not-written"
          ? "nothing was written, the operation can be repeated"
          : "the write's outcome is unknown: re-read the run before acting on it"),
    );
  }
}

/** Internal: the connection dropped while COMMIT was in flight. */
class CommitOutcomeUnknown extends Error {
  constructor(override readonly cause: unknown) {
    super("commit outcome unknown");
  }
}

const CONNECTION_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "57P01",
  "57P02",
  "57P03",
]);

function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08"))) return true;
  return (
    e instanceof Error &&
    /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed/i.test(e.message)
  );
}

/** Deadlock or serialization failure: the server rolled the transaction back, repeating it is safe. */
const isRolledBackConflict = (e: unknown): boolean => ["40P01", "40001"].includes(String((e as { code?: unknown } | null)?.code));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ATTEMPTS = 4;

export interface PostgresStoreOptions {
  /** `postgres://user@host:port/db` */
  connectionString: string;
  /** Schema holding the tables (created by init); default: the connection's search_path. */
  schema?: string;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  applicationName?: string;
}

/**
 * `postgres://user@host:port/db?schema=name`: the `schema` parameter (ours, not
 * libpq's) picks the schema holding the tables; the rest goes to the driver.
 */
export function postgresOptionsFromUrl(url: string): PostgresStoreOptions {
  const u = new URL(url);
  const schema = u.searchParams.get("schema") ?? undefined;
  u.searchParams.delete("schema");
  return { connectionString: u.toString(), ...(schema !== undefined ? { schema } : {}) };
}

export class PostgresStore implements Store {
  private readonly pool: pg.Pool;
  private readonly schema: string | undefined;

  constructor(options: PostgresStoreOptions) {
    if (options.schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(options.schema)) {
      throw new RuntimeError(`schema name ${JSON.stringify(options.schema)} must be lower-case letters, digits and _`);
    }
    this.schema = options.schema;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      application_name: options.applicationName ?? "taskspec",
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    // A dropped connection fails the query in flight (handled there) and is also
    // emitted as an event; idle ones are removed by the pool, the next use reconnects.
    this.pool.on("error", () => undefined);
    this.pool.on("connect", (client) => client.on("error", () => undefined));
  }

  /** One transaction. Reads are repeated on connection loss; writes only when the server rolled them back. */
  private async tx<T>(fn: (q: Q) => Promise<T>, mode: "write" | "read" = "write"): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient | undefined;
      let committing = false;
      try {
        client = await this.pool.connect();
        const c = client;
        await c.query(mode === "read" ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
        const out = await fn(async (sql, args) => (await c.query(sql, args)).rows as Row[]);
        committing = true;
        await c.query("COMMIT");
        c.release();
        return out;
      } catch (e) {
        const lost = isConnectionError(e);
        if (client) {
          const rolledBack = lost
            ? false
            : await client.query("ROLLBACK").then(
                () => true,
                () => false,
              );
          client.release(rolledBack ? undefined : e instanceof Error ? e : new Error(String(e)));
        }
        if (lost && committing && mode === "write") throw new CommitOutcomeUnknown(e);
        if (attempt < ATTEMPTS && (isRolledBackConflict(e) || (lost && mode === "read"))) {
          await sleep(25 * 2 ** attempt);
          continue;
        }
        if (lost) throw new StoreUnavailableError("not-written", e);
        throw e;
      }
    }
  }

  /** A single-statement read, repeated on connection loss. */
  private async read(sql: string, args: unknown[] = []): Promise<Row[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.pool.query(sql, args)).rows as Row[];
      } catch (e) {
        if (!isConnectionError(e)) throw e;
        if (attempt >= ATTEMPTS) throw new StoreUnavailableError("not-written", e);
        await sleep(25 * 2 ** attempt);
      }
    }
  }

  /** A write whose lost COMMIT cannot be re-checked: surfaced as an unknown outcome. */
  private async write<T>(fn: (q: Q) => Promise<T>): Promise<T> {
    try {
      return await this.tx(fn);
    } catch (e) {
      if (e instanceof CommitOutcomeUnknown) throw new StoreUnavailableError("unknown", e.cause);
      throw e;
    }
  }

  async init(): Promise<void> {
    await this.write(async (q) => {
      // One migrator at a time per schema: workers starting together do not race.
      await q("SELECT pg_advisory_xact_lock(hashtext($1))", [`taskspec-migrate:${this.schema ?? ""}`]);
      if (this.schema) await q(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await q("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())");
      const current = Number((await q("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version"))[0]!.v);
      if (current > PG_MIGRATIONS.length) throw new SchemaVersionError(current, PG_MIGRATIONS.length);
      for (let v = current; v < PG_MIGRATIONS.length; v++) {
        await q(PG_MIGRATIONS[v]!);
        await q("INSERT INTO schema_version (version) VALUES ($1)", [v + 1]);
      }
    });
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  async schemaVersion(): Promise<number> {
    return Number((await this.read("SELECT COALESCE(MAX(version), 0) AS v FROM schema_version"))[0]!.v);
  }

  private async insertEvents(q: Q, run: string, events: EventIn[]): Promise<void> {
    if (!events.length) return;
    await q(
      "INSERT INTO events (run, at, type, unit, attempt, data) SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[])",
      [
        run,
        events.map((e) => e.at),
        events.map((e) => e.type),
        events.map((e) => e.unit ?? null),
        events.map((e) => e.attempt ?? null),
        events.map((e) => (e.data === undefined ? null : json(e.data))),
      ],
    );
  }

  private async runRow(q: Q, run: string, lock = false): Promise<Row> {
    const [row] = await q(`SELECT * FROM runs WHERE run = $1${lock ? " FOR UPDATE" : ""}`, [run]);
    if (!row) throw new NotFoundError(`no run ${run} in this store`);
    return row;
  }

  async createRun(spec: CreateRunSpec): Promise<CheckpointHeader> {
    return this.write(async (q) => {
      await q("INSERT INTO plans (plan_version, plan_json) VALUES ($1, $2) ON CONFLICT DO NOTHING", [spec.planVersion, json(spec.plan)]);
      const inserted = await q(
        `INSERT INTO runs (run, task_id, plan_version, input_version, version, status, caps, budget_used, hold, origin, created_at, updated_at, last_progress_at)
         VALUES ($1, $2, $3, $4, 0, 'active', $5, '{}', NULL, $6, $7, $7, $7) ON CONFLICT DO NOTHING RETURNING run`,
        [spec.run, spec.taskId, spec.planVersion, spec.inputVersion, json(spec.caps), json(spec.origin), spec.now],
      );
      if (!inserted.length) throw new InvalidTransitionError(`run ${spec.run} already exists`);
      await q("INSERT INTO unit_states (run, unit, state, version) SELECT $1, u, 'pending', 0 FROM unnest($2::text[]) AS u", [
        spec.run,
        spec.units,
      ]);
      const header = await this.writeCheckpoint(q, spec.run, 0, null, "", {
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
      await this.insertEvents(q, spec.run, [
        { at: spec.now, type: "run-created", data: { planVersion: spec.planVersion, inputVersion: spec.inputVersion } },
      ]);
      return header;
    });
  }

  private async writeCheckpoint(
    q: Q,
    run: string,
    version: number,
    parent: number | null,
    parentDigest: string,
    h: Omit<CheckpointHeader, "run" | "version" | "parent" | "digest">,
  ): Promise<CheckpointHeader> {
    const body = { run, version, parent, ...h };
    const m = materialOf(body);
    const digest = checkpointDigest(parentDigest, m);
    await q(
      `INSERT INTO checkpoints (run, version, parent, kind, plan_version, input_version, budget_used, approvals, next_action, delta, digest, created_at, committed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
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
      ],
    );
    return { ...body, digest };
  }

  async getRun(run: string): Promise<RunRow | undefined> {
    const [row] = await this.read("SELECT * FROM runs WHERE run = $1", [run]);
    return row ? toRun(row) : undefined;
  }

  async listRuns(): Promise<RunRow[]> {
    return (await this.read("SELECT * FROM runs ORDER BY created_at, run")).map(toRun);
  }

  async getPlan(planVersion: string): Promise<unknown | undefined> {
    const [row] = await this.read("SELECT plan_json FROM plans WHERE plan_version = $1", [planVersion]);
    return row ? parse(row.plan_json) : undefined;
  }

  /** One statement, so one snapshot and one round trip: the rows come back as JSON arrays for the shared mappers. */
  async loadFacts(run: string, since?: number): Promise<RunFacts> {
    const [row] = await this.read(
      `SELECT r.*,
         (SELECT COALESCE(json_agg(u ORDER BY u.unit), '[]') FROM unit_states u WHERE u.run = r.run AND ($2::bigint IS NULL OR u.changed_seq > $2)) AS facts_units,
         (SELECT COALESCE(json_agg(l), '[]') FROM leases l WHERE l.run = r.run) AS facts_leases,
         (SELECT COALESCE(json_agg(e ORDER BY e.prepared_at, e.seq), '[]') FROM effects e
           WHERE e.run = r.run AND (e.state IN ('PREPARED','STARTED','UNKNOWN') OR e.compensation_state IN ('pending','failed'))) AS facts_effects,
         (SELECT COALESCE(json_agg(a), '[]') FROM approvals a WHERE a.run = r.run) AS facts_approvals
       FROM runs r WHERE r.run = $1`,
      [run, since ?? null],
    );
    if (!row) throw new NotFoundError(`no run ${run} in this store`);
    return {
      run: toRun(row),
      units: (row.facts_units as Row[]).map(toUnitState),
      changeSeq: Number(row.change_seq),
      leases: (row.facts_leases as Row[]).map(toLease),
      openEffects: (row.facts_effects as Row[]).map(toEffect),
      approvals: (row.facts_approvals as Row[]).map(toApproval),
    };
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
    let written: CheckpointHeader[] = [];
    try {
      return await this.tx(async (q) => {
        written = [];
        const changed = new Set(commits.flatMap((c) => c.changes.map((ch) => ch.unit)));
        const fenced = [...new Set(commits.flatMap((c) => (c.fence ? [c.fence.unit] : [])))].sort();
        const locked = await q("SELECT * FROM unit_states WHERE run = $1 AND unit = ANY($2::text[]) ORDER BY unit FOR UPDATE", [
          run,
          [...new Set([...changed, ...fenced])].sort(),
        ]);
        const units = new Map(locked.filter((u) => changed.has(String(u.unit))).map((u) => [String(u.unit), toUnitState(u)]));
        const r = toRun(await this.runRow(q, run, true));
        const leases = new Map<string, EndingLease>();
        if (fenced.length)
          for (const l of await q("SELECT * FROM leases WHERE run = $1 AND unit = ANY($2::text[]) ORDER BY unit FOR UPDATE", [run, fenced]))
            leases.set(String(l.unit), endingLease(l));
        const d = decideCommit({ run: r, leases, units }, expectedVersion, commits, new Date().toISOString());
        if (d.kind === "refused") throw d.error;
        const [prev] = await q("SELECT digest FROM checkpoints WHERE run = $1 AND version = $2", [run, r.version]);
        let parentDigest = String(prev!.digest);
        const inserted: number[] = [];
        for (const [i, step] of d.steps.entries()) {
          if (step.plan)
            await q("INSERT INTO plans (plan_version, plan_json) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
              step.plan.planVersion,
              json(step.plan.plan),
            ]);
          for (const w of step.writes) await this.applyWrite(q, run, w, inserted);
          if (i === 0) hooks?.insideTransaction?.();
          if (step.deleteLease)
            await q("DELETE FROM leases WHERE run = $1 AND unit = $2 AND token = $3", [run, step.deleteLease.unit, step.deleteLease.token]);
          const header = await this.writeCheckpoint(
            q,
            run,
            step.version,
            step.version - 1,
            parentDigest,
            resolveHeader(step.header, inserted),
          );
          parentDigest = header.digest;
          written.push(header);
          await this.insertEvents(q, run, step.events);
        }
        // the loop of every unit this commit changes is over: no later attempt resumes from it
        if (changed.size)
          await q("UPDATE loop_iterations SET closed_at = $1 WHERE run = $2 AND unit = ANY($3::text[]) AND closed_at IS NULL", [
            d.run.updatedAt,
            run,
            [...changed],
          ]);
        // and so is its journal of paid calls: a verdict (or a change that re-runs it) ends replay
        if (changed.size)
          await q("UPDATE paid_calls SET closed_at = $1 WHERE run = $2 AND unit = ANY($3::text[]) AND closed_at IS NULL", [
            d.run.updatedAt,
            run,
            [...changed],
          ]);
        const n = d.run;
        await q(
          `UPDATE runs SET version = $1, plan_version = $2, input_version = $3, status = $4, updated_at = $5${n.lastProgressAt ? ", last_progress_at = $5" : ""}${n.budgetUsed ? ", budget_used = $7" : ""} WHERE run = $6`,
          [n.version, n.planVersion, n.inputVersion, n.status, n.updatedAt, run, ...(n.budgetUsed ? [json(n.budgetUsed)] : [])],
        );
        return written;
      });
    } catch (e) {
      if (!(e instanceof CommitOutcomeUnknown)) throw e;
      return this.recheckCommit(run, written, e.cause);
    }
  }

  /** The connection dropped during COMMIT: our last checkpoint is there with our digest, or it was not written. */
  private async recheckCommit(run: string, headers: CheckpointHeader[], cause: unknown): Promise<CheckpointHeader[]> {
    const last = headers[headers.length - 1]!;
    let rows: Row[];
    try {
      rows = await this.read("SELECT digest FROM checkpoints WHERE run = $1 AND version = $2", [run, last.version]);
    } catch {
      throw new StoreUnavailableError("unknown", cause);
    }
    if (rows[0] && String(rows[0].digest) === last.digest) return headers;
    throw new StoreUnavailableError("not-written", cause);
  }

  private async checkFence(q: Q, run: string, unit: string, token: number, lock = "FOR UPDATE"): Promise<void> {
    const [lease] = await q(`SELECT token, owner FROM leases WHERE run = $1 AND unit = $2 ${lock}`, [run, unit]);
    const stale = fenceRefusal(run, { unit, token }, lease ? { token: Number(lease.token), owner: String(lease.owner) } : undefined);
    if (stale) throw stale.error;
  }

  /** Executes one write of a commit decision (store/unit-transition.ts); a new record's id is appended to `inserted`. */
  private async applyWrite(q: Q, run: string, w: UnitWrite, inserted: number[]): Promise<void> {
    const ref = (x: RecordRef | null) => (x === null ? null : resolveRecord(x, inserted));
    switch (w.op) {
      case "insert-record": {
        const [rec] = await q(
          `INSERT INTO unit_records (run, unit, attempt, plan_version, status, result, sources, committed_version, created_at)
           VALUES ($1, $2, $3, $4, 'current', $5, $6, $7, $8) RETURNING id`,
          [run, w.unit, w.attempt, w.planVersion, json(w.result), json(w.sources), w.version, w.now],
        );
        inserted.push(Number(rec!.id));
        return;
      }
      case "mark-record":
        await q("UPDATE unit_records SET status = $1, superseded_reason = $2 WHERE id = $3", [w.status, w.reason, ref(w.record)]);
        return;
      case "insert-artifacts":
        for (const a of w.artifacts)
          // upsert: a file a committed loop iteration recorded as `rejected` becomes the unit's output
          await q(
            `INSERT INTO artifacts (${ARTIFACT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ${ARTIFACT_UPSERT}`,
            artifactArgs(run, a, w.status, ref(w.record)),
          );
        return;
      case "set-unit":
        await q(
          "UPDATE unit_states SET state = $1, current_record = $2, superseded_record = $3, superseded = $4, hold = NULL, not_before = NULL, last_error = $5, failures = $6, version = $7 WHERE run = $8 AND unit = $9",
          [
            w.state,
            ref(w.currentRecord),
            ref(w.supersededRecord),
            w.superseded ? json(w.superseded) : null,
            w.lastError ? json(w.lastError) : null,
            w.failures,
            w.version,
            run,
            w.unit,
          ],
        );
        return;
      case "insert-unit":
        await q("INSERT INTO unit_states (run, unit, state, version) VALUES ($1, $2, 'pending', $3)", [run, w.unit, w.version]);
        return;
      case "delete-unit":
        await q("DELETE FROM unit_states WHERE run = $1 AND unit = $2", [run, w.unit]);
        return;
    }
  }

  async listCheckpoints(run: string): Promise<CheckpointHeader[]> {
    return (await this.read("SELECT * FROM checkpoints WHERE run = $1 ORDER BY version", [run])).map(toCheckpoint);
  }

  async listChainLinks(run: string): Promise<ChainLink[]> {
    const rows = await this.read("SELECT * FROM checkpoints WHERE run = $1 ORDER BY version", [run]);
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

  async latestCheckpoint(run: string): Promise<CheckpointHeader> {
    const [row] = await this.read("SELECT c.* FROM checkpoints c JOIN runs r ON r.run = c.run AND r.version = c.version WHERE c.run = $1", [
      run,
    ]);
    if (!row) throw new NotFoundError(`no run ${run} in this store`);
    return toCheckpoint(row);
  }

  /** Every PostgreSQL commit is durable when it returns (synchronous_commit on): nothing to wait for. */
  async sync(): Promise<void> {}

  async claimUnit(
    run: string,
    unit: string,
    owner: string,
    ttlMs: number,
    now: string,
    expectedVersion?: number,
    options: { recovery?: boolean; planVersion?: string; reserve?: BudgetAmounts } = {},
  ): Promise<Claim> {
    const books = !options.recovery && Object.keys(options.reserve ?? {}).length > 0;
    return this.write(async (q) => {
      const [u] = await q(
        "SELECT u.*, r.version AS run_version, r.status AS run_status, r.plan_version AS run_plan_version, r.hold AS run_hold FROM unit_states u JOIN runs r ON r.run = u.run WHERE u.run = $1 AND u.unit = $2 FOR UPDATE OF u SKIP LOCKED",
        [run, unit],
      );
      // A claim that books a cost locks the run row (after the unit row, the order commits take), so
      // two workers claiming different units read each other's booking, never the same used amount.
      let r: ClaimState["run"] =
        u && !books
          ? {
              run,
              version: Number(u.run_version),
              status: String(u.run_status) as RunStatus,
              planVersion: String(u.run_plan_version),
              ...(u.run_hold ? { hold: parse<Hold>(u.run_hold) } : {}),
            }
          : toRun(await this.runRow(q, run, books));
      const [held] = u ? await q("SELECT * FROM leases WHERE run = $1 AND unit = $2", [run, unit]) : [];
      const heldLease = held ? toLease(held) : undefined;
      // an expired lease taken over has its booking settled: the used budgets are read and written
      if (!books && heldLease && heldLease.expiresAt <= now && holdsBooking(heldLease)) r = toRun(await this.runRow(q, run, true));
      const state = { run: r, unit: u ? toUnitState(u) : undefined, held: heldLease };
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
      if (d.kind === "refused") {
        if (d.reason === "no-unit" && (await q("SELECT 1 FROM unit_states WHERE run = $1 AND unit = $2", [run, unit])).length)
          // Another worker is claiming or committing this unit right now.
          throw new LeaseHeldError(run, unit, "another worker (claim in progress)", now);
        throw d.error;
      }
      const [next] = await q(
        "UPDATE unit_states SET attempts = $3 WHERE run = $1 AND unit = $2 RETURNING nextval('fencing_tokens') AS token",
        [run, unit, d.attempt],
      );
      const token = Number(next!.token);
      if (d.budgetUsed) await q("UPDATE runs SET budget_used = $1, updated_at = $2 WHERE run = $3", [json(d.budgetUsed), now, run]);
      const reserved = Object.keys(d.reserved).length ? d.reserved : undefined;
      await q(
        `INSERT INTO leases (run, unit, owner, token, attempt, expires_at, renewed_at, reserved) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (run, unit) DO UPDATE SET owner = EXCLUDED.owner, token = EXCLUDED.token, attempt = EXCLUDED.attempt, expires_at = EXCLUDED.expires_at, renewed_at = EXCLUDED.renewed_at, reserved = EXCLUDED.reserved`,
        [run, unit, owner, token, d.attempt, d.expiresAt, now, reserved ? json(reserved) : null],
      );
      await this.insertEvents(q, run, claimEvents(state, req, d, token));
      return { token, attempt: d.attempt, lease: claimedLease(req, d, token, run), reserved: d.reserved };
    });
  }

  async claimUnits(
    run: string,
    requests: ClaimRequestOf[],
    owner: string,
    ttlMs: number,
    now: string,
    expectedVersion?: number,
  ): Promise<ClaimRound> {
    // A transaction per claim: each takes its unit row with SKIP LOCKED and, when it books a cost,
    // the run row; one transaction for the round would hold the first units' rows while taking the
    // run row for a later one. What the round saves on SQLite (WAL pages written once) is not
    // what a claim costs here (a round trip per statement).
    const claims: Claim[] = [];
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

  async renewLease(run: string, unit: string, token: number, ttlMs: number, now: string): Promise<Lease> {
    const expiresAt = new Date(Date.parse(now) + ttlMs).toISOString();
    return this.write(async (q) => {
      const [row] = await q("UPDATE leases SET expires_at = $1, renewed_at = $2 WHERE run = $3 AND unit = $4 AND token = $5 RETURNING *", [
        expiresAt,
        now,
        run,
        unit,
        token,
      ]);
      if (!row) await this.checkFence(q, run, unit, token, "");
      return toLease(row!);
    });
  }

  async releaseLease(run: string, unit: string, token: number, event?: EventIn): Promise<void> {
    await this.write(async (q) => {
      // the unit row, the lease, then the run row (when a booking is settled): the order every lease's end takes
      await this.failuresOf(q, run, unit);
      const lease = await this.leaseOf(q, run, unit);
      const d = decideReleaseLease(
        { lease, ...(holdsBooking(lease) ? { run: toRun(await this.runRow(q, run, true)) } : {}) },
        { unit, token, at: event?.at ?? new Date().toISOString() },
      );
      await this.applyAttemptWrites(q, run, d.writes);
      if (d.events && event) await this.insertEvents(q, run, [event]);
      if (d.settled) await this.insertEvents(q, run, [d.settled]);
    });
  }

  async breakLease(run: string, unit: string, token: number, event: EventIn, ended?: Parameters<Store["breakLease"]>[4]): Promise<void> {
    await this.write(async (q) => {
      // the unit row first, then the lease, as endAttempt locks them: a breaker and the attempt's own end queue in one order
      const u = await this.failuresOf(q, run, unit);
      const lease = await this.leaseOf(q, run, unit);
      const d = decideBreakLease(
        { lease, unit: u, ...(holdsBooking(lease) ? { run: toRun(await this.runRow(q, run, true)) } : {}) },
        { unit, token, at: event.at, ...(ended ? { ended } : {}) },
      );
      await this.applyAttemptWrites(q, run, d.writes);
      if (d.events) await this.insertEvents(q, run, [event]);
      if (d.settled) await this.insertEvents(q, run, [d.settled]);
    });
  }

  /** The lease on a unit, locked, as an attempt's end reads it (its booking included). */
  private async leaseOf(q: Q, run: string, unit: string): Promise<EndingLease | undefined> {
    const [row] = await q("SELECT * FROM leases WHERE run = $1 AND unit = $2 FOR UPDATE", [run, unit]);
    return row ? endingLease(row) : undefined;
  }

  async endAttempt(
    run: string,
    unit: string,
    token: number,
    outcome: Parameters<Store["endAttempt"]>[3],
    events: EventIn[],
  ): Promise<void> {
    await this.write(async (q) => {
      const u = await this.failuresOf(q, run, unit);
      const lease = await this.leaseOf(q, run, unit);
      // shared: a plan change (which locks the run row for update) is ordered before or after this end, never beside it;
      // for update when the lease's booking is settled (the used budgets are written)
      const [r] = await q(`SELECT * FROM runs WHERE run = $1 FOR ${holdsBooking(lease) ? "UPDATE" : "SHARE"}`, [run]);
      const d = decideEndAttempt(
        { run: r ? toRun(r) : { run, planVersion: "undefined" }, lease, unit: u },
        { unit, token, outcome, at: events[0]?.at ?? new Date().toISOString() },
      );
      if (d.kind === "refused") throw d.error;
      await this.applyAttemptWrites(q, run, d.writes);
      if (d.events) await this.insertEvents(q, run, events);
      if (d.settled) await this.insertEvents(q, run, [d.settled]);
    });
  }

  /** The unit row's failure count, locked for this transaction (undefined: no such unit). */
  private async failuresOf(q: Q, run: string, unit: string): Promise<{ failures: number } | undefined> {
    const [u] = await q("SELECT failures FROM unit_states WHERE run = $1 AND unit = $2 FOR UPDATE", [run, unit]);
    return u ? { failures: Number(u.failures) } : undefined;
  }

  /** Executes the writes of an ended attempt's decision (store/unit-transition.ts). */
  private async applyAttemptWrites(q: Q, run: string, writes: readonly AttemptWrite[]): Promise<void> {
    for (const w of writes)
      switch (w.op) {
        case "set-failures": {
          const args: unknown[] = [run, w.unit, w.failures, w.lastError ? json(w.lastError) : null];
          if (w.notBefore !== undefined) args.push(w.notBefore);
          await q(
            `UPDATE unit_states SET failures = $3, last_error = COALESCE($4, last_error)${w.notBefore !== undefined ? ", not_before = $5" : ""} WHERE run = $1 AND unit = $2`,
            args,
          );
          break;
        }
        case "insert-artifacts":
          await this.applyWrite(q, run, w, []);
          break;
        case "close-iterations":
          await q("UPDATE loop_iterations SET closed_at = $1 WHERE run = $2 AND unit = $3 AND closed_at IS NULL", [w.at, run, w.unit]);
          break;
        case "close-journal":
          await q("UPDATE paid_calls SET closed_at = $1 WHERE run = $2 AND unit = $3 AND closed_at IS NULL", [w.at, run, w.unit]);
          break;
        case "delete-lease":
          await q("DELETE FROM leases WHERE run = $1 AND unit = $2 AND token = $3", [run, w.unit, w.token]);
          break;
        case "set-budget-used":
          await q("UPDATE runs SET budget_used = $1 WHERE run = $2", [json(w.used), run]);
          break;
      }
  }

  async commitIteration(it: Omit<LoopIteration, "closedAt">, fence: { unit: string; token: number }, event: EventIn): Promise<void> {
    await this.write(async (q) => {
      await this.checkFence(q, it.run, fence.unit, fence.token);
      const inserted = await q(
        `INSERT INTO loop_iterations (${ITERATION_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING iteration`,
        iterationArgs(it),
      );
      if (!inserted.length)
        throw new InvalidTransitionError(`iteration ${it.iteration} of ${it.unit}'s loop is already committed in run ${it.run}`);
      for (const a of it.artifacts)
        await q(
          `INSERT INTO artifacts (${ARTIFACT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) ${ARTIFACT_UPSERT}`,
          artifactArgs(it.run, a, "rejected", null),
        );
      await this.insertEvents(q, it.run, [event]);
    });
  }

  async journalPaidCall(call: Omit<PaidCall, "closedAt">, fence: { unit: string; token: number }): Promise<void> {
    await this.write(async (q) => {
      // FOR SHARE: a takeover cannot replace the lease until this call is recorded under it
      await this.checkFence(q, call.run, fence.unit, fence.token, "FOR SHARE");
      await q(
        `INSERT INTO paid_calls (${PAID_CALL_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        paidCallArgs(call),
      );
    });
  }

  async answerPaidCall(
    key: { run: string; unit: string; attempt: number; seq: number },
    answer: { state: "answered" | "failed"; reply?: unknown; replayable?: boolean; answeredAt: string },
  ): Promise<void> {
    const { sql, args } = paidCallAnswer(key, answer, (n) => `$${n}`);
    await this.write(async (q) => void (await q(sql, args)));
  }

  async listPaidCalls(run: string, filter: { unit?: string; open?: boolean } = {}): Promise<PaidCall[]> {
    const { where, args } = paidCallFilter(run, filter, (n) => `$${n}`);
    return (await this.read(`SELECT * FROM paid_calls WHERE ${where} ORDER BY unit, attempt, seq`, args)).map(toPaidCall);
  }

  async listIterations(run: string, filter: { unit?: string; loop?: string; open?: boolean } = {}): Promise<LoopIteration[]> {
    const { where, args } = iterationFilter(run, filter, (n) => `$${n}`);
    return (await this.read(`SELECT * FROM loop_iterations WHERE ${where} ORDER BY unit, loop, iteration, committed_at`, args)).map(
      toIteration,
    );
  }

  async chargeBudget(
    run: string,
    delta: BudgetAmounts,
    event: EventIn,
    mode: "check" | "record" = "check",
    booking?: { unit: string; token: number },
  ): Promise<ChargeOutcome> {
    return this.write(async (q) => {
      // drawing on a booking: the unit row, the run row, then the lease, the order a commit takes
      if (booking) await this.failuresOf(q, run, booking.unit);
      const r = await this.runRow(q, run, true);
      const lease = booking ? await this.leaseOf(q, run, booking.unit) : undefined;
      const held = lease && lease.token === booking?.token ? lease.reserved : undefined;
      const { outcome, draw } = bookedChargeOutcome(parse<BudgetAmounts>(r.budget_used), parse<BudgetAmounts>(r.caps), delta, mode, held);
      if (!outcome.ok) return outcome;
      await q("UPDATE runs SET budget_used = $1, updated_at = $2 WHERE run = $3", [json(outcome.used), event.at, run]);
      if (Object.keys(draw.drawn).length) {
        await q("UPDATE leases SET reserved = $1 WHERE run = $2 AND unit = $3 AND token = $4", [
          Object.keys(draw.left).length ? json(draw.left) : null,
          run,
          booking!.unit,
          booking!.token,
        ]);
        await this.insertEvents(q, run, [{ ...event, data: { ...event.data, reserved: draw.drawn } }]);
      } else await this.insertEvents(q, run, [event]);
      return outcome;
    });
  }

  async setCaps(run: string, caps: BudgetAmounts, event: EventIn): Promise<void> {
    await this.write(async (q) => {
      const r = await this.runRow(q, run, true);
      await q("UPDATE runs SET caps = $1, updated_at = $2 WHERE run = $3", [
        json({ ...parse<BudgetAmounts>(r.caps), ...caps }),
        event.at,
        run,
      ]);
      await this.insertEvents(q, run, [event]);
    });
  }

  /** One UPDATE of the run row plus an event; NotFoundError for an unknown run. */
  private async updateRun(run: string, set: string, value: unknown, event: EventIn): Promise<void> {
    await this.write(async (q) => {
      const done = await q(`UPDATE runs SET ${set} = $1, updated_at = $2 WHERE run = $3 RETURNING run`, [value, event.at, run]);
      if (!done.length) throw new NotFoundError(`no run ${run} in this store`);
      await this.insertEvents(q, run, [event]);
    });
  }

  async setRunHold(run: string, hold: Hold | null, event: EventIn): Promise<void> {
    await this.updateRun(run, "hold", hold ? json(hold) : null, event);
  }

  async setRunStatus(run: string, status: RunStatus, event: EventIn): Promise<void> {
    await this.updateRun(run, "status", status, event);
  }

  async setRunOrigin(run: string, origin: Partial<RunRow["origin"]>, event: EventIn): Promise<void> {
    await this.write(async (q) => {
      const r = await this.runRow(q, run, true);
      await q("UPDATE runs SET origin = $1, updated_at = $2 WHERE run = $3", [
        json({ ...parse<RunRow["origin"]>(r.origin), ...origin }),
        event.at,
        run,
      ]);
      await this.insertEvents(q, run, [event]);
    });
  }

  async setUnitHold(run: string, unit: string, hold: Hold | null, event: EventIn): Promise<void> {
    await this.write(async (q) => {
      await q("UPDATE unit_states SET hold = $1 WHERE run = $2 AND unit = $3", [hold ? json(hold) : null, run, unit]);
      await this.insertEvents(q, run, [event]);
    });
  }

  /** One INSERT is atomic on its own: no BEGIN/COMMIT round trips. */
  async appendEvents(run: string, events: EventIn[]): Promise<void> {
    try {
      await this.insertEvents(async (sql, args) => (await this.pool.query(sql, args)).rows as Row[], run, events);
    } catch (e) {
      if (isConnectionError(e)) throw new StoreUnavailableError("unknown", e);
      throw e;
    }
  }

  async listEvents(run: string, options: { afterSeq?: number; type?: string } = {}): Promise<RunEvent[]> {
    const rows = await this.read(`SELECT * FROM events WHERE run = $1 AND seq > $2${options.type ? " AND type = $3" : ""} ORDER BY seq`, [
      run,
      options.afterSeq ?? 0,
      ...(options.type ? [options.type] : []),
    ]);
    return rows.map(toEvent);
  }

  /** `SELECT * FROM <table> WHERE run = $1 [AND col = $n ...] ORDER BY <order>` for the filters that are set. */
  private async filtered(table: string, run: string, filters: Array<[string, unknown]>, order: string): Promise<Row[]> {
    const set = filters.filter(([, v]) => v !== undefined);
    const where = [
      "run = $1",
      ...set.map(([col], i) => (col.endsWith("[]") ? `${col.slice(0, -2)} = ANY($${i + 2}::text[])` : `${col} = $${i + 2}`)),
    ];
    return this.read(`SELECT * FROM ${table} WHERE ${where.join(" AND ")} ORDER BY ${order}`, [run, ...set.map(([, v]) => v)]);
  }

  async getRecords(run: string, filter: { unit?: string; status?: UnitRecord["status"] } = {}): Promise<UnitRecord[]> {
    return (
      await this.filtered(
        "unit_records",
        run,
        [
          ["unit", filter.unit || undefined],
          ["status", filter.status || undefined],
        ],
        "id",
      )
    ).map(toRecord);
  }

  async listArtifacts(
    run: string,
    filter: { unit?: string; status?: ArtifactManifest["status"]; recordId?: number } = {},
  ): Promise<ArtifactManifest[]> {
    return (
      await this.filtered(
        "artifacts",
        run,
        [
          ["unit", filter.unit || undefined],
          ["status", filter.status || undefined],
          ["record_id", filter.recordId],
        ],
        "path",
      )
    ).map(toArtifact);
  }

  async markArtifactCorrupt(run: string, path: string, event: EventIn): Promise<void> {
    await this.write(async (q) => {
      await q("UPDATE artifacts SET status = 'corrupt' WHERE run = $1 AND path = $2", [run, path]);
      await this.insertEvents(q, run, [event]);
    });
  }

  async prepareEffect(
    effect: Omit<EffectRecord, "state" | "commitSeq">,
    fence: { unit: string; token: number; planVersion?: string },
  ): Promise<EffectRecord> {
    return this.write(async (q) => {
      // FOR SHARE: a takeover cannot replace the lease until this effect is recorded under it.
      await this.checkFence(q, effect.run, fence.unit, fence.token, "FOR SHARE");
      if (fence.planVersion !== undefined) {
        // shared too: a plan change (which locks the run row for update) is ordered before or after this effect
        const [r] = await q("SELECT plan_version FROM runs WHERE run = $1 FOR SHARE", [effect.run]);
        const changed = planRefusal(effect.run, fence.planVersion, String(r?.plan_version));
        if (changed) throw changed.error;
      }
      if (effect.key !== undefined) {
        // two workers recording the same key at once: the second waits for the first's commit, then sees it
        await q("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [
          JSON.stringify(["effect-key", effect.run, effect.tool, effect.key]),
        ]);
        const known = (
          await q("SELECT * FROM effects WHERE run = $1 AND tool = $2 AND key = $3", [effect.run, effect.tool, effect.key])
        ).map(toEffect);
        const prior = keyConflict(effect, known);
        if (prior) throw new EffectKeyConflictError(effect.id, prior);
      }
      const [row] = await q(
        `INSERT INTO effects (id, run, unit, attempt, seq, tool, tool_class, intent, args_digest, request_hash, request, iteration, key, state, token, prepared_at, held)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'PREPARED', $14, $15, $16) RETURNING *`,
        [
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
        ],
      );
      await this.insertEvents(q, effect.run, [
        {
          at: effect.preparedAt,
          type: "effect-prepared",
          unit: effect.unit,
          attempt: effect.attempt,
          data: { effect: effect.id, tool: effect.tool, class: effect.toolClass, key: effect.key, ...(effect.held ? { held: true } : {}) },
        },
      ]);
      return toEffect(row!);
    });
  }

  async updateEffect(
    id: string,
    from: EffectState[],
    patch: Partial<Omit<EffectRecord, "id" | "run" | "commitSeq">>,
    event?: EventIn,
  ): Promise<EffectRecord> {
    return this.write(async (q) => {
      const [row] = await q("SELECT * FROM effects WHERE id = $1 FOR UPDATE", [id]);
      if (!row) throw new NotFoundError(`no effect ${id}`);
      if (!from.includes(row.state as EffectState))
        throw new InvalidTransitionError(`effect ${id} is ${String(row.state)}, expected ${from.join("|")}`);
      const cols: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(patch)) {
        const col = EFFECT_PATCH_COLUMNS[k];
        if (col) cols[col] = effectPatchValue(k, v);
      }
      if (patch.state === "COMMITTED" && row.state !== "COMMITTED") {
        const [r] = await q("UPDATE runs SET effect_commit_seq = effect_commit_seq + 1 WHERE run = $1 RETURNING effect_commit_seq", [
          row.run,
        ]);
        cols.commit_seq = r!.effect_commit_seq;
      }
      const keys = Object.keys(cols);
      const [out] = keys.length
        ? await q(`UPDATE effects SET ${keys.map((k, i) => `${k} = $${i + 1}`).join(", ")} WHERE id = $${keys.length + 1} RETURNING *`, [
            ...keys.map((k) => cols[k]),
            id,
          ])
        : [row];
      if (event) await this.insertEvents(q, String(row.run), [event]);
      return toEffect(out!);
    });
  }

  async listEffects(
    run: string,
    filter: { unit?: string; tool?: string; key?: string; states?: EffectState[] } = {},
  ): Promise<EffectRecord[]> {
    return (
      await this.filtered(
        "effects",
        run,
        [
          ["unit", filter.unit || undefined],
          ["tool", filter.tool || undefined],
          ["key", filter.key || undefined],
          ["state[]", filter.states?.length ? filter.states : undefined],
        ],
        "prepared_at, attempt, seq",
      )
    ).map(toEffect);
  }

  async grantApproval(a: Approval, event: EventIn): Promise<void> {
    await this.write(async (q) => {
      await q(
        `INSERT INTO approvals (id, run, unit, plan_version, artifact_hashes, scope, expires_at, granted_by, granted_at, revoked_at, binding) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, $10)`,
        [
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
        ],
      );
      await this.insertEvents(q, a.run, [event]);
    });
  }

  async revokeApproval(id: string, now: string, event: EventIn): Promise<void> {
    await this.write(async (q) => {
      const [row] = await q("UPDATE approvals SET revoked_at = $1 WHERE id = $2 RETURNING run", [now, id]);
      if (!row) throw new NotFoundError(`no approval ${id}`);
      await this.insertEvents(q, String(row.run), [event]);
    });
  }

  async listApprovals(run: string): Promise<Approval[]> {
    return (await this.read("SELECT * FROM approvals WHERE run = $1 ORDER BY granted_at", [run])).map(toApproval);
  }

  async issueResumeToken(tokenHash: string, row: { run: string; unit: string; expiresAt: string; createdAt: string }): Promise<void> {
    await this.write(async (q) => {
      await q("INSERT INTO resume_tokens (token_hash, run, unit, expires_at, used_at, created_at) VALUES ($1, $2, $3, $4, NULL, $5)", [
        tokenHash,
        row.run,
        row.unit,
        row.expiresAt,
        row.createdAt,
      ]);
      await this.insertEvents(q, row.run, [
        { at: row.createdAt, type: "resume-token-issued", unit: row.unit, data: { expiresAt: row.expiresAt } },
      ]);
    });
  }

  async consumeResumeToken(tokenHash: string, now: string, gate: { run: string; unit: string }): Promise<{ run: string; unit: string }> {
    return this.write(async (q) => {
      const [row] = await q("SELECT * FROM resume_tokens WHERE token_hash = $1 FOR UPDATE", [tokenHash]);
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
      await q("UPDATE resume_tokens SET used_at = $1 WHERE token_hash = $2", [now, tokenHash]);
      await this.insertEvents(q, String(row.run), [{ at: now, type: "resume-token-used", unit: String(row.unit) }]);
      return { run: String(row.run), unit: String(row.unit) };
    });
  }

  async addOperator(row: { name: string; keyHash: string; createdAt: string }): Promise<void> {
    await this.write(async (q) => {
      const [taken] = await q("SELECT name FROM operators WHERE name = $1 OR key_hash = $2 FOR UPDATE", [row.name, row.keyHash]);
      if (taken) throw new InvalidTransitionError(`the store already has an operator ${String(taken.name)}`);
      await q("INSERT INTO operators (name, key_hash, created_at) VALUES ($1, $2, $3)", [row.name, row.keyHash, row.createdAt]);
    });
  }

  async findOperator(keyHash: string): Promise<{ name: string; createdAt: string } | undefined> {
    const [row] = await this.read("SELECT name, created_at FROM operators WHERE key_hash = $1", [keyHash]);
    return row ? { name: String(row.name), createdAt: String(row.created_at) } : undefined;
  }

  async countOperators(): Promise<number> {
    return Number((await this.read("SELECT COUNT(*) AS n FROM operators"))[0]!.n);
  }

  async pendingResumeTokens(run: string, now: string): Promise<Array<{ unit: string; expiresAt: string }>> {
    return (
      await this.read(
        "SELECT unit, expires_at FROM resume_tokens WHERE run = $1 AND used_at IS NULL AND expires_at > $2 ORDER BY created_at",
        [run, now],
      )
    ).map((r) => ({
      unit: String(r.unit),
      expiresAt: String(r.expires_at),
    }));
  }
}
