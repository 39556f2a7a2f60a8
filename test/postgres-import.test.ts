/**
 * A run bundle from a SQLite store imported into PostgreSQL, its artifacts
 * into the database's own blobs (`--artifacts pg:`): the imported run reads
 * as the original (status, show, events, handoff: the same JSON), a second
 * import of it is refused, and no worker of the PostgreSQL store drives it.
 * Needs TASKSPEC_PG_URL (scripts/with-postgres.sh); skips loudly without it.
 */
import { join } from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { harness, runArgs, runCli, type Harness } from "./runtime-harness.js";
import { viewsOf } from "./run-bundle-views.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

let h: Harness | undefined;
afterAll(async () => h?.stop());

describeIfAvailable("run bundles: SQLite to PostgreSQL", postgresMissing(), () => {
  it("the imported run reads as the original, a second import is refused, and workers leave it alone", async () => {
    h = await harness();
    const ran = await h.cli(runArgs("G1"));
    expect(ran.code, ran.stderr).toBe(3);
    const bundle = join(h.dir, "g1.bundle.json");
    expect((await h.cli(["handoff", "G1", "--bundle", bundle])).code).toBe(0);

    const pg = `${process.env.TASKSPEC_PG_URL}?schema=import_${process.pid}_${Date.now()}`;
    const inPg = (args: string[]) => runCli(args, h!.env, pg);
    const imported = await inPg(["import", bundle, "--artifacts", "pg:"]);
    expect(imported.code, imported.stderr).toBe(0);
    const copy = await viewsOf(inPg, "G1");
    expect(copy).toEqual(await viewsOf(h.cli, "G1"));

    const again = await inPg(["import", bundle, "--artifacts", "pg:"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("run G1 already exists in this store");

    const worker = await inPg(["worker", "--run", "G1"]);
    expect(worker.code).toBe(1);
    expect(worker.stderr).toContain("was imported from a run bundle");
    const idle = await inPg(["worker", "--exit-when-idle"]);
    expect(idle.code, idle.stderr).toBe(0);
    // nothing recorded on it: no attempt, no skip
    expect((await inPg(["events", "G1", "--format", "json"])).stdout).toBe(copy.events);
  });
});
