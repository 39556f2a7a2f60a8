/**
 * An attempt number is never handed out twice, also after a power loss that
 * cut the SQLite WAL back to its last fsync. Real processes: the worker runs
 * under an LD_PRELOAD shim (test/fixtures/fsync-snapshot.c) that, on every
 * fsync of the store's files, copies the file as it is then, so its snapshot
 * directory holds at every moment exactly what a power cut would leave. The
 * handler, once its attempt has started and written into its attempt
 * directory, copies that snapshot aside and kills its own process: the power
 * goes. The test puts the store back as the snapshot has it (the database and
 * its WAL; the -shm index is rebuilt from them, and the rollback journal of
 * the store's creation was deleted before the cut), keeps the artifact root
 * as it was (what the attempt did outside the store survives), and resumes.
 * The next claim must be attempt 2 with a fresh directory: with the claim
 * committed at synchronous=NORMAL, the resumed run claimed a1 again.
 */
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it, vi } from "vitest";
import { SqliteStore } from "@taskspec/runtime";
import { runCli } from "./runtime-harness.js";
import { describeIfAvailable } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 120_000 });

const SHIM_SOURCE = fileURLToPath(new URL("./fixtures/fsync-snapshot.c", import.meta.url));

const CONTRACT = `contract: 1
task:
  id: cut
  version: 1
  goal: A unit whose attempt has started when the power goes
  outputs: [out]
  done: [ok]
budgets:
  retries: 2
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  step:
    produces: [out]
    timeout: 1m
`;

// In-process (--isolation none): the handler stands for the machine here, it cuts the power.
const HANDLERS = `import { appendFileSync, cpSync } from "node:fs";
export default {
  units: {
    step: async (ctx) => {
      appendFileSync(process.env.CUT_LOG, ctx.attempt.id + "\\n");
      await ctx.write("out", "written by " + ctx.attempt.id);
      if (process.env.CUT_TO) {
        cpSync(process.env.FSYNC_SNAPSHOT_DIR, process.env.CUT_TO, { recursive: true });
        process.kill(process.pid, "SIGKILL");
      }
      return {};
    },
  },
  tools: {},
};
`;

/** The shim built for this machine, or why it cannot be. */
function buildShim(dir: string): { path: string } | { missing: string } {
  const path = join(dir, "fsync-snapshot.so");
  const cc = spawnSync("cc", ["-shared", "-fPIC", "-O2", "-o", path, SHIM_SOURCE, "-ldl"], { encoding: "utf8" });
  if (cc.error || cc.status !== 0)
    return { missing: `a C compiler to build the fsync shim (cc: ${cc.error?.message ?? cc.stderr.trim()})` };
  return { path };
}

const shimDir = mkdtempSync(join(tmpdir(), "taskspec-fsync-shim-"));
const shim = process.platform === "linux" ? buildShim(shimDir) : { missing: "Linux (LD_PRELOAD and /proc/self/fd)" };

describeIfAvailable(
  "a power loss right after a claim (fsync-snapshot shim, real processes)",
  "missing" in shim ? shim.missing : undefined,
  () => {
    it("the attempt that started before the power loss keeps its number: the next claim is a2 with a fresh directory", async () => {
      const dir = mkdtempSync(join(tmpdir(), "taskspec-power-loss-"));
      writeFileSync(join(dir, "cut.task.yaml"), CONTRACT);
      writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
      const db = join(dir, "store.db");
      const snap = join(dir, "fsynced");
      const cut = join(dir, "at-the-cut");
      mkdirSync(snap);
      const log = join(dir, "attempts.log");

      const first = await runCli(
        ["run", join(dir, "cut.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", "R"],
        {
          TASKSPEC_ISOLATION: "none",
          LD_PRELOAD: (shim as { path: string }).path,
          FSYNC_WATCH: db,
          FSYNC_SNAPSHOT_DIR: snap,
          CUT_TO: cut,
          CUT_LOG: log,
        },
        `sqlite:${db}`,
      );
      expect(first.signal).toBe("SIGKILL");
      // the shim saw the store's fsyncs (a shim that never loaded would leave nothing to restore)
      expect(readFileSync(join(cut, "fsync.log"), "utf8")).toMatch(/store\.db-wal/);

      // the machine comes back: the store as far as it was fsynced, the attempt's files as they were
      for (const f of ["store.db", "store.db-wal", "store.db-shm", "store.db-journal"]) rmSync(join(dir, f), { force: true });
      copyFileSync(join(cut, "store.db"), db);
      copyFileSync(join(cut, "store.db-wal"), `${db}-wal`);

      const second = await runCli(["resume", "R"], { TASKSPEC_ISOLATION: "none", CUT_LOG: log }, `sqlite:${db}`);
      expect(second.code, second.stdout + second.stderr).toBe(0);
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["a1", "a2"]);

      const s = new SqliteStore({ path: db });
      await s.init();
      const [record] = await s.getRecords("R", { unit: "step", status: "current" });
      expect(record?.attempt).toBe(2);
      const [out] = await s.listArtifacts("R", { recordId: record!.id });
      expect(out?.path).toBe("runs/R/step/a2/out");
      await s.close();
      // a1's directory is as a1 left it: nothing of a2 was written into it
      expect(readFileSync(join(dir, "artifacts/runs/R/step/a1/out"), "utf8")).toBe("written by a1");
      expect(readFileSync(join(dir, "artifacts/runs/R/step/a2/out"), "utf8")).toBe("written by a2");
    });

    it("a recovery lease's token, synced before its lookup, is never handed out again; unsynced, the power loss takes it back", async () => {
      // one process per case: create a run, take a recovery lease, sync or not, then the power goes
      const runtime = new URL("../runtime/dist/index.js", import.meta.url).href;
      const script = `import { cpSync } from "node:fs";
import { SqliteStore } from ${JSON.stringify(runtime)};
const s = new SqliteStore({ path: process.env.DB });
await s.init();
const now = new Date().toISOString();
await s.createRun({ run: "R", taskId: "t", planVersion: "p", inputVersion: "i", plan: {}, caps: {}, units: ["u"], origin: { artifactRoot: "/x" }, now });
const c = await s.claimUnit("R", "u", "w1", 1, now, undefined, { recovery: true }); // expired by the time the machine is back
if (process.env.SYNC === "1") await s.sync();
process.stdout.write(String(c.token));
cpSync(process.env.FSYNC_SNAPSHOT_DIR, process.env.CUT_TO, { recursive: true });
process.kill(process.pid, "SIGKILL");
`;
      const tokenAfterCut = async (sync: boolean): Promise<{ before: number; after: number }> => {
        const dir = mkdtempSync(join(tmpdir(), "taskspec-power-loss-token-"));
        const db = join(dir, "store.db");
        const snap = join(dir, "fsynced");
        const cut = join(dir, "at-the-cut");
        mkdirSync(snap);
        writeFileSync(join(dir, "claim.mjs"), script);
        const out = await new Promise<string>((resolve) => {
          const child = spawn(process.execPath, [join(dir, "claim.mjs")], {
            env: {
              ...process.env,
              DB: db,
              SYNC: sync ? "1" : "0",
              LD_PRELOAD: (shim as { path: string }).path,
              FSYNC_WATCH: db,
              FSYNC_SNAPSHOT_DIR: snap,
              CUT_TO: cut,
            },
            stdio: ["ignore", "pipe", "inherit"],
          });
          let text = "";
          child.stdout.on("data", (d: Buffer) => (text += d.toString()));
          child.on("close", () => resolve(text));
        });
        for (const f of ["store.db", "store.db-wal", "store.db-shm", "store.db-journal"]) rmSync(join(dir, f), { force: true });
        copyFileSync(join(cut, "store.db"), db);
        copyFileSync(join(cut, "store.db-wal"), `${db}-wal`);
        const s = new SqliteStore({ path: db });
        await s.init();
        const again = await s.claimUnit("R", "u", "w2", 60_000, new Date().toISOString(), undefined, { recovery: true });
        await s.close();
        return { before: Number(out), after: again.token };
      };
      const unsynced = await tokenAfterCut(false);
      expect(unsynced.after).toBe(unsynced.before); // the model bites: the lost commit's token comes back
      const synced = await tokenAfterCut(true);
      expect(synced.after).toBeGreaterThan(synced.before);
    });
  },
);
