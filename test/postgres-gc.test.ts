/**
 * `taskspec gc` on PostgreSQL with artifacts in PostgreSQL (`pg:`) and in
 * S3-compatible storage (the s3rver scripts/with-postgres.sh starts): the
 * real CLI runs, re-runs and resumes a run on each backend, an orphan is
 * written beside it, then gc removes the superseded file and the orphan from
 * that backend (a blob whose bytes a current file still names stays), keeps
 * the current files, and `status` explains the collection. Needs
 * TASKSPEC_PG_URL and TASKSPEC_S3_URL; skips loudly without them.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { expect, it, vi } from "vitest";
import { openArtifactStorage } from "../runtime/src/artifacts/open.js";
import { FIXTURES, LEGACY_FIXTURE_ENV, runCli } from "./runtime-harness.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 240_000 });

const url = process.env["TASKSPEC_PG_URL"];
const s3 = process.env["TASKSPEC_S3_URL"];
const missing = postgresMissing() ?? (s3 ? undefined : "TASKSPEC_S3_URL is not set (scripts/with-postgres.sh starts an S3 server)");
const contract = join(FIXTURES, "chain.task.yaml");
const handlers = join(FIXTURES, "chain-handlers.mjs");

describeIfAvailable("taskspec gc on PostgreSQL, artifacts in pg: and S3 (real processes)", missing, () => {
  const schema = `gc_${process.pid}_${Date.now()}`;
  const store = `${url}?schema=${schema}`;
  const cwd = mkdtempSync(join(tmpdir(), "taskspec-pg-gc-"));
  const cli = (args: string[]) => runCli(args, LEGACY_FIXTURE_ENV, store, cwd);
  const prefix = `gc${process.pid}-${Date.now()}`;
  const backends: Array<[string, string]> = [
    ["P1", "pg:"],
    ["S1", s3!.replace("s3://taskspec", `s3://taskspec/${prefix}`)],
  ];

  it("removes the superseded file and the orphan from each backend, keeps current files and shared blobs; status explains it", async () => {
    for (const [run, location] of backends) {
      const first = await cli(["run", contract, "--handlers", handlers, "--run", run, "--artifacts", location]);
      expect(first.code, first.stderr).toBe(0);
      expect((await cli(["rerun", run, "b"])).code).toBe(0);
      expect((await cli(["resume", run])).code).toBe(0);
      const storage = await openArtifactStorage(location, { storeUrl: store });
      await storage.write(`runs/${run}/b/a9`, "stray", new TextEncoder().encode(`orphan of ${run}`));
      await storage.close?.();
    }
    await new Promise((r) => setTimeout(r, 1100));
    const gc = await cli(["gc", "--older-than", "1s", "--format", "json"]);
    expect(gc.code, gc.stderr).toBe(0);
    const outcomes = JSON.parse(gc.stdout).runs as Array<{ run: string; state: string; superseded: string[]; orphans: string[] }>;
    for (const [run, location] of backends) {
      expect(outcomes.find((o) => o.run === run)).toMatchObject({
        state: "collected",
        superseded: [`runs/${run}/b/a1/b-out`],
        orphans: [`runs/${run}/b/a9/stray`],
      });
      const storage = await openArtifactStorage(location, { storeUrl: store });
      expect(await storage.listRunFiles(run)).toEqual([`runs/${run}/a/a1/a-out`, `runs/${run}/b/a2/b-out`, `runs/${run}/c/a1/c-out`]);
      await storage.close?.();
      const status = JSON.parse((await cli(["status", run, "--format", "json"])).stdout);
      expect(status.artifacts).toMatchObject({ current: 3, superseded: 1, orphan: 0, corrupt: 0 });
      expect(status.collected).toMatchObject({ times: 1, superseded: 1, orphans: 1 });
      expect(status.integrity.verified).toBe(true);
    }
    // b's first and second attempts wrote the same bytes: the blob stays for the second; the orphan's blob is gone
    const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}` });
    const { rows } = await pool.query(
      "SELECT (SELECT count(*) FROM artifact_files)::int AS files, (SELECT count(*) FROM artifact_blobs)::int AS blobs",
    );
    await pool.end();
    expect(rows[0]).toEqual({ files: 3, blobs: 3 });
  });
});
