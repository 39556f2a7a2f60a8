/**
 * The Store's plain reads, written once: their SQL (`?` placeholders; the
 * PostgreSQL store numbers them), one WHERE clause built from the filters
 * that are set, and the methods over the one thing a backend gives, the rows
 * a query returns (SQLite from its cached statements, PostgreSQL from its
 * pool, repeated on connection loss). The reads that lock rows, and
 * loadFacts (each backend's fastest form), stay in the backends.
 */
import { NotFoundError } from "../errors.js";
import type {
  Approval,
  ArtifactManifest,
  CheckpointHeader,
  EffectRecord,
  EffectState,
  LoopIteration,
  PaidCall,
  RunEvent,
  RunRow,
  UnitRecord,
} from "../model/facts.js";
import type { ActiveRun } from "./types.js";
import {
  iterationFilter,
  paidCallFilter,
  parse,
  toApproval,
  toArtifact,
  toCheckpoint,
  toEffect,
  toEvent,
  toIteration,
  toPaidCall,
  toRecord,
  toRun,
  type Row,
} from "./rows.js";

export interface Query {
  sql: string;
  args: unknown[];
}

/** `SELECT * FROM <table> WHERE run = ? [AND col = ? | col IN (...)] ORDER BY <order>` for the filters that are set. */
function listQuery(table: string, run: string, filters: Readonly<Record<string, unknown>>, order: string): Query {
  const where = ["run = ?"];
  const args: unknown[] = [run];
  for (const [col, value] of Object.entries(filters)) {
    if (value === undefined || value === "") continue;
    if (Array.isArray(value)) {
      if (!value.length) continue;
      where.push(`${col} IN (${value.map(() => "?").join(", ")})`);
      args.push(...(value as unknown[]));
    } else {
      where.push(`${col} = ?`);
      args.push(value);
    }
  }
  return { sql: `SELECT * FROM ${table} WHERE ${where.join(" AND ")} ORDER BY ${order}`, args };
}

export const LIST_READS = {
  records: (run: string, f: { unit?: string; status?: UnitRecord["status"] } = {}): Query =>
    listQuery("unit_records", run, { unit: f.unit, status: f.status }, "id"),
  artifacts: (run: string, f: { unit?: string; status?: ArtifactManifest["status"]; recordId?: number } = {}): Query =>
    listQuery("artifacts", run, { unit: f.unit, status: f.status, record_id: f.recordId }, "path"),
  effects: (run: string, f: { unit?: string; tool?: string; key?: string; states?: EffectState[] } = {}): Query =>
    listQuery("effects", run, { unit: f.unit, tool: f.tool, key: f.key, state: f.states }, "prepared_at, attempt, seq"),
  events: (run: string, o: { afterSeq?: number; type?: string } = {}): Query => ({
    sql: `SELECT * FROM events WHERE run = ? AND seq > ?${o.type ? " AND type = ?" : ""} ORDER BY seq`,
    args: [run, o.afterSeq ?? 0, ...(o.type ? [o.type] : [])],
  }),
  // the newest `limit` before `beforeSeq`, read newest first from the (run, seq) index, handed back oldest first
  eventsWindow: (run: string, w: { beforeSeq?: number; limit: number }): Query => ({
    sql: `SELECT * FROM (SELECT * FROM events WHERE run = ?${w.beforeSeq !== undefined ? " AND seq < ?" : ""} ORDER BY seq DESC LIMIT ?) AS w ORDER BY seq`,
    args: [run, ...(w.beforeSeq !== undefined ? [w.beforeSeq] : []), w.limit],
  }),
  eventCount: (run: string): Query => ({ sql: "SELECT COUNT(*) AS n FROM events WHERE run = ?", args: [run] }),
  paidCalls: (run: string, f: { unit?: string; open?: boolean } = {}): Query => {
    const { where, args } = paidCallFilter(run, f, () => "?");
    return { sql: `SELECT * FROM paid_calls WHERE ${where} ORDER BY unit, attempt, seq`, args };
  },
  iterations: (run: string, f: { unit?: string; loop?: string; open?: boolean } = {}): Query => {
    const { where, args } = iterationFilter(run, f, () => "?");
    return { sql: `SELECT * FROM loop_iterations WHERE ${where} ORDER BY unit, loop, iteration, committed_at`, args };
  },
  approvals: (run: string): Query => ({ sql: "SELECT * FROM approvals WHERE run = ? ORDER BY granted_at", args: [run] }),
  checkpoints: (run: string): Query => ({ sql: "SELECT * FROM checkpoints WHERE run = ? ORDER BY version", args: [run] }),
  latestCheckpoint: (run: string): Query => ({
    sql: "SELECT c.* FROM checkpoints c JOIN runs r ON r.run = c.run AND r.version = c.version WHERE c.run = ?",
    args: [run],
  }),
  pendingResumeTokens: (run: string, now: string): Query => ({
    sql: "SELECT unit, expires_at FROM resume_tokens WHERE run = ? AND used_at IS NULL AND expires_at > ? ORDER BY created_at",
    args: [run, now],
  }),
  operator: (keyHash: string): Query => ({ sql: "SELECT name, created_at FROM operators WHERE key_hash = ?", args: [keyHash] }),
  operatorCount: (): Query => ({ sql: "SELECT COUNT(*) AS n FROM operators", args: [] }),
  run: (run: string): Query => ({ sql: "SELECT * FROM runs WHERE run = ?", args: [run] }),
  runs: (): Query => ({ sql: "SELECT * FROM runs ORDER BY created_at, run", args: [] }),
  // the latest event of each from the (run, seq) index: one lookup per active run
  activeRuns: (): Query => ({
    sql: "SELECT r.*, (SELECT MAX(e.seq) FROM events e WHERE e.run = r.run) AS last_event_seq FROM runs r WHERE r.status = 'active' ORDER BY r.created_at, r.run",
    args: [],
  }),
  plan: (planVersion: string): Query => ({ sql: "SELECT plan_json FROM plans WHERE plan_version = ?", args: [planVersion] }),
} as const;

export abstract class SqlReads {
  /** The rows of one read, outside any transaction. */
  protected abstract rows(q: Query): Promise<Row[]>;

  async getRun(run: string): Promise<RunRow | undefined> {
    const [row] = await this.rows(LIST_READS.run(run));
    return row ? toRun(row) : undefined;
  }

  async listRuns(): Promise<RunRow[]> {
    return (await this.rows(LIST_READS.runs())).map(toRun);
  }

  async activeRuns(): Promise<ActiveRun[]> {
    return (await this.rows(LIST_READS.activeRuns())).map((row) => ({
      ...toRun(row),
      changeSeq: Number(row.change_seq),
      lastEventSeq: Number(row.last_event_seq ?? 0),
    }));
  }

  async getPlan(planVersion: string): Promise<unknown | undefined> {
    const [row] = await this.rows(LIST_READS.plan(planVersion));
    return row ? parse(row.plan_json) : undefined;
  }

  async listCheckpoints(run: string): Promise<CheckpointHeader[]> {
    return (await this.rows(LIST_READS.checkpoints(run))).map(toCheckpoint);
  }

  async latestCheckpoint(run: string): Promise<CheckpointHeader> {
    const [row] = await this.rows(LIST_READS.latestCheckpoint(run));
    if (!row) throw new NotFoundError(`no run ${run} in this store`);
    return toCheckpoint(row);
  }

  async listEvents(run: string, options: { afterSeq?: number; type?: string } = {}): Promise<RunEvent[]> {
    return (await this.rows(LIST_READS.events(run, options))).map(toEvent);
  }

  async eventsWindow(run: string, window: { beforeSeq?: number; limit: number }): Promise<{ events: RunEvent[]; total: number }> {
    const [events, [count]] = await Promise.all([this.rows(LIST_READS.eventsWindow(run, window)), this.rows(LIST_READS.eventCount(run))]);
    return { events: events.map(toEvent), total: Number(count?.n ?? 0) };
  }

  async getRecords(run: string, filter: { unit?: string; status?: UnitRecord["status"] } = {}): Promise<UnitRecord[]> {
    return (await this.rows(LIST_READS.records(run, filter))).map(toRecord);
  }

  async listArtifacts(
    run: string,
    filter: { unit?: string; status?: ArtifactManifest["status"]; recordId?: number } = {},
  ): Promise<ArtifactManifest[]> {
    return (await this.rows(LIST_READS.artifacts(run, filter))).map(toArtifact);
  }

  async listEffects(
    run: string,
    filter: { unit?: string; tool?: string; key?: string; states?: EffectState[] } = {},
  ): Promise<EffectRecord[]> {
    return (await this.rows(LIST_READS.effects(run, filter))).map(toEffect);
  }

  async listApprovals(run: string): Promise<Approval[]> {
    return (await this.rows(LIST_READS.approvals(run))).map(toApproval);
  }

  async listPaidCalls(run: string, filter: { unit?: string; open?: boolean } = {}): Promise<PaidCall[]> {
    return (await this.rows(LIST_READS.paidCalls(run, filter))).map(toPaidCall);
  }

  async listIterations(run: string, filter: { unit?: string; loop?: string; open?: boolean } = {}): Promise<LoopIteration[]> {
    return (await this.rows(LIST_READS.iterations(run, filter))).map(toIteration);
  }

  async pendingResumeTokens(run: string, now: string): Promise<Array<{ unit: string; expiresAt: string }>> {
    return (await this.rows(LIST_READS.pendingResumeTokens(run, now))).map((r) => ({
      unit: String(r.unit),
      expiresAt: String(r.expires_at),
    }));
  }

  async findOperator(keyHash: string): Promise<{ name: string; createdAt: string } | undefined> {
    const [row] = await this.rows(LIST_READS.operator(keyHash));
    return row ? { name: String(row.name), createdAt: String(row.created_at) } : undefined;
  }

  async countOperators(): Promise<number> {
    return Number((await this.rows(LIST_READS.operatorCount()))[0]!.n);
  }
}
