/**
 * One run's rows exactly as a store keeps them, for a run bundle (`taskspec
 * handoff --bundle`, `taskspec import`): every table that holds the run, its
 * columns named here once (both stores share them: store/rows.ts), integers
 * as numbers whichever driver read them. Ids, sequence numbers and tokens are
 * kept as they were, so what reads the imported run (status, show, events,
 * handoff) prints what it prints on the original; a store that already uses
 * one of them refuses the import instead of renumbering what other rows and
 * events refer to. Pure: the queries and statements are data each backend
 * runs in one transaction.
 */
import { RuntimeError } from "../errors.js";
import type { Query } from "./sql-reads.js";

interface TableShape {
  columns: readonly string[];
  /** Columns read back as numbers (PostgreSQL's BIGINT arrives as text). */
  ints: readonly string[];
  /** Export order: the store's own order, so two exports of one run are byte-identical. */
  order: string;
  /** What a duplicate means to a person, for the refusal. */
  what: string;
}

/** Tables in insert order: the run row first (the unit rows' trigger counts changes on it). */
export const RUN_TABLES = {
  plans: { columns: ["plan_version", "plan_json"], ints: [], order: "plan_version", what: "plan" },
  runs: {
    columns: [
      "run",
      "task_id",
      "plan_version",
      "input_version",
      "version",
      "status",
      "caps",
      "budget_used",
      "hold",
      "origin",
      "created_at",
      "updated_at",
      "last_progress_at",
      "effect_commit_seq",
      "change_seq",
    ],
    ints: ["version", "effect_commit_seq", "change_seq"],
    order: "run",
    what: "run",
  },
  checkpoints: {
    columns: [
      "run",
      "version",
      "parent",
      "kind",
      "plan_version",
      "input_version",
      "budget_used",
      "approvals",
      "next_action",
      "delta",
      "digest",
      "created_at",
      "committed_at",
    ],
    ints: ["version", "parent"],
    order: "version",
    what: "checkpoint",
  },
  unit_records: {
    columns: [
      "id",
      "run",
      "unit",
      "attempt",
      "plan_version",
      "status",
      "result",
      "sources",
      "committed_version",
      "superseded_reason",
      "created_at",
    ],
    ints: ["id", "attempt", "committed_version"],
    order: "id",
    what: "unit record id",
  },
  unit_states: {
    columns: [
      "run",
      "unit",
      "state",
      "attempts",
      "failures",
      "current_record",
      "superseded_record",
      "superseded",
      "hold",
      "last_error",
      "version",
      "changed_seq",
      "not_before",
    ],
    ints: ["attempts", "failures", "current_record", "superseded_record", "version", "changed_seq"],
    order: "unit",
    what: "unit",
  },
  artifacts: {
    columns: [
      "run",
      "path",
      "unit",
      "attempt",
      "name",
      "sha256",
      "size",
      "media_type",
      "facets",
      "plan_version",
      "verifier_results",
      "status",
      "record_id",
      "created_at",
    ],
    ints: ["attempt", "size", "record_id"],
    order: "path",
    what: "artifact",
  },
  events: { columns: ["seq", "run", "at", "type", "unit", "attempt", "data"], ints: ["seq", "attempt"], order: "seq", what: "event" },
  leases: {
    columns: ["run", "unit", "owner", "token", "attempt", "expires_at", "renewed_at", "reserved"],
    ints: ["token", "attempt"],
    order: "unit",
    what: "lease",
  },
  effects: {
    columns: [
      "id",
      "run",
      "unit",
      "attempt",
      "seq",
      "tool",
      "tool_class",
      "intent",
      "args_digest",
      "key",
      "state",
      "remote_id",
      "receipt",
      "lookup_used",
      "compensation",
      "compensation_state",
      "error",
      "token",
      "prepared_at",
      "started_at",
      "resolved_at",
      "commit_seq",
      "request_hash",
      "request",
      "iteration",
      "held",
    ],
    ints: ["attempt", "seq", "token", "commit_seq", "iteration"],
    order: "id",
    what: "effect id",
  },
  approvals: {
    columns: [
      "id",
      "run",
      "unit",
      "plan_version",
      "artifact_hashes",
      "scope",
      "expires_at",
      "granted_by",
      "granted_at",
      "revoked_at",
      "binding",
    ],
    ints: [],
    order: "id",
    what: "approval id",
  },
  resume_tokens: {
    columns: ["token_hash", "run", "unit", "expires_at", "used_at", "created_at"],
    ints: [],
    order: "token_hash",
    what: "resume token",
  },
  loop_iterations: {
    columns: ["run", "unit", "loop", "iteration", "max", "attempt", "result", "artifacts", "committed_at", "closed_at"],
    ints: ["iteration", "max", "attempt"],
    order: "unit, loop, iteration, attempt, committed_at",
    what: "loop iteration",
  },
  paid_calls: {
    columns: [
      "run",
      "unit",
      "attempt",
      "seq",
      "iteration",
      "kind",
      "request_hash",
      "state",
      "reply",
      "replayable",
      "at",
      "answered_at",
      "closed_at",
    ],
    ints: ["attempt", "seq", "iteration", "replayable"],
    order: "unit, attempt, seq",
    what: "paid call",
  },
} as const satisfies Record<string, TableShape>;

export type RunTable = keyof typeof RUN_TABLES;
export type StoredRow = Record<string, string | number | null>;
/** Every row of one run, table by table, in each table's order. */
export type RunRows = { [T in RunTable]: StoredRow[] };

export const RUN_TABLE_NAMES = Object.keys(RUN_TABLES) as RunTable[];

/** The reads of one run's rows, to run in one snapshot. */
export function runRowsQueries(run: string): Array<{ table: RunTable; query: Query }> {
  return RUN_TABLE_NAMES.map((table) => {
    const shape: TableShape = RUN_TABLES[table];
    const cols = shape.columns.join(", ");
    if (table === "plans")
      return {
        table,
        query: {
          // every plan version the run's rows name: a run changed by edits ran under several
          sql:
            `SELECT ${cols} FROM plans WHERE plan_version IN (SELECT plan_version FROM runs WHERE run = ? ` +
            "UNION SELECT plan_version FROM checkpoints WHERE run = ? UNION SELECT plan_version FROM unit_records WHERE run = ?) " +
            `ORDER BY ${shape.order}`,
          args: [run, run, run],
        },
      };
    return { table, query: { sql: `SELECT ${cols} FROM ${table} WHERE run = ? ORDER BY ${shape.order}`, args: [run] } };
  });
}

/** A row as the bundle keeps it: the table's columns in order, integers as numbers. */
export function storedRow(table: RunTable, row: Record<string, unknown>): StoredRow {
  const shape: TableShape = RUN_TABLES[table];
  const out: StoredRow = {};
  for (const c of shape.columns) {
    const v = row[c];
    out[c] = v === null || v === undefined ? null : shape.ints.includes(c) ? Number(v) : String(v);
  }
  return out;
}

/** Rows in a store a run bundle's import would overwrite: refused, nothing written. */
export class ImportConflictError extends RuntimeError {
  override readonly name = "ImportConflictError";
}

/** One statement of an import and, when it fails on a duplicate key, what to tell the person. */
export interface ImportStatement extends Query {
  conflict?: string;
}

/** How many rows go into one INSERT: the statement stays well under either store's bound on parameters. */
const BATCH = 100;

/**
 * The writes of an import, in order: plans the store lacks, then every row as
 * it was, then the change counters the unit rows' trigger moved put back.
 * Sequences and the fencing counter are the backend's to advance past what
 * was imported (`importSequenceStatements`).
 */
export function importStatements(rows: RunRows): ImportStatement[] {
  const out: ImportStatement[] = [];
  for (const table of RUN_TABLE_NAMES) {
    const shape: TableShape = RUN_TABLES[table];
    const list = rows[table];
    for (let i = 0; i < list.length; i += BATCH) {
      const batch = list.slice(i, i + BATCH);
      const values = batch.map(() => `(${shape.columns.map(() => "?").join(", ")})`).join(", ");
      const args = batch.flatMap((r) => shape.columns.map((c) => r[c] ?? null));
      const keyCol = shape.columns[0]!;
      const first =
        batch[0]![table === "events" || table === "unit_records" || table === "effects" || table === "approvals" ? keyCol : "run"];
      out.push({
        sql: `INSERT INTO ${table} (${shape.columns.join(", ")}) VALUES ${values}${table === "plans" ? " ON CONFLICT (plan_version) DO NOTHING" : ""}`,
        args,
        conflict:
          `the bundle's ${shape.what} ${String(first)}` +
          (batch.length > 1 ? ` (or one of the ${batch.length - 1} ${table} rows after it)` : "") +
          " is already in this store; an import keeps every id as it was, so import the bundle into a store that does not use them (a new one)",
      });
    }
  }
  const run = rows.runs[0];
  if (run) {
    out.push({ sql: "UPDATE runs SET change_seq = ? WHERE run = ?", args: [run.change_seq, run.run] });
    for (const u of rows.unit_states)
      out.push({ sql: "UPDATE unit_states SET changed_seq = ? WHERE run = ? AND unit = ?", args: [u.changed_seq, u.run, u.unit] });
  }
  return out;
}

/** The highest fencing token the run's rows hold: a claim in the importing store must take a newer one. */
export function highestToken(rows: RunRows): number {
  let max = 0;
  for (const r of [...rows.leases, ...rows.effects]) max = Math.max(max, Number(r.token ?? 0));
  return max;
}

/** The import refused before anything is written: a run of that id exists. */
export function runExists(run: string): ImportConflictError {
  return new ImportConflictError(
    `run ${run} already exists in this store; an import never merges into or overwrites a run: import the bundle into another store`,
  );
}
