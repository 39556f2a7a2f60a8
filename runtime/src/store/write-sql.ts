/**
 * The write vocabulary (store/writes.ts) as SQL, written once with `?`
 * placeholders for both backends. The dialects differ only where the
 * databases do: replacing a row by its key and inserting many rows at once
 * (`Dialect`); the PostgreSQL executor numbers the placeholders.
 */
import { checkpointDigest, materialOf } from "../model/checkpoint-digest.js";
import {
  ARTIFACT_COLUMNS,
  artifactArgs,
  EFFECT_PATCH_COLUMNS,
  effectPatchValue,
  ITERATION_COLUMNS,
  iterationArgs,
  json,
  PAID_CALL_COLUMNS,
  paidCallAnswer,
  paidCallArgs,
  type Row,
} from "./rows.js";
import { resolveHeader, resolveRecord, type RecordRef } from "./unit-transition.js";
import type { RunPatch, StoreWrite, WriteContext } from "./writes.js";

/** One statement; `row` is given the first row it returns (undefined: none). */
export interface Statement {
  sql: string;
  args: unknown[];
  row?: (row: Row | undefined) => void;
}

/** A column of a many-row insert with its PostgreSQL array type. */
export type Column = readonly [name: string, type: "text" | "int"];

export interface Dialect {
  /** An insert that replaces the row holding the same `key`. */
  replace(table: string, columns: readonly string[], key: readonly string[]): string;
  /** Many rows into one table (the rows' values in `columns` order). */
  insertRows(table: string, columns: readonly Column[], rows: readonly unknown[][]): Statement[];
}

const marks = (n: number): string => Array.from({ length: n }, () => "?").join(", ");
const split = (columns: string): string[] => columns.split(",").map((c) => c.trim());

export const SQLITE_DIALECT: Dialect = {
  replace: (table, columns) => `INSERT OR REPLACE INTO ${table} (${columns.join(", ")}) VALUES (${marks(columns.length)})`,
  // one cached statement a row: preparing, not stepping, is what a small insert costs here
  insertRows: (table, columns, rows) => {
    const sql = `INSERT INTO ${table} (${columns.map(([c]) => c).join(", ")}) VALUES (${marks(columns.length)})`;
    return rows.map((args) => ({ sql, args }));
  },
};

export const POSTGRES_DIALECT: Dialect = {
  replace: (table, columns, key) =>
    `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${marks(columns.length)}) ON CONFLICT (${key.join(", ")}) DO UPDATE SET ${columns
      .filter((c) => !key.includes(c))
      .map((c) => `${c} = EXCLUDED.${c}`)
      .join(", ")}`,
  // one round trip for all the rows
  insertRows: (table, columns, rows) =>
    rows.length === 0
      ? []
      : [
          {
            sql: `INSERT INTO ${table} (${columns.map(([c]) => c).join(", ")}) SELECT * FROM unnest(${columns.map(([, t]) => `?::${t}[]`).join(", ")})`,
            args: columns.map((_, i) => rows.map((r) => r[i])),
          },
        ],
};

const EVENT_COLUMNS: readonly Column[] = [
  ["run", "text"],
  ["at", "text"],
  ["type", "text"],
  ["unit", "text"],
  ["attempt", "int"],
  ["data", "text"],
];
const UNIT_COLUMNS: readonly Column[] = [
  ["run", "text"],
  ["unit", "text"],
  ["state", "text"],
  ["version", "int"],
];
const LEASE_COLUMNS = ["run", "unit", "owner", "token", "attempt", "expires_at", "renewed_at", "reserved"];
const ARTIFACTS = split(ARTIFACT_COLUMNS);

/** The run row's columns in the order an update sets them, with how a value is stored. */
const RUN_COLUMNS: ReadonlyArray<[keyof RunPatch, string, (v: unknown) => unknown]> = [
  ["version", "version", (v) => v],
  ["planVersion", "plan_version", (v) => v],
  ["inputVersion", "input_version", (v) => v],
  ["status", "status", (v) => v],
  ["caps", "caps", json],
  ["budgetUsed", "budget_used", json],
  ["hold", "hold", (v) => (v === null ? null : json(v))],
  ["origin", "origin", json],
  ["updatedAt", "updated_at", (v) => v],
  ["lastProgressAt", "last_progress_at", (v) => v],
];

const EFFECT_COLUMNS =
  "id, run, unit, attempt, seq, tool, tool_class, intent, args_digest, request_hash, request, iteration, key, state, token, prepared_at, held";

/** The statements of one write; read `ctx` only here, when the writes before it have run. */
export function writeStatements(w: StoreWrite, run: string, ctx: WriteContext, d: Dialect): Statement[] {
  const ref = (x: RecordRef | null) => (x === null ? null : resolveRecord(x, ctx.inserted));
  switch (w.op) {
    case "insert-events":
      return d.insertRows(
        "events",
        EVENT_COLUMNS,
        w.events.map((e) => [run, e.at, e.type, e.unit ?? null, e.attempt ?? null, e.data === undefined ? null : json(e.data)]),
      );
    case "insert-plan":
      return [
        { sql: "INSERT INTO plans (plan_version, plan_json) VALUES (?, ?) ON CONFLICT DO NOTHING", args: [w.planVersion, json(w.plan)] },
      ];
    case "insert-run":
      return [
        {
          sql: `INSERT INTO runs (run, task_id, plan_version, input_version, version, status, caps, budget_used, hold, origin, created_at, updated_at, last_progress_at)
            VALUES (?, ?, ?, ?, 0, 'active', ?, '{}', NULL, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING run`,
          args: [run, w.taskId, w.planVersion, w.inputVersion, json(w.caps), json(w.origin), w.now, w.now, w.now],
          row: (r) => {
            if (!r) throw w.exists;
          },
        },
      ];
    case "insert-units":
      return d.insertRows(
        "unit_states",
        UNIT_COLUMNS,
        w.units.map((u) => [run, u, "pending", 0]),
      );
    case "insert-checkpoint":
      return [checkpointStatement(run, w.version, w.header, ctx)];
    case "update-run":
    case "set-budget-used": {
      const set: RunPatch = w.op === "update-run" ? w.set : { budgetUsed: w.used };
      const cols = RUN_COLUMNS.filter(([k]) => set[k] !== undefined);
      return [
        {
          sql: `UPDATE runs SET ${cols.map(([, c]) => `${c} = ?`).join(", ")} WHERE run = ?`,
          args: [...cols.map(([k, , store]) => store(set[k])), run],
        },
      ];
    }
    case "close-loops":
    case "close-iterations":
    case "close-journal": {
      const units = w.op === "close-loops" ? w.units : [w.unit];
      const tables =
        w.op === "close-loops" ? ["loop_iterations", "paid_calls"] : [w.op === "close-iterations" ? "loop_iterations" : "paid_calls"];
      if (!units.length) return [];
      return tables.map((t) => ({
        sql: `UPDATE ${t} SET closed_at = ? WHERE run = ? AND unit IN (${marks(units.length)}) AND closed_at IS NULL`,
        args: [w.at, run, ...units],
      }));
    }
    case "insert-record":
      return [
        {
          sql: `INSERT INTO unit_records (run, unit, attempt, plan_version, status, result, sources, committed_version, created_at)
            VALUES (?, ?, ?, ?, 'current', ?, ?, ?, ?) RETURNING id`,
          args: [run, w.unit, w.attempt, w.planVersion, json(w.result), json(w.sources), w.version, w.now],
          row: (r) => void ctx.inserted.push(Number(r!.id)),
        },
      ];
    case "mark-record":
      return [{ sql: "UPDATE unit_records SET status = ?, superseded_reason = ? WHERE id = ?", args: [w.status, w.reason, ref(w.record)] }];
    case "insert-artifacts": {
      // a replace: a file a committed loop iteration recorded as `rejected` becomes the unit's output
      const sql = d.replace("artifacts", ARTIFACTS, ["run", "path"]);
      return w.artifacts.map((a) => ({ sql, args: artifactArgs(run, a, w.status, ref(w.record)) }));
    }
    case "set-unit":
      return [
        {
          sql: "UPDATE unit_states SET state = ?, current_record = ?, superseded_record = ?, superseded = ?, hold = NULL, not_before = NULL, last_error = ?, failures = ?, version = ? WHERE run = ? AND unit = ?",
          args: [
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
        },
      ];
    case "insert-unit":
      return [{ sql: "INSERT INTO unit_states (run, unit, state, version) VALUES (?, ?, 'pending', ?)", args: [run, w.unit, w.version] }];
    case "delete-unit":
      return [{ sql: "DELETE FROM unit_states WHERE run = ? AND unit = ?", args: [run, w.unit] }];
    case "set-failures": {
      const backoff = w.notBefore !== undefined;
      return [
        {
          sql: `UPDATE unit_states SET failures = ?, last_error = COALESCE(?, last_error)${backoff ? ", not_before = ?" : ""} WHERE run = ? AND unit = ?`,
          args: [w.failures, w.lastError ? json(w.lastError) : null, ...(backoff ? [w.notBefore] : []), run, w.unit],
        },
      ];
    }
    case "set-attempts":
      return [{ sql: "UPDATE unit_states SET attempts = ? WHERE run = ? AND unit = ?", args: [w.attempts, run, w.unit] }];
    case "set-unit-hold":
      return [{ sql: "UPDATE unit_states SET hold = ? WHERE run = ? AND unit = ?", args: [w.hold ? json(w.hold) : null, run, w.unit] }];
    case "delete-lease":
      return [{ sql: "DELETE FROM leases WHERE run = ? AND unit = ? AND token = ?", args: [run, w.unit, w.token] }];
    case "put-lease": {
      const l = w.lease;
      return [
        {
          sql: d.replace("leases", LEASE_COLUMNS, ["run", "unit"]),
          args: [run, l.unit, l.owner, l.token, l.attempt, l.expiresAt, l.renewedAt, l.reserved ? json(l.reserved) : null],
        },
      ];
    }
    case "renew-lease":
      return [
        {
          sql: "UPDATE leases SET expires_at = ?, renewed_at = ? WHERE run = ? AND unit = ? AND token = ?",
          args: [w.expiresAt, w.renewedAt, run, w.unit, w.token],
        },
      ];
    case "set-lease-reserved":
      return [
        {
          sql: "UPDATE leases SET reserved = ? WHERE run = ? AND unit = ? AND token = ?",
          args: [w.reserved ? json(w.reserved) : null, run, w.unit, w.token],
        },
      ];
    case "insert-effect": {
      const e = w.effect;
      return [
        {
          sql: `INSERT INTO effects (${EFFECT_COLUMNS}) VALUES (${marks(13)}, 'PREPARED', ?, ?, ?) RETURNING *`,
          args: [
            e.id,
            e.run,
            e.unit,
            e.attempt,
            e.seq,
            e.tool,
            e.toolClass,
            e.intent,
            e.argsDigest,
            e.requestHash ?? null,
            e.request ? json(e.request) : null,
            e.iteration ?? null,
            e.key ?? null,
            e.token,
            e.preparedAt,
            e.held ? json(e.held) : null,
          ],
          row: (r) => void (ctx.effect = r),
        },
      ];
    }
    case "update-effect":
      return effectStatements(w, run, ctx);
    case "insert-approval": {
      const a = w.approval;
      return [
        {
          sql: `INSERT INTO approvals (id, run, unit, plan_version, artifact_hashes, scope, expires_at, granted_by, granted_at, revoked_at, binding) VALUES (${marks(9)}, NULL, ?)`,
          args: [
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
        },
      ];
    }
    case "revoke-approval":
      return [{ sql: "UPDATE approvals SET revoked_at = ? WHERE id = ?", args: [w.at, w.id] }];
    case "insert-resume-token":
      return [
        {
          sql: "INSERT INTO resume_tokens (token_hash, run, unit, expires_at, used_at, created_at) VALUES (?, ?, ?, ?, NULL, ?)",
          args: [w.tokenHash, run, w.unit, w.expiresAt, w.createdAt],
        },
      ];
    case "use-resume-token":
      return [{ sql: "UPDATE resume_tokens SET used_at = ? WHERE token_hash = ?", args: [w.at, w.tokenHash] }];
    case "insert-iteration":
      return [
        {
          sql: `INSERT INTO loop_iterations (${ITERATION_COLUMNS}) VALUES (${marks(9)}) ON CONFLICT DO NOTHING RETURNING iteration`,
          args: iterationArgs(w.iteration),
          row: (r) => {
            if (!r) throw w.committed;
          },
        },
      ];
    case "insert-paid-call":
      return [{ sql: `INSERT INTO paid_calls (${PAID_CALL_COLUMNS}) VALUES (${marks(12)})`, args: paidCallArgs(w.call) }];
    case "answer-paid-call":
      return [paidCallAnswer({ run, ...w.key }, w.answer, () => "?")];
    case "mark-artifact-corrupt":
      return [{ sql: "UPDATE artifacts SET status = 'corrupt' WHERE run = ? AND path = ?", args: [run, w.path] }];
    case "clear-event-payloads": {
      // bounded statements: SQLite allows 32766 placeholders, PostgreSQL 65535
      const out: Statement[] = [];
      for (let i = 0; i < w.seqs.length; i += 1000) {
        const seqs = w.seqs.slice(i, i + 1000);
        out.push({ sql: `UPDATE events SET data = NULL WHERE run = ? AND seq IN (${marks(seqs.length)})`, args: [run, ...seqs] });
      }
      return out;
    }
    case "insert-operator":
      return [{ sql: "INSERT INTO operators (name, key_hash, created_at) VALUES (?, ?, ?)", args: [w.name, w.keyHash, w.createdAt] }];
  }
}

/** The checkpoint row chained on the context's last digest; its header joins the context's. */
function checkpointStatement(
  run: string,
  version: number,
  header: Extract<StoreWrite, { op: "insert-checkpoint" }>["header"],
  ctx: WriteContext,
): Statement {
  const body = { run, version, parent: version === 0 ? null : version - 1, ...resolveHeader(header, ctx.inserted) };
  const m = materialOf(body);
  const digest = checkpointDigest(ctx.digest, m);
  ctx.digest = digest;
  ctx.headers.push({ ...body, digest });
  return {
    sql: `INSERT INTO checkpoints (run, version, parent, kind, plan_version, input_version, budget_used, approvals, next_action, delta, digest, created_at, committed_at)
      VALUES (${marks(13)})`,
    args: [
      run,
      version,
      body.parent,
      body.kind,
      body.planVersion,
      body.inputVersion,
      m.budgetUsed,
      m.approvals,
      m.nextAction,
      m.delta,
      digest,
      body.createdAt,
      body.committedAt,
    ],
  };
}

/** An effect's patched columns (and its commit sequence number), leaving the row as written in the context. */
function effectStatements(w: Extract<StoreWrite, { op: "update-effect" }>, run: string, ctx: WriteContext): Statement[] {
  const keep = (r: Row | undefined) => void (ctx.effect = r);
  const cols = Object.entries(w.columns);
  const sets = cols.map(([c]) => `${c} = ?`);
  const args: unknown[] = cols.map(([, v]) => v);
  const out: Statement[] = [];
  if (w.commitSeq) {
    out.push({ sql: "UPDATE runs SET effect_commit_seq = effect_commit_seq + 1 WHERE run = ?", args: [run] });
    sets.push("commit_seq = (SELECT effect_commit_seq FROM runs WHERE run = ?)");
    args.push(run);
  }
  out.push(
    sets.length
      ? { sql: `UPDATE effects SET ${sets.join(", ")} WHERE id = ? RETURNING *`, args: [...args, w.id], row: keep }
      : { sql: "SELECT * FROM effects WHERE id = ?", args: [w.id], row: keep },
  );
  return out;
}

/** The columns an effect patch sets, as stored. */
export function effectColumns(patch: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const cols: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(patch)) {
    const col = EFFECT_PATCH_COLUMNS[k];
    if (col) cols[col] = effectPatchValue(k, v);
  }
  return cols;
}
