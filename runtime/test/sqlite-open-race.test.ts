import { describe, expect, it, vi } from "vitest";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { SqliteStore } from "../src/store/sqlite.js";
import { SQLITE_MIGRATIONS } from "../src/store/sqlite-migrations.js";
import { FIXTURES, tempDir } from "./fixtures/load.js";

vi.setConfig({ testTimeout: 120_000 });

function openAll(paths: string[]): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(FIXTURES, "open-stores.mjs"), ...paths], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.on("close", () => resolve(out.trim()));
  });
}

describe("workers opening a new SQLite store together", () => {
  // Two resumes of one run start at once on a fresh file: before the version was
  // read inside the write lock, one of them ran a migration the other had applied
  // ("table meta already exists") and died before doing any work.
  it("migrate it once; none of them fails", async () => {
    const dir = tempDir();
    const paths = Array.from({ length: 60 }, (_, i) => join(dir, `s${i}.db`));
    const outs = await Promise.all([openAll(paths), openAll(paths), openAll(paths), openAll(paths)]);
    expect(outs).toEqual(Array(4).fill(`ok ${paths.length}`));
    const store = new SqliteStore({ path: paths[paths.length - 1]! });
    expect(await store.schemaVersion()).toBe(SQLITE_MIGRATIONS.length);
    await store.close();
  });
});
