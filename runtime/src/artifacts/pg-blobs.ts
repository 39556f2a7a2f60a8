/**
 * Artifacts as content-addressed blobs in PostgreSQL: a blob is keyed by the
 * sha256 of its bytes and written once (the same bytes from any run share
 * it), and each attempt's file is a row naming its blob, created exclusively.
 * Hosts need no shared disk; the run records only `pg:`. Reads re-hash the
 * bytes the server returns, so a changed blob or a file row moved to other
 * bytes is corrupt as it is on disk; a bounded local cache spares the
 * transfer of bytes already checked (the server then hashes what it holds).
 */
import { rm } from "node:fs/promises";
import pg from "pg";
import { isConnectionError, RuntimeError, StoreUnavailableError } from "../errors.js";
import { sha256 } from "../model/identity.js";
import { PG_BLOB_MIGRATIONS } from "./pg-blob-migrations.js";
import { ReadCache } from "./read-cache.js";
import {
  ArtifactPathError,
  checkArtifactName,
  checkAttemptDir,
  CorruptArtifactError,
  runPrefix,
  type ArtifactStorage,
  type StoredFile,
} from "./storage.js";

export interface PgArtifactOptions {
  /** `postgres://user@host:port/db[?schema=name]`, the store's own URL for `pg:`. */
  url: string;
  /** The local directory handler processes work in (never recorded); this storage removes it on close. */
  scratch: string;
  cacheBytes?: number;
  poolSize?: number;
}

/** Reads are tried again after a lost connection; a write is never repeated blindly. */
const READ_TRIES = 4;

export class PgArtifactStorage implements ArtifactStorage {
  readonly location = "pg:";
  readonly root: string;
  private readonly pool: pg.Pool;
  private readonly cache: ReadCache;
  private readonly schema: string | undefined;

  constructor(o: PgArtifactOptions) {
    const u = new URL(o.url);
    const schema = u.searchParams.get("schema") ?? undefined;
    u.searchParams.delete("schema");
    if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema))
      throw new RuntimeError(`schema name ${JSON.stringify(schema)} must be lower-case letters, digits and _`);
    this.schema = schema;
    this.root = o.scratch;
    this.cache = new ReadCache(o.cacheBytes);
    this.pool = new pg.Pool({
      connectionString: u.toString(),
      max: o.poolSize ?? 4,
      application_name: "taskspec-artifacts",
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // a dropped idle connection is replaced on next use; the query in flight reports its own failure
    this.pool.on("error", () => undefined);
  }

  /** Creates or upgrades the backend's tables; one migrator at a time. */
  async init(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
      await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`taskspec-artifact-migrate:${this.schema ?? ""}`]);
      if (this.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
      await client.query(
        "CREATE TABLE IF NOT EXISTS artifact_schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
      );
      const current = Number((await client.query("SELECT COALESCE(MAX(version), 0) AS v FROM artifact_schema_version")).rows[0].v);
      if (current > PG_BLOB_MIGRATIONS.length)
        throw new RuntimeError(
          `the artifact tables are at version ${current}, newer than this taskspec knows (${PG_BLOB_MIGRATIONS.length}): upgrade taskspec`,
        );
      for (let v = current; v < PG_BLOB_MIGRATIONS.length; v++) {
        await client.query(PG_BLOB_MIGRATIONS[v]!);
        await client.query("INSERT INTO artifact_schema_version (version) VALUES ($1)", [v + 1]);
      }
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async write(dir: string, name: string, data: Uint8Array): Promise<StoredFile> {
    const problem = checkArtifactName(name) ?? checkAttemptDir(dir);
    if (problem) throw new ArtifactPathError(`refused artifact write: ${problem}`);
    const path = `${dir}/${name}`;
    const digest = sha256(data);
    try {
      // one statement, so one transaction: the blob (kept if those bytes exist already) and the file row
      await this.pool.query(
        `WITH blob AS (
           INSERT INTO artifact_blobs (sha256, size, data) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING
         )
         INSERT INTO artifact_files (path, sha256, size) VALUES ($4, $1, $2)`,
        [digest, data.byteLength, Buffer.from(data.buffer, data.byteOffset, data.byteLength), path],
      );
    } catch (err) {
      if ((err as { code?: unknown }).code === "23505")
        throw new ArtifactPathError(`refused artifact write: ${path} already exists (attempt directories are immutable)`);
      // one statement, sent: it may have committed (a second write of the path is then refused, never doubled)
      if (isConnectionError(err)) throw new StoreUnavailableError("unknown", err, `artifact ${path}`);
      throw err;
    }
    this.cache.put(digest, data);
    return { path, sha256: digest, size: data.byteLength };
  }

  async read(path: string, expectedSha256: string): Promise<Uint8Array> {
    const cached = this.cache.get(expectedSha256);
    if (cached) {
      // the server hashes the bytes it holds: a changed blob is corrupt here too, without sending it
      const row = (
        await this.query<{ actual: string | null }>(
          "SELECT encode(sha256(b.data), 'hex') AS actual FROM artifact_files f LEFT JOIN artifact_blobs b ON b.sha256 = f.sha256 WHERE f.path = $1",
          [path],
        )
      )[0];
      const actual = row?.actual ?? undefined;
      if (actual !== expectedSha256) throw new CorruptArtifactError(path, expectedSha256, actual);
      return cached;
    }
    const row = (
      await this.query<{ data: Buffer | null }>(
        "SELECT b.data FROM artifact_files f LEFT JOIN artifact_blobs b ON b.sha256 = f.sha256 WHERE f.path = $1",
        [path],
      )
    )[0];
    if (!row || row.data === null) throw new CorruptArtifactError(path, expectedSha256, undefined);
    const actual = sha256(row.data);
    if (actual !== expectedSha256) throw new CorruptArtifactError(path, expectedSha256, actual);
    const bytes = new Uint8Array(row.data);
    this.cache.put(actual, bytes);
    return bytes;
  }

  async size(path: string): Promise<number | undefined> {
    // the blob's bytes as stored, not the size the file row was written with
    const row = (
      await this.query<{ size: string | null }>(
        "SELECT octet_length(b.data) AS size FROM artifact_files f LEFT JOIN artifact_blobs b ON b.sha256 = f.sha256 WHERE f.path = $1",
        [path],
      )
    )[0];
    return row?.size === null || row?.size === undefined ? undefined : Number(row.size);
  }

  async listRunFiles(run: string): Promise<string[]> {
    const rows = await this.query<{ path: string }>("SELECT path FROM artifact_files WHERE starts_with(path, $1) ORDER BY path", [
      runPrefix(run),
    ]);
    return rows.map((r) => r.path);
  }

  /**
   * The file rows, then the blobs no file names any more. SHARE mode on the
   * files table waits for writes in flight and holds new ones until this
   * commits, so a blob is never removed under a file written beside it.
   */
  async remove(paths: readonly string[]): Promise<void> {
    for (const path of paths) {
      const problem = checkAttemptDir(path);
      if (problem) throw new ArtifactPathError(`refused artifact removal: ${problem}`);
    }
    if (paths.length === 0) return;
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      await client.query("LOCK TABLE artifact_files IN SHARE MODE");
      const gone = await client.query<{ sha256: string }>("DELETE FROM artifact_files WHERE path = ANY($1::text[]) RETURNING sha256", [
        [...paths],
      ]);
      const blobs = [...new Set(gone.rows.map((r) => r.sha256))];
      if (blobs.length)
        await client.query(
          "DELETE FROM artifact_blobs b WHERE b.sha256 = ANY($1::text[]) AND NOT EXISTS (SELECT 1 FROM artifact_files f WHERE f.sha256 = b.sha256)",
          [blobs],
        );
      await client.query("COMMIT");
    } catch (err) {
      if (isConnectionError(err)) {
        broken = err as Error;
        throw new StoreUnavailableError("unknown", err, `the removal of ${paths.length} artifact file(s) (gc; running it again is safe)`);
      }
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    } finally {
      // a connection that was lost is dropped from the pool, not handed out again
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
    await rm(this.root, { recursive: true, force: true });
  }

  /** A read, repeated when the connection was lost (reads change nothing). */
  private async query<T>(sql: string, args: unknown[]): Promise<T[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return (await this.pool.query(sql, args)).rows as T[];
      } catch (err) {
        if (!isConnectionError(err)) throw err;
        if (attempt >= READ_TRIES) throw new StoreUnavailableError("not-written", err);
        await new Promise((r) => setTimeout(r, 25 * 2 ** attempt));
      }
    }
  }
}
