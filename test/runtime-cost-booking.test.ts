/**
 * A unit's declared cost is booked when its attempt is claimed, in the
 * claim's transaction, not only checked before it. Real processes on one
 * SQLite store: (1) two workers race for a cap that fits one unit's declared
 * cost: one unit runs, the other is blocked by the budget, and the handler's
 * own charge draws on its booking instead of being added to it; `status`
 * shows the booking while the attempt runs. (2) An attempt whose worker is
 * killed before it drew on its booking: the booking holds until the resume
 * breaks its lease and releases it; the retry books again.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { SqliteStore } from "@taskspec/runtime";
import { LEGACY_FIXTURE_ENV, runCli, type CliResult } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000 });

const CLI = new URL("../cli/bin/taskspec.js", import.meta.url).pathname;

const RACE = `contract: 1
task:
  id: race
  version: 1
  goal: Two units that each declare three model calls, under a cap of five
  outputs: [out-a, out-b]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  model_calls: 5
  retries: 0
units:
  a:
    produces: [out-a]
    timeout: 2m
    cost: { model_calls: 3 }
  b:
    produces: [out-b]
    timeout: 2m
    cost: { model_calls: 3 }
`;

// Each handler logs its start, then holds its attempt open (its booking made, its own charge not yet)
// until a second handler has started, or 8 s after the test says go: the window in which a second
// worker, under a check-only rule, found the budget untouched and ran the other unit too.
const RACE_HANDLERS = `import { appendFileSync, existsSync, readFileSync, statSync } from "node:fs";
const log = process.env.RACE_LOG;
const go = process.env.RACE_GO;
const lines = () => readFileSync(log, "utf8").split("\\n").filter(Boolean).length;
const released = () => existsSync(go) && Date.now() - statSync(go).mtimeMs > 8000;
const unit = (name) => async (ctx) => {
  appendFileSync(log, name + " " + ctx.attempt.id + " " + process.pid + "\\n");
  for (let i = 0; i < 2400 && lines() < 2 && !released(); i++) await new Promise((r) => setTimeout(r, 50));
  await ctx.charge({ model_calls: 3 });
  await ctx.write("out-" + name, name);
  return {};
};
export default { units: { a: unit("a"), b: unit("b") }, tools: {} };
`;

function spawnCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, TASKSPEC_CRASH_AT: "", TASKSPEC_ISOLATION: "none", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

it("two workers race for a cap that fits one unit's declared cost: one unit runs, the other is blocked by the budget", async () => {
  const dir = mkdtempSync(join(tmpdir(), "taskspec-cost-race-"));
  writeFileSync(join(dir, "race.task.yaml"), RACE);
  writeFileSync(join(dir, "handlers.mjs"), RACE_HANDLERS);
  const log = join(dir, "started.log");
  writeFileSync(log, "");
  const db = join(dir, "store.db");
  const env = { RACE_LOG: log, RACE_GO: join(dir, "go") };
  const started = () => readFileSync(log, "utf8").split("\n").filter(Boolean);

  const first = spawnCli(
    [
      "run",
      join(dir, "race.task.yaml"),
      "--handlers",
      join(dir, "handlers.mjs"),
      "--run",
      "R",
      "--concurrency",
      "1",
      "--store",
      `sqlite:${db}`,
    ],
    env,
  );
  for (let i = 0; i < 2400 && started().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(started().length).toBe(1);

  // while the first attempt runs, status shows what its claim booked
  const status = await runCli(["status", "R"], {}, `sqlite:${db}`);
  const unit = started()[0]!.split(" ")[0]!;
  expect(status.stdout).toMatch(new RegExp(`lease: ${unit} held by .*declared cost booked: model_calls 3\\)`));
  expect(status.stdout).toContain("budget: model_calls 3/5");
  expect(status.stdout).toContain("(booked at claims by running attempts: model_calls 3)");

  const second = spawnCli(["resume", "R", "--concurrency", "1", "--store", `sqlite:${db}`], env);
  writeFileSync(join(dir, "go"), "");
  const [one, two] = await Promise.all([first, second]);

  expect(started().map((l) => l.split(" ")[0])).toEqual([unit]); // the other unit's handler never ran
  const other = unit === "a" ? "b" : "a";
  for (const r of [one, two]) {
    expect(r.code, r.stdout + r.stderr).toBe(3); // blocked (docs/operator.md, exit codes)
    expect(r.stdout).toContain(`blocked ${other}: budget: unit ${other} needs 3 model_calls per attempt; 2 left`);
  }
  const s = new SqliteStore({ path: db });
  await s.init();
  // the handler's own charge of 3 drew on its booking: 3 used, not 6
  expect((await s.getRun("R"))?.budgetUsed.model_calls).toBe(3);
  const events = await s.listEvents("R");
  expect(events.filter((e) => e.type === "budget-reserved").map((e) => [e.unit, e.attempt, e.data])).toEqual([
    [unit, 1, { model_calls: 3, for: "declared cost" }],
  ]);
  expect(events.find((e) => e.type === "budget-charged" && e.data?.model_calls === 3)?.data).toMatchObject({
    reserved: { model_calls: 3 },
  });
  expect(events.filter((e) => e.type === "leased" && e.unit === other)).toEqual([]);
  await s.close();
});

const KILLED = `contract: 1
task:
  id: killed
  version: 1
  goal: A unit whose first attempt dies after its claim booked its cost
  outputs: [out]
  done: [{ check: "count(result.stale_outputs) == 0" }]
budgets:
  model_calls: 10
  retries: 2
units:
  step:
    produces: [out]
    timeout: 1m
    cost: { model_calls: 2 }
`;

const KILLED_HANDLERS = `import { appendFileSync, readFileSync } from "node:fs";
export default {
  units: {
    step: async (ctx) => {
      appendFileSync(process.env.KILL_LOG, ctx.attempt.id + "\\n");
      if (ctx.attempt.number === 1) process.kill(process.pid, "SIGKILL");
      await ctx.charge({ model_calls: 2 });
      await ctx.write("out", "done");
      return {};
    },
  },
  tools: {},
};
`;

it("a killed attempt's booking holds until the resume releases it, and the retry books again", async () => {
  const dir = mkdtempSync(join(tmpdir(), "taskspec-cost-killed-"));
  writeFileSync(join(dir, "killed.task.yaml"), KILLED);
  writeFileSync(join(dir, "handlers.mjs"), KILLED_HANDLERS);
  const db = join(dir, "store.db");
  // --isolation none: the handler kills its worker and logs to a file outside its attempt directory
  const env = { KILL_LOG: join(dir, "attempts.log"), ...LEGACY_FIXTURE_ENV };

  const first = await runCli(
    ["run", join(dir, "killed.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", "R"],
    env,
    `sqlite:${db}`,
  );
  expect(first.signal).toBe("SIGKILL");
  const s = new SqliteStore({ path: db });
  await s.init();
  expect((await s.getRun("R"))?.budgetUsed.model_calls).toBe(2); // booked at the claim, before the handler died
  await s.close();

  const second = await runCli(["resume", "R"], env, `sqlite:${db}`);
  expect(second.code, second.stdout + second.stderr).toBe(0);
  expect(readFileSync(join(dir, "attempts.log"), "utf8").trim().split("\n")).toEqual(["a1", "a2"]);
  const after = new SqliteStore({ path: db });
  await after.init();
  // a1's booking (2, never drawn: it died before spending) released by the recovery + a2's booking (2, drawn by its own charge of 2)
  expect((await after.getRun("R"))?.budgetUsed.model_calls).toBe(2);
  expect((await after.listEvents("R", { type: "budget-settled" })).map((e) => [e.attempt, e.data?.why, e.data?.released])).toEqual([
    [1, "lease-broken", { model_calls: 2 }],
  ]);
  expect((await after.listEvents("R", { type: "budget-reserved" })).map((e) => [e.attempt, e.data?.model_calls])).toEqual([
    [1, 2],
    [2, 2],
  ]);
  await after.close();
  expect(readFileSync(join(dir, "artifacts/runs/R/step/a2/out"), "utf8")).toBe("done");
});
