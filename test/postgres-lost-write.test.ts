/**
 * A write that loses its PostgreSQL connection says so plainly: what was
 * being written, that it was not made (or that its outcome is unknown), that
 * everything committed before it is kept, and what to do. The connection is
 * killed by the server (`pg_terminate_backend`) while the write waits inside
 * its transaction for a row another session holds: through the store, through
 * the real CLI (`taskspec budget`, exit 2, one line, no stack), and for an
 * artifact written into PostgreSQL (`pg:`). Needs TASKSPEC_PG_URL
 * (scripts/with-postgres.sh); skips loudly without it.
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, expect, it, vi } from "vitest";
import { openArtifactStorage } from "../runtime/src/artifacts/open.js";
import { StoreUnavailableError } from "../runtime/src/errors.js";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { isStoreUnavailable } from "../runtime/src/store/unavailable.js";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli } from "./runtime-harness.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 120_000 });

const url = process.env["TASKSPEC_PG_URL"]!;
const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));

/** Holds `lockSql` in an open transaction until `release`; `kill` ends the backends of `app` that wait on a lock. */
async function blocker(schema: string, lockSql: string) {
  const holder = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
  await holder.connect();
  await holder.query("BEGIN");
  await holder.query(lockSql);
  return {
    async killWaiting(app: string): Promise<number> {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        for (let i = 0; i < 200; i++) {
          const { rows } = await admin.query(
            "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
            [app],
          );
          if (rows.length > 0) return rows.length;
          await new Promise((r) => setTimeout(r, 50));
        }
        return 0;
      } finally {
        await admin.end();
      }
    },
    release: async () => {
      await holder.query("ROLLBACK");
      await holder.end();
    },
  };
}

describeIfAvailable("a write that loses its PostgreSQL connection (pg_terminate_backend)", postgresMissing(), () => {
  const schema = `lost_${process.pid}_${Date.now()}`;
  const store = new PostgresStore({ connectionString: url, schema, applicationName: "lost-write-test" });
  afterAll(() => store.close());

  it("through the store: names the write, says it was not made and that what was committed is kept", async () => {
    await store.init();
    const now = new Date().toISOString();
    await store.createRun({
      run: "R",
      taskId: "t",
      planVersion: "p",
      inputVersion: "i",
      plan: {},
      caps: { tokens: 1 },
      units: ["a"],
      origin: { artifactRoot: "pg:" },
      now,
    });
    await store.setCaps("R", { tokens: 2 }, { at: now, type: "decision" });
    const b = await blocker(schema, "SELECT * FROM runs WHERE run = 'R' FOR UPDATE");
    const write = store.setCaps("R", { tokens: 3 }, { at: now, type: "decision" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(await b.killWaiting("lost-write-test")).toBe(1);
    const err = await write;
    await b.release();
    expect(err).toBeInstanceOf(StoreUnavailableError);
    expect((err as StoreUnavailableError).message).toMatch(
      /^the connection to the PostgreSQL store was lost while writing the budget caps of run R \(terminating connection due to administrator command\): that write was not made, and everything committed before it is kept; repeat the command once the server is reachable$/,
    );
    expect((await store.getRun("R"))?.caps).toEqual({ tokens: 2 });
    await store.setCaps("R", { tokens: 3 }, { at: now, type: "decision" }); // repeated, it is made
    expect((await store.getRun("R"))?.caps).toEqual({ tokens: 3 });
  });

  it("through the CLI: one line naming the store and the write, exit 2, no stack; the decision made afterwards", async () => {
    const storeUrl = `${url}?schema=${schema}`;
    const cwd = mkdtempSync(join(tmpdir(), "taskspec-lost-"));
    const run = await runCli(
      ["run", join(FIXTURES, "chain.task.yaml"), "--handlers", join(FIXTURES, "chain-handlers.mjs"), "--run", "C"],
      LEGACY_FIXTURE_ENV,
      storeUrl,
      cwd,
    );
    expect(run.code, run.stderr).toBe(0);
    const b = await blocker(schema, "SELECT * FROM runs WHERE run = 'C' FOR UPDATE");
    const child = spawn(process.execPath, [CLI, "budget", "C", "--cap", "tokens=5000", "--reason", "more", "--store", storeUrl], { cwd });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<number | null>((r) => child.on("exit", r));
    expect(await b.killWaiting("taskspec")).toBeGreaterThan(0);
    const code = await exit;
    await b.release();
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(
      /^taskspec: the store postgres:\/\/\S+ lost its connection during a write: that write was not made, and everything committed before it is kept; repeat the command once the server is reachable \(writing the budget caps of run C: terminating connection due to administrator command\)\n$/,
    );
    const again = await runCli(["budget", "C", "--cap", "tokens=5000", "--reason", "more"], {}, storeUrl, cwd);
    expect(again.code, again.stderr).toBe(0);
  });

  it("an artifact written into PostgreSQL (pg:): names the file, its outcome unknown, and counts as the store's hiccup", async () => {
    const storage = await openArtifactStorage("pg:", { storeUrl: `${url}?schema=${schema}` });
    const b = await blocker(schema, "LOCK TABLE artifact_files IN EXCLUSIVE MODE");
    const write = storage.write("runs/R/a/a1", "out.json", new TextEncoder().encode("{}")).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(await b.killWaiting("taskspec-artifacts")).toBe(1);
    const err = await write;
    await b.release();
    expect(isStoreUnavailable(err)).toBe(true);
    expect((err as Error).message).toMatch(
      /^the connection to the PostgreSQL store was lost while committing artifact runs\/R\/a\/a1\/out.json \(terminating connection due to administrator command\): everything committed before it is kept, but whether this write was committed is unknown/,
    );
    await storage.close?.();
  });
});
