/**
 * Store URLs: `sqlite:<path>` (default `sqlite:.taskspec/store.db`) opens the
 * embedded store; `postgres://user@host:port/db[?schema=name]` opens the shared
 * PostgreSQL store (workers on several hosts).
 */
import { resolve } from "node:path";
import { RuntimeError } from "../errors.js";
import { PostgresStore, postgresOptionsFromUrl } from "./postgres.js";
import { SqliteStore } from "./sqlite.js";
import type { Store } from "./types.js";

export const DEFAULT_STORE_URL = "sqlite:.taskspec/store.db";

export async function openStore(url: string = DEFAULT_STORE_URL, cwd: string = process.cwd()): Promise<Store> {
  if (url.startsWith("sqlite:")) {
    const path = url.slice("sqlite:".length);
    if (!path) throw new RuntimeError("sqlite store URL needs a path: sqlite:<file>");
    const store = new SqliteStore({ path: path === ":memory:" ? path : resolve(cwd, path) });
    await store.init();
    return store;
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const store = new PostgresStore(postgresOptionsFromUrl(url));
    try {
      await store.init();
    } catch (e) {
      await store.close();
      throw e;
    }
    return store;
  }
  throw new RuntimeError(`unknown store URL ${JSON.stringify(url)}: use sqlite:<path> or postgres://user@host:port/db`);
}
