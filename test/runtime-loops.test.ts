/**
 * Durable loop iterations, with real processes: each iteration of a unit's
 * `loop` is committed with its number, result and files; a worker SIGKILLed
 * mid-loop (by its handler, under --isolation none, as iteration 3 starts)
 * leaves iterations 1-2 committed, `status`, `show` and `handoff` say so, and `resume`
 * runs only iterations 3 and 4: 4 handler invocations and 4 model calls
 * booked for a 4-iteration loop, not 6 and 6. A worker that dies after
 * each committed iteration is progress, not a crash-loop. A unit's timeout is per
 * attempt (all its iterations together), and the retry after a timeout
 * continues at the iteration that timed out; a loop that ran out of `max`
 * is closed, so its retry loops afresh.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { SqliteStore } from "@taskspec/runtime";
import { LEGACY_FIXTURE_ENV, runCli as runCliIsolated } from "./runtime-harness.js";

/** --isolation none: the handler below logs outside its attempt directory and kills its worker. */
const runCli = (args: string[], env: Record<string, string>, store: string) =>
  runCliIsolated(args, { ...LEGACY_FIXTURE_ENV, ...env }, store);

vi.setConfig({ testTimeout: 120_000 });

const contract = (o: { max: number; timeout: string; retries: number; until?: string }) => `contract: 1
task:
  id: looping
  version: 1
  goal: Refine a draft in a bounded loop
  outputs: [draft]
  done: [ok]
budgets:
  model_calls: 20
  retries: ${o.retries}
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  refine:
    loop: { max: ${o.max}, until: "${o.until ?? `result.n >= ${o.max}`}" }
    produces: [draft]
    cost: { model_calls: 1 }
    timeout: ${o.timeout}
`;

/** Each iteration logs itself (outside the attempt directory: --isolation none), pays one model call and writes the draft. */
const HANDLERS = `import { appendFileSync, existsSync, writeFileSync } from "node:fs";
let ranHere = 0; // iterations this worker process has run (--isolation none: the handler lives in the worker)
export default {
  units: {
    async refine(ctx) {
      // LOOP_KILL_AFTER_ONE: SIGKILL the worker as its second iteration starts, so every worker commits one iteration, then dies
      if (process.env.LOOP_KILL_AFTER_ONE && ranHere++ >= 1) {
        process.kill(process.pid, "SIGKILL");
        await new Promise(() => {});
      }
      // LOOP_KILL_AT=k: the first time iteration k starts (iterations before it committed), SIGKILL the worker, before it logs or pays
      if (Number(process.env.LOOP_KILL_AT) === ctx.iteration && !existsSync(process.env.LOOP_LOG + ".killed")) {
        writeFileSync(process.env.LOOP_LOG + ".killed", "");
        process.kill(process.pid, "SIGKILL");
        await new Promise(() => {});
      }
      appendFileSync(process.env.LOOP_LOG, JSON.stringify({ attempt: ctx.attempt.number, iteration: ctx.iteration, previous: ctx.previous ?? null }) + "\\n");
      await ctx.charge({ model_calls: 1 });
      const wait = Number(process.env.LOOP_SLEEP_MS ?? "0");
      if (wait) await new Promise((r) => setTimeout(r, wait));
      await ctx.write("draft", "draft " + ctx.iteration + "\\n");
      return { n: ctx.iteration };
    },
  },
  tools: {},
};
`;

function setup(prefix: string, o: { max: number; timeout: string; retries: number; until?: string }) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, "looping.task.yaml"), contract(o));
  writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
  const log = join(dir, "iterations.jsonl");
  writeFileSync(log, "");
  return {
    dir,
    log,
    store: `sqlite:${join(dir, "store.db")}`,
    run: ["run", join(dir, "looping.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", "R"],
    invocations: () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { attempt: number; iteration: number; previous: { n: number } | null }),
    open: async () => {
      const s = new SqliteStore({ path: join(dir, "store.db") });
      await s.init();
      return s;
    },
  };
}

it("a worker killed after iteration 2 of 4 is resumed at iteration 3: 4 invocations, 4 model calls, status 'iteration 3 of 4'", async () => {
  const t = setup("taskspec-loops-", { max: 4, timeout: "1m", retries: 1 });
  const env = { LOOP_LOG: t.log, LOOP_KILL_AT: "3" };

  const first = await runCli(t.run, { ...env, LOOP_KILL_AT: "3" }, t.store);
  expect(first.signal).toBe("SIGKILL");
  expect(t.invocations().map((i) => i.iteration)).toEqual([1, 2]);

  // mid-loop: iterations 1 and 2 are committed, 3 is next
  const mid = await runCli(["status", "R"], env, t.store);
  expect(mid.stdout).toMatch(/loop refine: iteration 3 of 4 \(2 committed/);
  const midJson = await runCli(["status", "R", "--format", "json"], env, t.store);
  const report = JSON.parse(midJson.stdout) as { units: Array<{ unit: string; iteration?: unknown }> };
  expect(report.units.find((u) => u.unit === "refine")?.iteration).toEqual({ current: 3, max: 4, committed: 2 });
  // show lists the committed iterations with their results and files; handoff notes where the loop stands
  const shown = await runCli(["show", "R", "refine"], env, t.store);
  expect(shown.stdout).toMatch(/iteration 1 of 4 a1 committed at \S+ \(open: a resume continues after it\): \{"n":1\}/);
  expect(shown.stdout).toMatch(
    /iteration 2 of 4 a1 committed at \S+ \(open[^\n]*\{"n":2\}\n\s+file draft: runs\/R\/refine\/a1\/i2\/draft sha256 [0-9a-f]{64}/,
  );
  const handoff = await runCli(["handoff", "R"], env, t.store);
  expect(handoff.stdout).toMatch(/\| refine \| \w+ \| \d+ \| iteration 3 of 4 \(2 committed\)/);

  const resumed = await runCli(["resume", "R"], env, t.store);
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);

  // paid iterations are never paid again: iterations 3 and 4 ran in attempt 2, continuing from iteration 2's result
  const calls = t.invocations();
  expect(calls.map((i) => `a${i.attempt}/i${i.iteration}`)).toEqual(["a1/i1", "a1/i2", "a2/i3", "a2/i4"]);
  expect(calls[2]!.previous).toEqual({ n: 2 });

  const s = await t.open();
  const run = await s.getRun("R");
  expect(run?.status).toBe("done");
  expect(run?.budgetUsed.model_calls).toBe(4);
  const events = await s.listEvents("R");
  const charges = events.filter((e) => e.type === "budget-charged" && e.data?.model_calls !== undefined);
  expect(charges.map((e) => `a${e.attempt}/i${String(e.data?.iteration)}`)).toEqual(["a1/i1", "a1/i2", "a2/i3", "a2/i4"]);
  expect(events.filter((e) => e.type === "iteration-committed").map((e) => `a${e.attempt}/i${String(e.data?.iteration)}`)).toEqual([
    "a1/i1",
    "a1/i2",
    "a2/i3",
  ]); // the iteration that ends the loop is committed with the unit
  expect(events.find((e) => e.type === "loop-resumed")?.data).toMatchObject({ committed: 2, max: 4, next: 3 });
  // the loop is over: its iterations are closed, each iteration's file is recorded, the last one is the output
  const iterations = await s.listIterations("R", { unit: "refine" });
  expect(iterations.map((it) => [it.iteration, it.attempt, it.closedAt !== undefined])).toEqual([
    [1, 1, true],
    [2, 1, true],
    [3, 2, true],
  ]);
  const artifacts = await s.listArtifacts("R", { unit: "refine" });
  expect(artifacts.filter((a) => a.status === "committed").map((a) => a.path)).toEqual(["runs/R/refine/a2/i4/draft"]);
  expect(artifacts.filter((a) => a.status === "rejected").map((a) => a.path)).toEqual([
    "runs/R/refine/a1/i1/draft",
    "runs/R/refine/a1/i2/draft",
    "runs/R/refine/a2/i3/draft",
  ]);
  await s.close();

  const shownDone = JSON.parse((await runCli(["show", "R", "refine", "--format", "json"], env, t.store)).stdout) as {
    iterations: Array<{ iteration: number; attempt: number; closedAt?: string }>;
  };
  expect(shownDone.iterations.map((it) => [it.iteration, it.attempt, it.closedAt !== undefined])).toEqual([
    [1, 1, true],
    [2, 1, true],
    [3, 2, true],
  ]);
  const done = await runCli(["status", "R"], env, t.store);
  expect(done.stdout).toContain("0 orphan");
  expect(done.stdout).not.toContain("loop refine:");
});

it("a worker that dies after each committed iteration is progress, not a crash-loop: the loop finishes", async () => {
  // retry.max 0: three deaths in a row without progress fail the unit (test/runtime-crash-loop.test.ts); here each
  // of four deaths follows a committed iteration, so the fifth worker finishes the loop
  const t = setup("taskspec-loops-progress-", { max: 5, timeout: "1m", retries: 0 });
  const env = { LOOP_LOG: t.log, LOOP_KILL_AFTER_ONE: "1" };
  const outcomes = [await runCli(t.run, env, t.store)];
  while (outcomes.at(-1)!.signal === "SIGKILL" && outcomes.length < 6) outcomes.push(await runCli(["resume", "R"], env, t.store));
  expect(outcomes.map((o) => o.signal ?? o.code)).toEqual(["SIGKILL", "SIGKILL", "SIGKILL", "SIGKILL", 0]);
  expect(t.invocations().map((i) => `a${i.attempt}/i${i.iteration}`)).toEqual(["a1/i1", "a2/i2", "a3/i3", "a4/i4", "a5/i5"]);
  const s = await t.open();
  const events = await s.listEvents("R");
  const broken = events.filter((e) => e.type === "lease-broken" && e.data?.attemptEnded);
  expect(broken.map((e) => [e.attempt, e.data?.deaths, e.data?.progress])).toEqual([
    [1, 0, 1],
    [2, 0, 1],
    [3, 0, 1],
    [4, 0, 1],
  ]);
  expect(events.some((e) => e.type === "unit-failed")).toBe(false);
  expect((await s.getRun("R"))?.status).toBe("done");
  await s.close();
});

it("a unit's timeout is per attempt; the retry after a timeout continues at the iteration that timed out", async () => {
  // three iterations of ~600 ms each under a 1.5 s timeout: the first attempt times out in iteration 3
  const t = setup("taskspec-loops-timeout-", { max: 3, timeout: "1500ms", retries: 1 });
  const out = await runCli(t.run, { LOOP_LOG: t.log, LOOP_SLEEP_MS: "600" }, t.store);
  expect(out.code).toBe(0);
  expect(t.invocations().map((i) => `a${i.attempt}/i${i.iteration}`)).toEqual(["a1/i1", "a1/i2", "a1/i3", "a2/i3"]);
  const s = await t.open();
  const events = await s.listEvents("R");
  expect(events.find((e) => e.type === "attempt-failed" && e.attempt === 1)?.data).toMatchObject({ class: "timeout" });
  expect((await s.getRun("R"))?.status).toBe("done");
  await s.close();
});

it("a loop that ran out of max iterations is closed: the retry loops afresh from iteration 1", async () => {
  const t = setup("taskspec-loops-exhausted-", { max: 2, timeout: "1m", retries: 1, until: "result.n >= 99" });
  const out = await runCli(t.run, { LOOP_LOG: t.log }, t.store);
  expect(out.code).not.toBe(0);
  expect(t.invocations().map((i) => `a${i.attempt}/i${i.iteration}`)).toEqual(["a1/i1", "a1/i2", "a2/i1", "a2/i2"]);
  const s = await t.open();
  const events = await s.listEvents("R");
  expect(events.filter((e) => e.type === "attempt-failed").map((e) => e.data?.class)).toEqual(["loop-exhausted", "loop-exhausted"]);
  expect(events.some((e) => e.type === "loop-resumed")).toBe(false);
  expect(await s.listIterations("R", { open: true })).toEqual([]);
  await s.close();
});
