/**
 * The PostgreSQL store's connection handling: a pool, transactions, and what
 * a lost connection means for each kind of statement. Reads are repeated on
 * connection loss; a write lost before COMMIT was rolled back by the server
 * and is reported as not written; a write lost during COMMIT has an unknown
 * outcome (the store re-checks a checkpoint commit before it says so). SQL is
 * written with `?` placeholders (store/write-sql.ts, store/sql-reads.ts); they
 * are numbered here.
 */
import pg from "pg";
import { isConnectionError, RuntimeError, StoreUnavailableError } from "../errors.js";

export { isConnectionError, StoreUnavailableError };
import type { Row } from "./rows.js";

/** A statement in a transaction; `raw` SQL (a migration) is sent as written, its placeholders unnumbered. */
export type Q = (sql: string, args?: unknown[], raw?: "raw") => Promise<Row[]>;

/** The connection dropped while COMMIT was in flight. */
export class CommitOutcomeUnknown extends Error {
  constructor(override readonly cause: unknown) {
    super("commit outcome unknown");
  }
}

/** Deadlock or serialization failure: the server rolled the transaction back, repeating it is safe. */
const isRolledBackConflict = (e: unknown): boolean => ["40P01", "40001"].includes(String((e as { code?: unknown } | null)?.code));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ATTEMPTS = 4;

const numbered = new Map<string, string>();

/** `?` placeholders as `$1, $2, ...` (the SQL holds no `?` of its own). */
export function pgText(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    numbered.set(sql, text);
  }
  return text;
}

export interface PostgresStoreOptions {
  /** `postgres://user@host:port/db` */
  connectionString: string;
  /** Schema holding the tables (created by init); default: the connection's search_path. */
  schema?: string;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  applicationName?: string;
  /**
   * Whose clock grants and judges leases (claims, renewals): `database`
   * (default), PostgreSQL's, read in the claim's own statement, whatever the
   * caller's clock says; `caller`, the `now` each call passes, for tests that
   * drive time by hand (the conformance suite).
   */
  leaseClock?: "database" | "caller";
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

export class PgConnection {
  readonly pool: pg.Pool;
  readonly schema: string | undefined;

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
  async tx<T>(fn: (q: Q) => Promise<T>, mode: "write" | "read" = "write"): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient | undefined;
      let committing = false;
      try {
        client = await this.pool.connect();
        const c = client;
        await c.query(mode === "read" ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
        const out = await fn(async (sql, args, raw) => (await c.query(raw ? sql : pgText(sql), args)).rows as Row[]);
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
  async read(sql: string, args: unknown[] = []): Promise<Row[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.pool.query(pgText(sql), args)).rows as Row[];
      } catch (e) {
        if (!isConnectionError(e)) throw e;
        if (attempt >= ATTEMPTS) throw new StoreUnavailableError("not-written", e);
        await sleep(25 * 2 ** attempt);
      }
    }
  }

  /** A write whose lost COMMIT cannot be re-checked: surfaced as an unknown outcome. */
  async write<T>(fn: (q: Q) => Promise<T>): Promise<T> {
    try {
      return await this.tx(fn);
    } catch (e) {
      if (e instanceof CommitOutcomeUnknown) throw new StoreUnavailableError("unknown", e.cause);
      throw e;
    }
  }

  /** One statement outside a transaction (it is atomic on its own); a lost connection leaves its outcome unknown. */
  async once(sql: string, args: unknown[]): Promise<Row[]> {
    try {
      return (await this.pool.query(pgText(sql), args)).rows as Row[];
    } catch (e) {
      if (isConnectionError(e)) throw new StoreUnavailableError("unknown", e);
      throw e;
    }
  }
}
