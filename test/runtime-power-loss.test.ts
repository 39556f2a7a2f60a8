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
  tool_calls: 5
  model_calls: 5
tools:
  look: { class: read }
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  step:
    produces: [out]
    uses: [look]
    timeout: 1m
`;

// In-process (--isolation none): the handler stands for the machine here, it cuts the power. Before the
// cut it does CUT_ACT: writes into its attempt directory, calls a tool, charges a model call, or nothing.
const HANDLERS = `import { appendFileSync, cpSync } from "node:fs";
export default {
  units: {
    step: async (ctx) => {
      appendFileSync(process.env.CUT_LOG, ctx.attempt.id + "\\n");
      if (process.env.CUT_TO) {
        const act = process.env.CUT_ACT;
        if (act === "write") await ctx.write("out", "written by " + ctx.attempt.id);
        if (act === "tool") await ctx.tool("look", {});
        if (act === "charge") await ctx.charge({ model_calls: 1 });
        cpSync(process.env.FSYNC_SNAPSHOT_DIR, process.env.CUT_TO, { recursive: true });
        process.kill(process.pid, "SIGKILL");
      }
      await ctx.write("out", "written by " + ctx.attempt.id);
      return {};
    },
  },
  tools: { look: { call: async () => ({ seen: true }) } },
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
    // What leaves the store with the attempt's number or token makes its claim durable first; a step
    // that has done nothing outside the store lets its commit's fsync carry the claim (one fsync per
    // unit), so after a cut its number comes back, with nothing of it anywhere.
    it.each([
      { act: "write", what: "wrote into a1/", attempts: ["a1", "a2"] },
      { act: "tool", what: "called a tool (its id and token went out)", attempts: ["a1", "a2"] },
      { act: "charge", what: "charged a model call", attempts: ["a1", "a2"] },
      { act: "none", what: "did nothing outside the store", attempts: ["a1", "a1"] },
    ])("an attempt that $what when the power went: the next claim is $attempts.1", async ({ act, attempts }) => {
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
          CUT_ACT: act,
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
      expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(attempts);

      const last = attempts.at(-1)!;
      const s = new SqliteStore({ path: db });
      await s.init();
      const [record] = await s.getRecords("R", { unit: "step", status: "current" });
      expect(record?.attempt).toBe(Number(last.slice(1)));
      const [out] = await s.listArtifacts("R", { recordId: record!.id });
      expect(out?.path).toBe(`runs/R/step/${last}/out`);
      await s.close();
      expect(readFileSync(join(dir, `artifacts/runs/R/step/${last}/out`), "utf8")).toBe(`written by ${last}`);
      // a1's directory is as a1 left it: nothing of a2 was written into it
      if (act === "write") expect(readFileSync(join(dir, "artifacts/runs/R/step/a1/out"), "utf8")).toBe("written by a1");
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
