/**
 * A worker still holding an old plan cannot commit under a new one, with the
 * real CLI on SQLite and on PostgreSQL: `run` and a `worker` start two slow
 * units under plan v1; while both are mid-attempt, `resume --contract v2.yaml`
 * moves the run to a plan whose verifier fails for those units. The v1
 * successes are refused by the store and discarded (`attempt-discarded`,
 * reason `plan-changed`, not counted against `retry.max: 0`); `run` stops
 * saying why, the `worker` reloads the run's contract and goes on under v2.
 * The other way round too: a failure under a v1 whose verifier always fails
 * does not use up v2's attempts (there a plain `resume` holds v1, and stops). And a worker that read the run's recorded contract just before `resume
 * --contract` recorded a newer one never moves the run back to the old plan.
 * PostgreSQL needs TASKSPEC_PG_URL (scripts/with-postgres.sh); it skips loudly
 * without it (fails under TASKSPEC_REQUIRE_ALL=1).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { PostgresStore } from "../runtime/src/store/postgres.js";
import { SqliteStore } from "../runtime/src/store/sqlite.js";
import type { Store } from "../runtime/src/store/types.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 240_000 });

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));

const contract = (verify: string) => `contract: 1
task:
  id: planver
  version: 1
  goal: two slow units whose plan changes under them
  outputs: [s1-out, s2-out]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  model_calls: 100
  tool_calls: 100
  tokens: 10000
verifiers:
  has_value: { kind: rule, check: "len(result.value) > 0" }
  never: { kind: rule, check: "len(result.value) > 1000" }
units:
  s1:
    produces: [s1-out]
    verify: ${verify}
    retry: { max: 0 }
  s2:
    produces: [s2-out]
    verify: ${verify}
    retry: { max: 0 }
`;

// Each attempt logs "<unit> <attempt> <pid>", then holds until the gate file exists: the test decides when it ends.
// With TASKSPEC_TEST_IMPORT_GATE the import logs "import <pid>" and holds too (a worker between reading the run and its prepare).
const HANDLERS = `import { appendFileSync, existsSync } from "node:fs";
if (process.env.TASKSPEC_TEST_IMPORT_GATE) {
  appendFileSync(process.env.TASKSPEC_TEST_LOG, "import " + process.pid + "\\n");
  while (!existsSync(process.env.TASKSPEC_TEST_IMPORT_GATE)) await new Promise((r) => setTimeout(r, 50));
}
const unit = (id) => async (ctx) => {
  appendFileSync(process.env.TASKSPEC_TEST_LOG, id + " " + ctx.attempt.id + " " + process.pid + "\\n");
  while (!existsSync(process.env.TASKSPEC_TEST_GATE)) await new Promise((r) => setTimeout(r, 50));
  await ctx.write(id + "-out", { value: id });
  return { value: id };
};
export default { units: { s1: unit("s1"), s2: unit("s2") }, tools: {} };
`;

interface Proc {
  pid: number;
  done: Promise<number | null>;
  err: () => string;
}

function workspace(store: string, v2Verify: string) {
  const dir = mkdtempSync(join(tmpdir(), "taskspec-planver-"));
  const v1 = join(dir, "v1.task.yaml");
  const v2 = join(dir, "v2.task.yaml");
  writeFileSync(v1, contract("[has_value]"));
  writeFileSync(v2, contract(v2Verify));
  writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
  const log = join(dir, "invocations.log");
  const gate = join(dir, "gate");
  writeFileSync(log, "");
  const env = {
    ...process.env,
    TASKSPEC_ISOLATION: "none" /* the handlers log outside their attempt directory (runtime-harness.ts) */,
    TASKSPEC_TEST_LOG: log,
    TASKSPEC_TEST_GATE: gate,
    TASKSPEC_CRASH_AT: "",
  };
  const start = (args: string[], extra: Record<string, string> = {}): Proc => {
    const child = spawn(process.execPath, [CLI, ...args, "--store", store, "--concurrency", "1"], {
      env: { ...env, ...extra },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (d: Buffer) => (err += d.toString()));
    const done = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    return { pid: child.pid!, done, err: () => err };
  };
  const started = () =>
    readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split(" "));
  const waitFor = async (what: string, pred: () => boolean | Promise<boolean>) => {
    // generous: CLI processes take seconds to start on a loaded machine
    for (let i = 0; i < 2400 && !(await pred()); i++) await new Promise((r) => setTimeout(r, 50));
    expect(await pred(), what).toBe(true);
  };
  return { dir, v1, v2, gate, start, started, waitFor };
}

async function oldPlanCommit(store: string, open: () => Promise<Store>): Promise<void> {
  const { dir, v1, v2, gate, start, started, waitFor } = workspace(store, "[has_value, never]");
  const s = await open();
  try {
    const run = start(["run", v1, "--handlers", join(dir, "handlers.mjs"), "--run", "P", "--artifacts", join(dir, "artifacts")]);
    await waitFor("run started a unit", () => started().length === 1);
    const planV1 = (await s.getRun("P"))!.planVersion;
    const worker = start(["worker", "--run", "P", "--poll", "200ms"]);
    await waitFor("the worker started the other unit", () => started().length === 2);
    expect(started().map(([, attempt, pid]) => [attempt, pid])).toEqual([
      ["a1", String(run.pid)],
      ["a1", String(worker.pid)],
    ]);

    // both v1 attempts are in flight: the contract changes under them
    const resume = start(["resume", "P", "--contract", v2]);
    await waitFor("resume moved the run to plan v2", async () => (await s.getRun("P"))!.planVersion !== planV1);
    writeFileSync(gate, "");

    const codes = await Promise.all([run.done, worker.done, resume.done]);
    const output = [run, worker, resume].map((p) => p.err()).join("\n---\n");
    expect(run.err(), output).toMatch(/run P moved to plan \S+ while this command held \S+ .*its attempts in flight were discarded/);
    expect(codes[0], output).toBe(1);
    expect(worker.err(), output).toMatch(new RegExp(`run P moved to plan \\S+ \\(this worker held ${planV1}\\); reloading its contract`));
    expect(codes.slice(1), output).not.toContain(70);

    // neither v1 success became current: v2's verifier judged each unit once, and failed it
    expect(await s.getRecords("P", { status: "current" }), output).toEqual([]);
    const discarded = await s.listEvents("P", { type: "attempt-discarded" });
    expect(discarded.map((e) => [e.unit, e.attempt, e.data?.reason, e.data?.held]).sort()).toEqual([
      ["s1", 1, "plan-changed", planV1],
      ["s2", 1, "plan-changed", planV1],
    ]);
    const facts = await s.loadFacts("P");
    expect(facts.run.status).toBe("failed");
    // the discarded attempt is not a failure: retry.max 0 still allowed the one attempt under v2
    expect(facts.units.map((u) => [u.unit, u.state, u.attempts, u.failures]).sort()).toEqual([
      ["s1", "failed", 2, 1],
      ["s2", "failed", 2, 1],
    ]);
    expect(facts.leases).toEqual([]);
    const failed = await s.listEvents("P", { type: "attempt-failed" });
    expect(failed.map((e) => [e.unit, e.attempt]).sort()).toEqual([
      ["s1", 2],
      ["s2", 2],
    ]);
  } finally {
    await s.close();
  }
}

async function oldPlanFailure(store: string, open: () => Promise<Store>): Promise<void> {
  // v1's verifier fails every unit; v2 fixes it
  const { dir, v1, v2, gate, start, started, waitFor } = workspace(store, "[has_value]");
  writeFileSync(v1, contract("[never]"));
  const s = await open();
  try {
    const run = start(["run", v1, "--handlers", join(dir, "handlers.mjs"), "--run", "F", "--artifacts", join(dir, "artifacts")]);
    await waitFor("run started a unit", () => started().length === 1);
    const planV1 = (await s.getRun("F"))!.planVersion;
    // a plain resume (the recorded contract, v1) takes the other unit
    const plain = start(["resume", "F"]);
    await waitFor("the plain resume started the other unit", () => started().length === 2);
    const resume = start(["resume", "F", "--contract", v2]);
    await waitFor("resume moved the run to plan v2", async () => (await s.getRun("F"))!.planVersion !== planV1);
    writeFileSync(gate, "");

    const codes = await Promise.all([run.done, plain.done, resume.done]);
    const output = [run, plain, resume].map((p) => p.err()).join("\n---\n");
    // `run` and `resume` drive the contract they hold: both stop, saying so (exit 1)
    expect(codes.slice(0, 2), output).toEqual([1, 1]);
    expect(plain.err(), output).toMatch(
      new RegExp(`run F moved to plan \\S+ while this command held ${planV1} .*\`taskspec resume F\` continues with the run's contract`),
    );
    // the v1 verdicts were discarded, not counted: with retry.max 0 each unit still ran under v2, and passed
    const discarded = await s.listEvents("F", { type: "attempt-discarded" });
    expect(discarded.map((e) => [e.unit, e.attempt, e.data?.reason, e.data?.class]).sort()).toEqual([
      ["s1", 1, "plan-changed", "verifier-failed"],
      ["s2", 1, "plan-changed", "verifier-failed"],
    ]);
    expect(await s.listEvents("F", { type: "attempt-failed" })).toEqual([]);
    const facts = await s.loadFacts("F");
    expect(facts.run.status, output).toBe("done");
    expect(facts.units.map((u) => [u.unit, u.state, u.attempts, u.failures]).sort()).toEqual([
      ["s1", "succeeded", 2, 0],
      ["s2", "succeeded", 2, 0],
    ]);
  } finally {
    await s.close();
  }
}

async function noMoveBack(store: string, open: () => Promise<Store>): Promise<void> {
  // v2 adds a check both units pass: they re-run under it once, and the run is done under v2
  const { dir, v1, v2, gate, start, started, waitFor } = workspace(store, '[has_value, { check: "len(result.value) > 1" }]');
  writeFileSync(gate, ""); // attempts do not hold here
  const s = await open();
  try {
    // a run killed after its first commit: active, with work left, recorded under v1's contract
    const killed = start(["run", v1, "--handlers", join(dir, "handlers.mjs"), "--run", "Q", "--artifacts", join(dir, "artifacts")], {
      TASKSPEC_CRASH_AT: "after-commit-before-ack@s1",
    });
    await killed.done;
    const planV1 = (await s.getRun("Q"))!.planVersion;
    expect((await s.getRun("Q"))?.status, killed.err()).toBe("active");

    // a worker reads the run (contract v1) and is held while importing its handlers
    const importGate = join(dir, "import-gate");
    const worker = start(["worker", "--run", "Q", "--poll", "200ms"], { TASKSPEC_TEST_IMPORT_GATE: importGate });
    const importing = () => started().some(([what, pid]) => what === "import" && pid === String(worker.pid));
    await waitFor("the worker is importing the handlers", importing);
    // meanwhile the contract changes, and the run finishes under it
    const resume = start(["resume", "Q", "--contract", v2]);
    expect(await resume.done, resume.err()).toBe(0);
    const planV2 = (await s.getRun("Q"))!.planVersion;
    expect(planV2).not.toBe(planV1);
    writeFileSync(importGate, "");

    expect(await worker.done, worker.err()).toBe(0);
    expect(worker.err()).toMatch(new RegExp(`run Q moved to plan ${planV2} \\(this worker held ${planV1}\\); reloading its contract`));
    const r = await s.getRun("Q");
    expect([r?.status, r?.planVersion], worker.err()).toEqual(["done", planV2]);
    const changes = await s.listEvents("Q", { type: "plan-changed" });
    expect(changes.map((e) => [e.data?.from, e.data?.to])).toEqual([[planV1, planV2]]);
  } finally {
    await s.close();
  }
}

const cases = [
  ["a success under the old plan is discarded, never current; `run` stops, the `worker` reloads", oldPlanCommit],
  ["a failure under the old plan is discarded, not counted against the new plan's retry.max", oldPlanFailure],
  ["a worker that read the old contract before `resume --contract` never moves the run back to it", noMoveBack],
] as const;

describe("plan version in every claim and commit: SQLite (real processes)", () => {
  for (const [name, scenario] of cases)
    it(name, async () => {
      const path = join(mkdtempSync(join(tmpdir(), "taskspec-planver-db-")), "store.db");
      await scenario(`sqlite:${path}`, async () => {
        const s = new SqliteStore({ path });
        await s.init();
        return s;
      });
    });
});

const url = process.env.TASKSPEC_PG_URL;
describeIfAvailable("plan version in every claim and commit: PostgreSQL (real processes)", postgresMissing(), () => {
  for (const [name, scenario] of cases)
    it(name, async () => {
      if (!url) throw new Error("TASKSPEC_PG_URL is not set: run under scripts/with-postgres.sh");
      const schema = `planver_${process.pid}_${Date.now()}`;
      await scenario(`${url}?schema=${schema}`, async () => {
        const s = new PostgresStore({ connectionString: url, schema });
        await s.init();
        return s;
      });
    });
});
