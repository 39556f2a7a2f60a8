/**
 * Store URLs: `sqlite:<path>` (default `sqlite:.taskspec/store.db`) opens the
 * embedded store; `postgres://user@host:port/db[?schema=name]` opens the shared
 * PostgreSQL store (workers on several hosts). A store that cannot be opened
 * is a StoreError naming it (open-errors.ts), never a driver stack.
 */
import { resolve } from "node:path";
import { RuntimeError } from "../errors.js";
import { prepareSqlitePath, redactStoreUrl, StoreError, storeErrorOf } from "./open-errors.js";
import { PostgresStore, postgresOptionsFromUrl, StoreUnavailableError } from "./postgres.js";
import { SqliteStore } from "./sqlite.js";
import type { Store } from "./types.js";

export const DEFAULT_STORE_URL = "sqlite:.taskspec/store.db";

export async function openStore(url: string = DEFAULT_STORE_URL, cwd: string = process.cwd()): Promise<Store> {
  if (url.startsWith("sqlite:")) {
    const path = url.slice("sqlite:".length);
    if (!path) throw new RuntimeError("sqlite store URL needs a path: sqlite:<file>");
    if (path === ":memory:") return initialised(url, new SqliteStore({ path }));
    const full = resolve(cwd, path);
    const shown = `sqlite:${full}`;
    prepareSqlitePath(shown, full);
    let store: SqliteStore;
    try {
      store = new SqliteStore({ path: full });
    } catch (err) {
      throw storeErrorOf(err, shown, full) ?? err;
    }
    return initialised(shown, store, full);
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    let options;
    try {
      options = postgresOptionsFromUrl(url);
    } catch {
      throw new RuntimeError("the store URL is not a valid postgres:// URL: write postgres://user[:password]@host:port/db");
    }
    return initialised(url, new PostgresStore(options));
  }
  throw new RuntimeError(`unknown store URL ${JSON.stringify(url)}: use sqlite:<path> or postgres://user@host:port/db`);
}

/**
 * A failure while a command used the store (a full disk mid-run, a damaged
 * page, a lost server) as a StoreError naming the store, or undefined when
 * `err` is not a store failure.
 */
export function storeFailureOf(err: unknown, url: string = DEFAULT_STORE_URL, cwd: string = process.cwd()): StoreError | undefined {
  if (url.startsWith("sqlite:") && url !== "sqlite::memory:") {
    const full = resolve(cwd, url.slice("sqlite:".length));
    return storeErrorOf(err, `sqlite:${full}`, full);
  }
  if (err instanceof StoreUnavailableError && err.outcome === "not-written") {
    const cause = err.lost instanceof Error ? err.lost.message : String(err.lost);
    // a write cut short names what it was writing; a store never reached is unreachable
    return err.writing !== undefined
      ? new StoreError(redactStoreUrl(url), "connection-lost", `writing ${err.writing}: ${cause}`)
      : new StoreError(redactStoreUrl(url), "unreachable", cause);
  }
  return storeErrorOf(err, url);
}

/** Runs the migrations; a failure closes the store and is reported as the store's problem. */
async function initialised(url: string, store: Store, path?: string): Promise<Store> {
  try {
    await store.init();
    return store;
  } catch (err) {
    await store.close().catch(() => undefined);
    throw (path ? storeErrorOf(err, url, path) : storeFailureOf(err, url)) ?? err;
  }
}
