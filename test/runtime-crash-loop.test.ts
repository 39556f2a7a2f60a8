/**
 * A unit whose attempts keep killing their worker is bounded by retry.max
 * like any other failing unit: each attempt whose lease is broken because its
 * worker died counts, and after max(retry.max + 1, 3) such attempts in a row the unit fails
 * with reason crash-loop instead of being claimed again forever. Real
 * processes: the handler SIGKILLs the worker it runs in (the in-process mode,
 * where a handler can do that).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { SqliteStore } from "@taskspec/runtime";
import { runCli } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 120_000 });

const CONTRACT = `contract: 1
task:
  id: crashy
  version: 1
  goal: A unit that kills its worker
  outputs: [out]
  done: [ok]
budgets:
  retries: 1
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  boom:
    produces: [out]
    timeout: 1m
`;

const HANDLERS = `export default {
  units: { boom: async () => { process.kill(process.pid, "SIGKILL"); await new Promise(() => {}); } },
  tools: {},
};
`;

it("a unit that kills its worker on every attempt fails as a crash-loop after max(retry.max + 1, 3) attempts", async () => {
  const dir = mkdtempSync(join(tmpdir(), "taskspec-crash-loop-"));
  writeFileSync(join(dir, "crashy.task.yaml"), CONTRACT);
  writeFileSync(join(dir, "handlers.mjs"), HANDLERS);
  const store = `sqlite:${join(dir, "store.db")}`;
  const env = { TASKSPEC_ISOLATION: "none" };

  const first = await runCli(["run", join(dir, "crashy.task.yaml"), "--handlers", join(dir, "handlers.mjs"), "--run", "R"], env, store);
  expect(first.signal).toBe("SIGKILL");
  const second = await runCli(["resume", "R"], env, store);
  expect(second.signal).toBe("SIGKILL");
  const third = await runCli(["resume", "R"], env, store);
  expect(third.signal).toBe("SIGKILL"); // two deaths in a row are always survived: max(retry.max + 1, 3)
  const fourth = await runCli(["resume", "R"], env, store);
  expect(fourth.signal).toBeNull();
  expect(fourth.code).not.toBe(0);
  expect(fourth.stdout + fourth.stderr).toMatch(/crash-loop/);

  const s = new SqliteStore({ path: join(dir, "store.db") });
  await s.init();
  const events = await s.listEvents("R");
  const attempts = events.filter((e) => e.type === "leased" && e.unit === "boom" && e.data?.for !== "recovery");
  expect(attempts.map((e) => e.attempt)).toEqual([1, 2, 3]);
  expect(events.filter((e) => e.type === "lease-broken" && e.unit === "boom").map((e) => e.data?.deaths)).toEqual([1, 2, 3]);
  const failed = events.find((e) => e.type === "unit-failed" && e.unit === "boom");
  expect(failed?.data).toMatchObject({ reason: "crash-loop", retryMax: 1 });
  const facts = await s.loadFacts("R");
  expect(facts.units.find((u) => u.unit === "boom")?.state).toBe("failed");
  expect(facts.run.status).toBe("failed");
  await s.close();
});
