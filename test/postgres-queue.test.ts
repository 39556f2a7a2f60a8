/**
 * The work queue across runs, with real processes on one PostgreSQL store:
 * `taskspec submit` records runs without working on them; one `taskspec
 * worker` serves them all, woken by the submission (LISTEN/NOTIFY), visiting
 * them fairly: every run submitted at once starts before any of them ends
 * (a worker that drives runs one after the other finishes the first before
 * it starts the second). `submit --wait` exits as `run` would. Needs
 * TASKSPEC_PG_URL (scripts/with-postgres.sh).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it, vi } from "vitest";
import { compile } from "../compiler/src/index.js";
import { engineCore } from "../runtime/src/engine/run-plan.js";
import { ensureRun } from "../runtime/src/engine/worker.js";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 180_000 });

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const url = process.env.TASKSPEC_PG_URL;
const RUNS = 4;
const UNITS = 5;
const UNIT_MS = 600;

const CONTRACT = `contract: 1
task:
  id: many
  version: 1
  goal: independent units of 600 ms
  outputs: [${Array.from({ length: UNITS }, (_, i) => `out-${i}`).join(", ")}]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  model_calls: 10
  tool_calls: 10
  tokens: 1000
  retries: 2
units:
${Array.from({ length: UNITS }, (_, i) => `  u${i}:\n    produces: [out-${i}]`).join("\n")}
`;

const HANDLERS = `const units = {};
for (let i = 0; i < ${UNITS}; i++)
  units["u" + i] = async (ctx) => {
    await new Promise((r) => setTimeout(r, ${UNIT_MS}));
    await ctx.write("out-" + i, "{}");
    return {};
  };
export default { units, tools: {} };
`;

function cli(args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; done: Promise<number | null>; out: () => string } {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  return { child, done: new Promise((r) => child.on("close", (code) => r(code))), out: () => out };
}

/** Many runs at once (scaled down from bench/postgres/queue-fairness.js): chains of 250 ms units, so no run ends in one visit. */
const MANY = 8;
const CHAIN = `contract: 1
task:
  id: chain
  version: 1
  goal: three units one after the other
  outputs: [c2]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  model_calls: 10
  tool_calls: 10
  tokens: 1000
  retries: 0
units:
  c0:
    produces: [c0]
  c1:
    needs: { c0: content }
    produces: [c1]
  c2:
    needs: { c1: content }
    produces: [c2]
`;
const CHAIN_HANDLERS = `const unit = (name) => async (ctx) => { await new Promise((r) => setTimeout(r, 250)); await ctx.write(name, "{}"); return {}; };
export default { units: { c0: unit("c0"), c1: unit("c1"), c2: unit("c2") }, tools: {} };
`;

describeIfAvailable("the work queue on PostgreSQL (real processes)", postgresMissing(), () => {
  it("many runs recorded at once, two workers: the last one submitted starts before any run ends", async () => {
    const dir = mkdtempSync(join(tmpdir(), "taskspec-queue-many-"));
    writeFileSync(join(dir, "chain.task.yaml"), CHAIN);
    writeFileSync(join(dir, "handlers.mjs"), CHAIN_HANDLERS);
    const schema = `qm_${process.pid}_${Date.now()}`;
    const store = `${url}?schema=${schema}`;
    const env = { ...process.env, TASKSPEC_ISOLATION: "none", TASKSPEC_CRASH_AT: "" };
    const s = new PostgresStore({ connectionString: url!, schema });
    await s.init();
    const plan = compile(CHAIN).plan!;
    for (let i = 0; i < MANY; i++) {
      const core = engineCore({
        store: s,
        plan,
        handlers: { units: {}, tools: {} },
        run: `M${i}`,
        artifacts: join(dir, "artifacts"),
        log: () => {},
      });
      await ensureRun(core, { contract: join(dir, "chain.task.yaml"), handlers: join(dir, "handlers.mjs") });
    }
    try {
      const args = ["worker", "--store", store, "--concurrency", "2", "--slice", "500ms", "--poll", "200ms", "--exit-when-idle"];
      const workers = [cli(args, env), cli(args, env)];
      for (const w of workers) expect(await w.done, w.out()).toBe(0);
      const firstLease: number[] = [];
      const ends: number[] = [];
      for (let i = 0; i < MANY; i++) {
        expect((await s.getRun(`M${i}`))?.status).toBe("done");
        firstLease.push(Date.parse((await s.listEvents(`M${i}`, { type: "leased" }))[0]!.at));
        ends.push(Date.parse((await s.listEvents(`M${i}`, { type: "run-done" }))[0]!.at));
      }
      // the bound of docs/operator.md: every run's first visit within ceil(R / C) rounds of one worker,
      // and a run here needs more visits than that to end (a worker visits every other run before it visits one again)
      expect(firstLease[MANY - 1]!).toBeLessThan(Math.min(...ends));
    } finally {
      await s.close();
    }
  });

  it("runs submitted at once are all started before any ends; submit --wait exits 0 when its run is done", async () => {
    const dir = mkdtempSync(join(tmpdir(), "taskspec-queue-"));
    writeFileSync(join(dir, "many.task.yaml"), CONTRACT);
    writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
    const schema = `q_${process.pid}_${Date.now()}`;
    const store = `${url}?schema=${schema}`;
    const env = { ...process.env, TASKSPEC_ISOLATION: "none", TASKSPEC_CRASH_AT: "" };
    const submit = (i: number, extra: string[] = []) =>
      cli(
        [
          "submit",
          join(dir, "many.task.yaml"),
          "--handlers",
          join(dir, "handlers.mjs"),
          "--store",
          store,
          "--run",
          `R${i}`,
          "--artifacts",
          "pg:",
          ...extra,
        ],
        env,
      );
    // the first runs are recorded as submit records them (a CLI process each costs seconds on a busy machine),
    // one after the other: their order is the order the queue keeps
    const s = new PostgresStore({ connectionString: url!, schema });
    await s.init();
    const plan = compile(CONTRACT).plan!;
    for (let i = 0; i < RUNS - 1; i++) {
      const core = engineCore({
        store: s,
        plan,
        handlers: { units: {}, tools: {} },
        run: `R${i}`,
        artifacts: join(dir, "artifacts"),
        log: () => {},
      });
      await ensureRun(core, { contract: join(dir, "many.task.yaml"), handlers: join(dir, "handlers.mjs") });
    }
    try {
      // nobody works on a submitted run
      expect((await s.listRuns()).map((r) => [r.run, r.status])).toEqual(Array.from({ length: RUNS - 1 }, (_, i) => [`R${i}`, "active"]));
      expect(await s.listEvents("R0", { type: "leased" })).toEqual([]);
      // a long poll: the last run reaches the worker by its submission's NOTIFY
      const worker = cli(["worker", "--store", store, "--concurrency", "2", "--slice", "2s", "--poll", "60s", "--exit-when-idle"], env);
      const waiting = submit(RUNS - 1, ["--wait", "--poll", "200ms"]);
      expect(await waiting.done, waiting.out()).toBe(0);
      expect(waiting.out()).toMatch(new RegExp(`run R${RUNS - 1}: done`));
      expect(await worker.done, worker.out()).toBe(0);

      const firstClaim: number[] = [];
      const ends: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        expect((await s.getRun(`R${i}`))?.status).toBe("done");
        firstClaim.push(Date.parse((await s.listEvents(`R${i}`, { type: "leased" }))[0]!.at));
        ends.push(Date.parse((await s.listEvents(`R${i}`, { type: "run-done" }))[0]!.at));
      }
      // fair: the last run submitted started before the first one ended
      expect(Math.max(...firstClaim)).toBeLessThan(Math.min(...ends));
    } finally {
      await s.close();
    }
  });
});
