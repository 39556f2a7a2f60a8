/**
 * The 36-unit market-entry pack (specs/market-entry-pack.task.yaml, the example
 * handlers) on PostgreSQL with real processes: a single-worker baseline, then
 * the same contract with three workers, one SIGKILLed mid-unit and one paused
 * (SIGSTOP) past its lease and resumed. Every unit commits exactly once, the
 * woken worker's stale work is refused (an event in the store's log), and the
 * status figures and per-unit artifact hashes equal the baseline's (the
 * handlers are deterministic). Needs TASKSPEC_PG_URL (scripts/with-postgres.sh);
 * skips loudly without it (fails under TASKSPEC_REQUIRE_ALL=1).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect, it, vi } from "vitest";
import { writeCorpus } from "../examples/src/handlers/corpus.js";
import type { StatusReport } from "../runtime/src/operator/status.js";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 180_000 });

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const SPEC = fileURLToPath(new URL("../specs/market-entry-pack.task.yaml", import.meta.url));
const PACK = fileURLToPath(new URL("../examples/dist/handlers/market-entry-pack.js", import.meta.url));
const VERIFIERS = fileURLToPath(new URL("../examples/dist/verifiers/market-entry-pack.js", import.meta.url));
const UNITS = 36;
const url = process.env.TASKSPEC_PG_URL;

// The pack's handlers finish in milliseconds; this wrapper logs "<unit> <pid>" and
// waits before each one. A process given TASKSPEC_TEST_HOLD_MS holds its first unit
// that long, so the test can kill or pause it inside a handler without racing the
// handler's end (a worker that committed before the signal would make the test flaky).
const SLOW_PACK = `import { appendFileSync } from "node:fs";
import pack from ${JSON.stringify(pathToFileURL(PACK).href)};
let held = false;
const units = Object.fromEntries(Object.entries(pack.units).map(([id, handler]) => [id, async (ctx) => {
  appendFileSync(process.env.TASKSPEC_TEST_LOG, id + " " + process.pid + "\\n");
  const hold = !held && Number(process.env.TASKSPEC_TEST_HOLD_MS || 0);
  held = true;
  await new Promise((r) => setTimeout(r, hold || Number(process.env.TASKSPEC_TEST_DELAY_MS)));
  return handler(ctx);
}]));
export default { ...pack, units };
`;

interface Proc {
  child: ChildProcess;
  done: Promise<number | null>;
  out: () => string;
  err: () => string;
}

function workDir() {
  const dir = mkdtempSync(join(tmpdir(), "taskspec-pgme-"));
  writeCorpus(join(dir, "pages"));
  const log = join(dir, "started.log");
  writeFileSync(log, "");
  const env = {
    ...process.env,
    TASKSPEC_PAGES_DIR: join(dir, "pages"),
    TASKSPEC_WORKSPACE_DIR: join(dir, "workspace"),
    TASKSPEC_TEST_LOG: log,
    TASKSPEC_CRASH_AT: "",
    // the handlers log outside their attempt directory (runtime-harness.ts, LEGACY_FIXTURE_ENV)
    TASKSPEC_ISOLATION: "none",
  };
  return { dir, log, env };
}

function taskspec(args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (err += d.toString()));
  return { child, done: new Promise((r) => child.on("close", (code) => r(code))), out: () => out, err: () => err };
}

async function statusJson(store: string, env: NodeJS.ProcessEnv): Promise<StatusReport> {
  const p = taskspec(["status", "R", "--store", store, "--format", "json"], env);
  expect(await p.done, p.err()).toBe(0);
  return JSON.parse(p.out()) as StatusReport;
}

/** What a run must end with, whoever worked on it: the committed records, their artifacts' hashes, the status figures. */
async function outcome(schema: string, store: string, env: NodeJS.ProcessEnv) {
  const s = new PostgresStore({ connectionString: url!, schema });
  try {
    const unitCommits = (await s.listCheckpoints("R"))
      .filter((c) => c.kind === "unit")
      .flatMap((c) => c.delta.filter((d) => d.state === "succeeded").map((d) => d.unit));
    const current = await s.getRecords("R", { status: "current" });
    const hashes = (await s.listArtifacts("R", { status: "committed" })).map((a) => `${a.unit}/${a.name} ${a.sha256}`).sort();
    const refused = [
      ...(await s.listEvents("R", { type: "stale-commit-rejected" })),
      ...(await s.listEvents("R", { type: "stale-attempt-discarded" })),
    ];
    const takeovers =
      (await s.listEvents("R", { type: "lease-taken-over" })).length + (await s.listEvents("R", { type: "lease-broken" })).length;
    const status = await statusJson(store, env);
    return { unitCommits: unitCommits.sort(), currentUnits: current.map((r) => r.unit).sort(), hashes, refused, takeovers, status };
  } finally {
    await s.close();
  }
}

/** The figures of `taskspec status --format json` that cannot depend on how many workers ran or were killed. */
const figures = (s: StatusReport) => ({
  status: s.status,
  counts: s.counts,
  artifacts: { current: s.artifacts.current, superseded: s.artifacts.superseded, corrupt: s.artifacts.corrupt },
  baselineCommits: s.baselineCommits,
  units: s.units.map((u) => [u.unit, u.state]).sort(),
  leases: s.leases,
  supersededUnits: s.supersededUnits,
});

describeIfAvailable("the market-entry pack on PostgreSQL with several worker processes", postgresMissing(), () => {
  it("three workers, one SIGKILLed mid-unit, one paused past its lease: every unit commits once, the same final state as one worker", async () => {
    if (!url) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
    const tag = `${process.pid}_${Date.now()}`;

    // (a) Baseline: one `taskspec run` process, the pack's handlers as shipped.
    const base = workDir();
    const baseSchema = `me_base_${tag}`;
    const baseStore = `${url}?schema=${baseSchema}`;
    const single = taskspec(
      [
        "run",
        SPEC,
        "--handlers",
        PACK,
        "--verifiers",
        VERIFIERS,
        "--store",
        baseStore,
        "--run",
        "R",
        "--artifacts",
        join(base.dir, "artifacts"),
      ],
      base.env,
    );
    expect(await single.done, single.err()).toBe(0);
    const baseline = await outcome(baseSchema, baseStore, base.env);
    expect(baseline.status.status).toBe("done");
    expect(baseline.status.counts.current).toBe(UNITS);
    expect(baseline.status.counts.superseded).toBe(0);
    expect(baseline.currentUnits).toHaveLength(UNITS);
    expect(new Set(baseline.unitCommits).size).toBe(UNITS);

    // (b) Three workers: the run process plus two `taskspec worker`s joining it.
    const multi = workDir();
    writeFileSync(join(multi.dir, "slow-pack.mjs"), SLOW_PACK);
    const schema = `me_multi_${tag}`;
    const store = `${url}?schema=${schema}`;
    const env = { ...multi.env, TASKSPEC_TEST_DELAY_MS: "600" };
    const common = ["--store", store, "--lease-ttl", "2s", "--concurrency", "1"];
    const started = () =>
      readFileSync(multi.log, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split(" ") as [string, string]);
    const waitFor = async (pred: () => boolean) => {
      for (let i = 0; i < 1200 && !pred(); i++) await new Promise((r) => setTimeout(r, 25));
      expect(pred()).toBe(true);
    };
    const startedBy = (p: Proc) => () => started().some(([, pid]) => pid === String(p.child.pid));

    const t0 = Date.now();
    const runner = taskspec(
      [
        "run",
        SPEC,
        "--handlers",
        join(multi.dir, "slow-pack.mjs"),
        "--verifiers",
        VERIFIERS,
        "--run",
        "R",
        "--artifacts",
        join(multi.dir, "artifacts"),
        ...common,
      ],
      env,
    );
    await waitFor(() => started().length > 0);
    const holding = { ...env, TASKSPEC_TEST_HOLD_MS: "8000" };
    const doomed = taskspec(["worker", "--run", "R", "--poll", "200ms", ...common], holding);
    const paused = taskspec(["worker", "--run", "R", "--poll", "200ms", ...common], holding);
    const firstUnitOf = (p: Proc) => started().find(([, pid]) => pid === String(p.child.pid))![0];
    const rerunBy = (unit: string, pid: number | undefined) => started().some(([u, p]) => u === unit && p !== String(pid));
    await waitFor(startedBy(doomed));
    doomed.child.kill("SIGKILL"); // inside its first unit, which it holds for 8 s
    const killedIn = firstUnitOf(doomed);
    await waitFor(startedBy(paused));
    paused.child.kill("SIGSTOP");
    const pausedIn = firstUnitOf(paused);
    // Past its 2 s lease another worker takes the unit over; wake the paused one only then. Counted from
    // the pause: its first unit may be the one it took over from the killed worker, whose start of it
    // is already logged, and waking it early would leave it nothing stale to be refused.
    const before = started().length;
    await waitFor(() =>
      started()
        .slice(before)
        .some(([u, p]) => u === pausedIn && p !== String(paused.child.pid)),
    );
    paused.child.kill("SIGCONT");

    const codes = await Promise.all([runner.done, doomed.done, paused.done]);
    const seconds = (Date.now() - t0) / 1000;
    expect(codes[1]).toBe(null); // SIGKILLed
    expect([codes[0], codes[2]], [runner.err(), paused.err()].join("\n---\n")).toEqual([0, 0]);
    expect(startedBy(doomed)()).toBe(true);

    const got = await outcome(schema, store, multi.env);
    // Every unit committed exactly once, however often it was started.
    expect(got.unitCommits).toEqual(baseline.unitCommits);
    expect(got.currentUnits).toEqual(baseline.currentUnits);
    // The units the killed and the paused worker held ran again in another process (S04's loop restarts by design).
    expect(rerunBy(killedIn, doomed.child.pid)).toBe(true);
    expect(rerunBy(pausedIn, paused.child.pid)).toBe(true);
    const rerun = [
      ...new Set(
        started()
          .map(([u]) => u)
          .filter((u, i, all) => all.indexOf(u) !== i),
      ),
    ];
    expect(got.takeovers).toBeGreaterThan(0);
    // The paused worker woke with a stale token: its fenced renewal or commit of pausedIn was refused and recorded.
    expect(got.refused.map((e) => e.unit)).toContain(pausedIn);
    // The same final state as the single worker's, down to the bytes of every committed artifact.
    expect(got.hashes).toEqual(baseline.hashes);
    expect(figures(got.status)).toEqual(figures(baseline.status));
    expect(got.status.counts).toMatchObject({ units: UNITS, current: UNITS, superseded: 0 });

    console.log(
      `market-entry pack, 3 workers on PostgreSQL: ${got.currentUnits.length} units committed once each, ${got.hashes.length} artifacts equal to the baseline's; ` +
        `re-started units: ${rerun.join(", ")}; takeovers ${got.takeovers}; killed in ${killedIn}, paused in ${pausedIn}; refused stale work: ${got.refused.map((e) => `${e.type}@${e.unit}: ${String(e.data?.message)}`).join(", ")}; ` +
        `multi-worker run ${seconds.toFixed(1)} s`,
    );
  });
});
