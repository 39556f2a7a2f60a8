/**
 * The reads both stores make with the same SQL (`?` placeholders; the
 * PostgreSQL store numbers them): the lists behind the Store's list methods,
 * one WHERE clause built from the filters that are set. The reads that lock
 * rows stay in each backend, where the locks differ.
 */
import type { ArtifactManifest, EffectState, UnitRecord } from "../model/facts.js";
import { iterationFilter, paidCallFilter } from "./rows.js";

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
  plan: (planVersion: string): Query => ({ sql: "SELECT plan_json FROM plans WHERE plan_version = ?", args: [planVersion] }),
} as const;
