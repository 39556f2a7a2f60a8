/**
 * Several worker processes on one run in a real PostgreSQL store: `taskspec
 * run` starts the run and works on it, two `taskspec worker` processes join;
 * one is SIGKILLed mid-unit, another is paused (SIGSTOP) past its lease and
 * resumed. Every unit commits exactly once and the final state equals what a
 * single worker produces. Needs TASKSPEC_PG_URL (scripts/with-postgres.sh);
 * skips loudly without it (fails under TASKSPEC_REQUIRE_ALL=1).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it, vi } from "vitest";
import { compile } from "../compiler/src/index.js";
import { engineCore } from "../runtime/src/engine/run-plan.js";
import { ensureRun } from "../runtime/src/engine/worker.js";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 240_000 });

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const url = process.env.TASKSPEC_PG_URL;
const UNITS = 24;

function contract(): string {
  const units = Array.from({ length: UNITS }, (_, i) => `  u${i}:\n    produces: [out-${i}]`);
  const outputs = Array.from({ length: UNITS }, (_, i) => `out-${i}`).join(", ");
  return `contract: 1\ntask:\n  id: wide\n  version: 1\n  goal: independent units\n  outputs: [${outputs}]\n  done: [{ check: "count(result.stale_outputs) == 0" }]\nbudgets:\n  model_calls: 1000\n  tool_calls: 1000\n  tokens: 100000\n  retries: 2\nunits:\n${units.join("\n")}\n`;
}

// Each invocation is logged as "<unit> <pid>" before the handler's work (a delay). A process given
// TASKSPEC_TEST_HOLD_MS holds its first unit that long, so the test signals it inside that unit
// rather than racing the unit's end (a worker that committed before the signal made this flaky).
const HANDLERS = `import { appendFileSync } from "node:fs";
const units = {};
let held = false;
for (let i = 0; i < ${UNITS}; i++) units["u" + i] = async (ctx) => {
  appendFileSync(process.env.TASKSPEC_TEST_LOG, "u" + i + " " + process.pid + "\\n");
  const hold = !held && Number(process.env.TASKSPEC_TEST_HOLD_MS || 0);
  held = true;
  await new Promise((r) => setTimeout(r, hold || Number(process.env.TASKSPEC_TEST_DELAY_MS)));
  await ctx.write("out-" + i, JSON.stringify({ i }));
  return { i };
};
export default { units, tools: {} };
`;

/** A scratch folder with the contract, the handlers and an empty invocation log, and a fresh schema name. */
function workspace(): { dir: string; log: string; schema: string } {
  const dir = mkdtempSync(join(tmpdir(), "taskspec-pgw-"));
  writeFileSync(join(dir, "wide.task.yaml"), contract());
  writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
  const log = join(dir, "invocations.log");
  writeFileSync(log, "");
  return { dir, log, schema: `w_${process.pid}_${Date.now()}` };
}

describeIfAvailable("several workers on one PostgreSQL run (real processes)", postgresMissing(), () => {
  it("one killed mid-unit, one paused past its lease: every unit commits once, final state as with one worker", async () => {
    if (!url) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
    const { dir, log, schema } = workspace();
    const store = `${url}?schema=${schema}`;
    const env = {
      ...process.env,
      TASKSPEC_ISOLATION: "none" /* the handlers log outside their attempt directory (runtime-harness.ts) */,
      TASKSPEC_TEST_LOG: log,
      TASKSPEC_TEST_DELAY_MS: "1000",
      TASKSPEC_CRASH_AT: "",
    };
    const procs: Array<{ child: ChildProcess; done: Promise<number | null>; err: () => string }> = [];
    const start = (args: string[], extraEnv: NodeJS.ProcessEnv = {}) => {
      const child = spawn(process.execPath, [CLI, ...args, "--store", store, "--lease-ttl", "3s", "--concurrency", "1"], {
        env: { ...env, ...extraEnv },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let err = "";
      child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
      child.stdout!.resume();
      const p = { child, done: new Promise<number | null>((r) => child.on("close", (code) => r(code))), err: () => err };
      procs.push(p);
      return p;
    };
    const invocations = () =>
      readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(" ") as [string, string]);
    const waitFor = async (pred: () => boolean) => {
      // Generous: CLI processes take seconds to start on a loaded machine.
      for (let i = 0; i < 2400 && !pred(); i++) await new Promise((r) => setTimeout(r, 50));
      expect(pred()).toBe(true);
    };

    start([
      "run",
      join(dir, "wide.task.yaml"),
      "--handlers",
      join(dir, "handlers.mjs"),
      "--run",
      "R",
      "--artifacts",
      join(dir, "artifacts"),
    ]);
    await waitFor(() => invocations().length > 0);
    const holding = { TASKSPEC_TEST_HOLD_MS: "10000" };
    const doomed = start(["worker", "--run", "R", "--poll", "200ms"], holding);
    const paused = start(["worker", "--run", "R", "--poll", "200ms"], holding);
    const startedBy = (p: { child: ChildProcess }) => () => invocations().some(([, pid]) => pid === String(p.child.pid));
    const firstUnitOf = (p: { child: ChildProcess }) => invocations().find(([, pid]) => pid === String(p.child.pid))![0];
    await waitFor(startedBy(doomed));
    doomed.child.kill("SIGKILL"); // inside its first unit, which it holds for 10 s
    await waitFor(startedBy(paused));
    paused.child.kill("SIGSTOP");
    const pausedIn = firstUnitOf(paused);
    // past its 3 s lease another worker takes the unit over; wake the paused one only then. Counted
    // from the pause: the paused worker's first unit may be the one it took over from the killed one
    // (whose invocation of it is already in the log), and waking it before its lease ran out would
    // leave it nothing stale to be refused.
    const before = invocations().length;
    await waitFor(() =>
      invocations()
        .slice(before)
        .some(([u, pid]) => u === pausedIn && pid !== String(paused.child.pid)),
    );
    paused.child.kill("SIGCONT");

    const codes = await Promise.all(procs.map((p) => p.done));
    expect(codes[1]).toBe(null); // killed
    expect([codes[0], codes[2]], procs.map((p) => p.err()).join("\n---\n")).toEqual([0, 0]);

    const s = new PostgresStore({ connectionString: url, schema });
    try {
      expect((await s.getRun("R"))?.status).toBe("done");
      const unitCommits = (await s.listCheckpoints("R"))
        .filter((c) => c.kind === "unit")
        .flatMap((c) => c.delta.filter((d) => d.state === "succeeded").map((d) => d.unit));
      expect(unitCommits.sort()).toEqual(Array.from({ length: UNITS }, (_, i) => `u${i}`).sort());
      const current = await s.getRecords("R", { status: "current" });
      expect(current.map((r) => [r.unit, r.result]).sort()).toEqual(Array.from({ length: UNITS }, (_, i) => [`u${i}`, { i }]).sort());
      expect((await s.listArtifacts("R", { status: "committed" })).length).toBe(UNITS);
      // The units the killed and the paused worker had started ran again elsewhere, under new tokens.
      const byUnit = new Map<string, number>();
      for (const [u] of invocations()) byUnit.set(u, (byUnit.get(u) ?? 0) + 1);
      expect([...byUnit.values()].some((n) => n > 1)).toBe(true);
      const stale =
        (await s.listEvents("R", { type: "lease-taken-over" })).length + (await s.listEvents("R", { type: "lease-broken" })).length;
      expect(stale).toBeGreaterThan(0);
      // The paused worker woke up with a stale token: its renewal or its commit was refused, nothing it did was adopted.
      const refused = [
        ...(await s.listEvents("R", { type: "stale-commit-rejected" })),
        ...(await s.listEvents("R", { type: "stale-attempt-discarded" })),
      ];
      expect(refused.length).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });

  it("SIGTERM: the worker claims nothing new, commits the attempts in flight, holds no lease, exits 0; the run stays open for others", async () => {
    if (!url) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
    const { dir, log, schema } = workspace();
    const s = new PostgresStore({ connectionString: url, schema });
    try {
      await s.init();
      const plan = compile(contract()).plan!;
      const core = engineCore({
        store: s,
        plan,
        handlers: { units: {}, tools: {} },
        run: "R",
        artifacts: join(dir, "artifacts"),
        log: () => {},
      });
      await ensureRun(core, { contract: join(dir, "wide.task.yaml"), handlers: join(dir, "handlers.mjs") });
      const env = {
        ...process.env,
        TASKSPEC_ISOLATION: "none" /* the handlers log outside their attempt directory (runtime-harness.ts) */,
        TASKSPEC_TEST_LOG: log,
        TASKSPEC_TEST_DELAY_MS: "1500",
        TASKSPEC_CRASH_AT: "",
      };
      const child = spawn(process.execPath, [CLI, "worker", "--store", `${url}?schema=${schema}`, "--run", "R", "--concurrency", "2"], {
        env,
        stdio: ["ignore", "ignore", "pipe"],
      });
      let err = "";
      child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
      const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
      const started = () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean).length;
      for (let i = 0; i < 600 && started() < 2; i++) await new Promise((r) => setTimeout(r, 50));
      child.kill("SIGTERM");
      expect(await exited, err).toBe(0);
      expect(err).toMatch(/stopping: no new claims/);
      const facts = await s.loadFacts("R");
      expect(facts.leases).toEqual([]);
      expect(facts.run.status).toBe("active");
      const succeeded = facts.units.filter((u) => u.state === "succeeded").length;
      expect(succeeded).toBe(started());
      expect(succeeded).toBeLessThan(UNITS);
    } finally {
      await s.close();
    }
  });
});
