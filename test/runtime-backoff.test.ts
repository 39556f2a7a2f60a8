/**
 * Retry backoff, with real processes: a unit with `retry.max: 2` against a
 * service that is down for its first two calls and for 450 ms after the
 * first. Without backoff the three attempts follow each other within
 * milliseconds and the run fails; with `backoff: { initial: 150ms, factor: 2,
 * jitter: none }` the worker waits 150 ms, then 300 ms, the third attempt
 * finds the service up and the run is done. Each wait is a `retry-scheduled`
 * event with its delay, the delays grow, and no attempt starts before its
 * backoff is over. While a unit waits, the worker sleeps (it neither exits nor
 * reports the run blocked) and `status` says when the retry comes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it, vi } from "vitest";
import { SqliteStore } from "@taskspec/runtime";
import { LEGACY_FIXTURE_ENV, runCli } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 120_000 });

const contract = (backoff: string) => `contract: 1
task:
  id: flaky-fetch
  version: 1
  goal: Fetch a page from a service that has a short outage
  outputs: [page]
  done: [ok]
budgets:
  model_calls: 10
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  fetch:
    produces: [page]
    timeout: 1m
    retry:
      max: 2
      backoff: ${backoff}
`;

/**
 * The "service": down for its first two calls and until OUTAGE_MS after the
 * first one (the first call records when that is). Each call logs its start.
 */
const HANDLERS = `import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
export default {
  units: {
    async fetch(ctx) {
      const log = process.env.BACKOFF_LOG;
      const now = Date.now();
      if (!existsSync(log + ".until")) writeFileSync(log + ".until", String(now + Number(process.env.OUTAGE_MS)));
      const calls = readFileSync(log, "utf8").split("\\n").filter(Boolean).length;
      appendFileSync(log, JSON.stringify({ attempt: ctx.attempt.number, at: now }) + "\\n");
      if (calls < 2 || now < Number(readFileSync(log + ".until", "utf8"))) throw new Error("service unavailable (503)");
      await ctx.write("page", "the page\\n");
      return { ok: true };
    },
  },
  tools: {},
};
`;

function setup(prefix: string, backoff: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(dir, "flaky.task.yaml"), contract(backoff));
  writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
  const log = join(dir, "calls.jsonl");
  writeFileSync(log, "");
  return {
    log,
    store: `sqlite:${join(dir, "store.db")}`,
    args: ["run", join(dir, "flaky.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", "R"],
    calls: () =>
      readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { attempt: number; at: number }),
    open: async () => {
      const s = new SqliteStore({ path: join(dir, "store.db") });
      await s.init();
      return s;
    },
  };
}

it("three attempts against a short outage: waits of 150 then 300 ms, recorded and growing, and the run is done", async () => {
  const t = setup("taskspec-backoff-", "{ initial: 150ms, factor: 2, max: 10s, jitter: none }");
  // --isolation none: the handler logs its attempts to a file outside its attempt directory
  const out = await runCli(t.args, { ...LEGACY_FIXTURE_ENV, BACKOFF_LOG: t.log, OUTAGE_MS: "450" }, t.store);
  expect(out.code, out.stdout + out.stderr).toBe(0);

  const s = await t.open();
  expect((await s.getRun("R"))?.status).toBe("done");
  const events = await s.listEvents("R");
  const scheduled = events.filter((e) => e.type === "retry-scheduled");
  expect(scheduled.map((e) => [e.attempt, e.data?.delayMs, e.data?.failures, e.data?.retryMax])).toEqual([
    [1, 150, 1, 2],
    [2, 300, 2, 2],
  ]);
  expect(events.filter((e) => e.type === "attempt-failed").map((e) => e.attempt)).toEqual([1, 2]);

  // no attempt started before the backoff its predecessor's failure scheduled
  const calls = t.calls();
  expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
  for (const [i, e] of scheduled.entries()) expect(calls[i + 1]!.at).toBeGreaterThanOrEqual(Date.parse(String(e.data?.notBefore)));
  await s.close();
});

it("while a unit waits out its backoff the worker sleeps (no exit, no 'blocked') and status says 'retry in Ns'", async () => {
  const t = setup("taskspec-backoff-wait-", "{ initial: 10m, jitter: none }");
  const cli = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
  const child = spawn(process.execPath, [cli, ...t.args, "--store", t.store], {
    env: { ...process.env, TASKSPEC_CRASH_AT: "", ...LEGACY_FIXTURE_ENV, BACKOFF_LOG: t.log, OUTAGE_MS: "0" },
    stdio: "ignore",
  });
  const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
  try {
    // wait (by polling the store, no clock) for the first failure's backoff to be recorded
    const s = await t.open();
    let scheduled;
    for (let i = 0; i < 600 && !scheduled; i++) {
      scheduled = (await s.listEvents("R").catch(() => [])).find((e) => e.type === "retry-scheduled");
      if (!scheduled) await new Promise((r) => setTimeout(r, 100));
    }
    expect(scheduled?.data?.delayMs).toBe(600_000);
    expect(child.exitCode).toBeNull();

    const status = await runCli(["status", "R"], {}, t.store);
    expect(status.stdout).toMatch(/backoff fetch: retry in (59\d|600)s \(attempt 2 at /);
    const json = JSON.parse((await runCli(["status", "R", "--format", "json"], {}, t.store)).stdout) as {
      status: string;
      units: Array<{ unit: string; state: string; retry?: { at: string } }>;
      stall: Array<{ kind: string }>;
      nextSafeAction: string;
    };
    expect(json.units.find((u) => u.unit === "fetch")).toMatchObject({ state: "pending", retry: { at: scheduled?.data?.notBefore } });
    // waiting for a retry is neither a block nor a stall, and the next safe action says so
    expect(json.status).toBe("resumable");
    expect(json.stall.map((x) => x.kind)).not.toContain("nothing-ready");
    expect(json.nextSafeAction).toBe(
      `wait: fetch retries at ${String(scheduled?.data?.notBefore)} (retry backoff after a failed attempt); a worker sleeps until then, or with none running: taskspec resume R`,
    );
    expect((await s.listEvents("R")).filter((e) => e.type === "blocked")).toEqual([]);
    expect(t.calls()).toHaveLength(1);
    await s.close();
  } finally {
    child.kill("SIGKILL");
    await exited;
  }
});
