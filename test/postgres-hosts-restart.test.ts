/**
 * Several simulated hosts and a database that misbehaves: a `taskspec run`
 * and two `taskspec worker`s, each in its own mount and UTS namespace (its
 * own hostname, its scratch space on a private tmpfs, no shared artifact
 * directory), drive one run whose artifacts live in PostgreSQL (`pg:`) or
 * S3 (s3rver). Mid-run one worker is SIGKILLed inside a unit, every
 * connection of the workers is killed (`pg_terminate_backend`) and the
 * server is restarted (`pg_ctl restart -m immediate`). The run ends done:
 * every unit has exactly one current record, no file is corrupt. Needs
 * TASKSPEC_PG_URL, TASKSPEC_PG_CTL, TASKSPEC_S3_URL (scripts/with-postgres.sh)
 * and `unshare` (root); skips loudly without them.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { expect, it, vi } from "vitest";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { onHost, pgCtlAsOwner, unshareMissing } from "./simulated-hosts.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 200_000 });

const url = process.env["TASKSPEC_PG_URL"];
const s3 = process.env["TASKSPEC_S3_URL"];
const pgCtl = process.env["TASKSPEC_PG_CTL"];
const pgData = process.env["TASKSPEC_PG_DATA"];
const UNITS = 10;

const missing =
  postgresMissing() ??
  (s3 ? undefined : "TASKSPEC_S3_URL is not set (scripts/with-postgres.sh starts an S3 server)") ??
  (pgCtl && pgData ? undefined : "TASKSPEC_PG_CTL/TASKSPEC_PG_DATA are not set (scripts/with-postgres.sh sets them)") ??
  unshareMissing();

function contract(): string {
  const units = Array.from({ length: UNITS }, (_, i) => `  u${i}:\n    produces: [out-${i}]`);
  const outputs = Array.from({ length: UNITS }, (_, i) => `out-${i}`).join(", ");
  return `contract: 1\ntask:\n  id: restart\n  version: 1\n  goal: units on several hosts while the database restarts\n  outputs: [${outputs}]\n  done: [{ check: "count(result.stale_outputs) == 0" }]\nbudgets:\n  model_calls: 1000\n  tool_calls: 1000\n  tokens: 100000\n  retries: 3\nunits:\n${units.join("\n")}\n`;
}

// each invocation is logged as "<unit> <host>" before the unit's work (800 ms)
const HANDLERS = `import { appendFileSync } from "node:fs";
import { hostname } from "node:os";
const units = {};
for (let i = 0; i < ${UNITS}; i++) units["u" + i] = async (ctx) => {
  appendFileSync(process.env.TASKSPEC_TEST_LOG, "u" + i + " " + hostname() + "\\n");
  await new Promise((r) => setTimeout(r, 800));
  await ctx.write("out-" + i, JSON.stringify({ i, host: hostname() }));
  return { i };
};
export default { units, tools: {} };
`;

describeIfAvailable("hosts without a shared disk while PostgreSQL loses connections and restarts (real processes)", missing, () => {
  it.each([
    ["pg:", () => "pg:"],
    ["s3://", () => s3!.replace("s3://taskspec", `s3://taskspec/restart-${process.pid}-${Date.now()}`)],
  ])(
    "artifacts in %s: one host SIGKILLed, connections killed, server restarted; the run ends done, each unit once",
    async (_k, locationOf) => {
      const location = locationOf();
      const dir = mkdtempSync(join(tmpdir(), "taskspec-restart-"));
      writeFileSync(join(dir, "c.task.yaml"), contract());
      writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
      const log = join(dir, "invocations.log");
      writeFileSync(log, "");
      const schema = `rs_${process.pid}_${Date.now()}`;
      const store = `${url}?schema=${schema}`;
      const common = ["--store", store, "--concurrency", "1", "--lease-ttl", "3s"];
      const env = { TASKSPEC_TEST_LOG: log };
      const lines = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean);
      const waitFor = async (pred: () => boolean) => {
        for (let i = 0; i < 2400 && !pred(); i++) await new Promise((r) => setTimeout(r, 50));
        expect(pred()).toBe(true);
      };
      const hostDir = (h: string) => {
        const d = join(dir, h);
        mkdirSync(d, { recursive: true });
        return d;
      };
      const run = onHost(
        "host-a",
        ["run", join(dir, "c.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", "R", "--artifacts", location, ...common],
        hostDir("a"),
        env,
      );
      await waitFor(() => lines().length > 0);
      const doomed = onHost("host-b", ["worker", "--run", "R", "--poll", "200ms", ...common], hostDir("b"), env);
      const steady = onHost("host-c", ["worker", "--run", "R", "--poll", "200ms", ...common], hostDir("c"), env);
      // the doomed host dies inside a unit of its own
      await waitFor(() => lines().some((l) => l.endsWith(" host-b")));
      doomed.child.kill("SIGKILL");
      // every connection of the workers is ended by the server, then the server restarts at once
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const killed = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'taskspec%'");
      expect(killed.rowCount).toBeGreaterThan(0);
      await waitFor(() => lines().length >= 4);
      // the faults land mid-run: the run is still active when the server restarts
      expect((await admin.query(`SELECT status FROM ${schema}.runs WHERE run = 'R'`)).rows[0].status).toBe("active");
      await admin.end();
      const restartAt = new Date().toISOString();
      const restarted = pgCtlAsOwner(pgCtl!, ["restart", "-D", pgData!, "-m", "immediate", "-w", "-l", join(pgData!, "..", "log")]);
      expect(restarted.status).toBe(0);

      // bounded: a run that does not end says what its hosts printed instead of hanging the suite
      const deadline = setTimeout(() => [run, steady].forEach((p) => p.child.kill("SIGKILL")), 150_000);
      const [ran, worked] = await Promise.all([run.done, steady.done]);
      clearTimeout(deadline);
      expect(ran, run.err()).toBe(0);
      expect(worked, steady.err()).toBe(0);
      const s = new PostgresStore({ connectionString: url!, schema });
      try {
        expect((await s.getRun("R"))?.status).toBe("done");
        const current = await s.getRecords("R", { status: "current" });
        expect(current.map((r) => r.unit).sort()).toEqual(Array.from({ length: UNITS }, (_, i) => `u${i}`).sort());
        expect(await s.listArtifacts("R", { status: "corrupt" })).toEqual([]);
        // committed once each: a unit's records other than its current one are only failed attempts
        const all = await s.getRecords("R");
        expect(all.filter((r) => r.status === "superseded")).toEqual([]);
        expect(current.filter((r) => r.createdAt > restartAt).length, "units committed after the restart").toBeGreaterThan(0);
      } finally {
        await s.close();
      }
    },
  );
});
