import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { SchemaVersionError } from "../../src/errors.js";
import { SqliteStore } from "../../src/store/sqlite.js";
import { SQLITE_MIGRATIONS } from "../../src/store/sqlite-migrations.js";
import { tempDir } from "../fixtures/load.js";
import { runConformance } from "./suite.js";

const paths = new WeakMap<object, string>();

runConformance({
  name: "sqlite",
  createStore: async () => {
    const path = join(tempDir(), "store.db");
    const store = new SqliteStore({ path });
    paths.set(store, path);
    return store;
  },
  destroyStore: async (store) => {
    await store.close();
    rmSync(dirname(paths.get(store)!), { recursive: true, force: true });
  },
});

describe("sqlite schema versions", () => {
  it("refuses a database written by a newer schema with a clear error", async () => {
    const path = join(tempDir(), "future.db");
    const db = new Database(path);
    db.pragma(`user_version = ${SQLITE_MIGRATIONS.length + 1}`);
    db.close();
    const store = new SqliteStore({ path });
    const err = await store.init().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SchemaVersionError);
    expect(String((err as Error).message)).toMatch(/schema version \d+, but this taskspec understands versions up to \d+/);
    await store.close();
  });

  it("uses WAL with synchronous=FULL for checkpoint commits", async () => {
    const path = join(tempDir(), "wal.db");
    const store = new SqliteStore({ path });
    await store.init();
    await store.close();
    const db = new Database(path);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });
});
