import { readFileSync, rmSync } from "node:fs";
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

  it("migrates a version-1 database with its runs to the current schema", async () => {
    const path = join(tempDir(), "v1.db");
    const db = new Database(path);
    db.exec(SQLITE_MIGRATIONS[0]!);
    db.pragma("user_version = 1");
    db.prepare(
      "INSERT INTO runs (run, task_id, plan_version, input_version, version, status, caps, budget_used, origin, created_at, updated_at, last_progress_at) VALUES ('R', 't', 'p', 'i', 0, 'active', '{}', '{}', '{}', 'x', 'x', 'x')",
    ).run();
    db.prepare("INSERT INTO unit_states (run, unit, state, version) VALUES ('R', 'a', 'pending', 0)").run();
    db.close();
    const store = new SqliteStore({ path });
    await store.init();
    expect(await store.schemaVersion()).toBe(SQLITE_MIGRATIONS.length);
    await store.setUnitHold("R", "a", { reason: "budget", detail: "d", at: "x" }, { at: "x", type: "blocked" });
    expect((await store.loadFacts("R", 0)).units.map((u) => u.unit)).toEqual(["a"]);
    await store.close();
  });

  it("claims a scheduling round in one transaction: one commit in the WAL for the round, one per single claim", async () => {
    const path = join(tempDir(), "round.db");
    const store = new SqliteStore({ path });
    await store.init();
    const now = "2026-01-01T00:00:00.000Z";
    await store.createRun({
      run: "R",
      taskId: "t",
      planVersion: "p1",
      inputVersion: "i1",
      plan: {},
      caps: {},
      origin: { artifactRoot: "/x" },
      units: ["a", "b", "c", "d"],
      now,
    });
    const before = walCommits(path);
    const round = await store.claimUnits("R", [{ unit: "a" }, { unit: "b" }], "w1", 60_000, now);
    expect(round.claims).toHaveLength(2);
    expect(walCommits(path) - before).toBe(1);
    await store.claimUnit("R", "c", "w1", 60_000, now);
    await store.claimUnit("R", "d", "w1", 60_000, now);
    expect(walCommits(path) - before).toBe(3);
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

/**
 * Commits in the WAL's current generation: frames whose header carries the
 * database size after a commit (non-zero only on a transaction's last frame)
 * and the WAL header's salts (older generations' frames keep other salts).
 */
function walCommits(dbPath: string): number {
  const wal = readFileSync(`${dbPath}-wal`);
  const pageSize = wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits++;
  }
  return commits;
}
