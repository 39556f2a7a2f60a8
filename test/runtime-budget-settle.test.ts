/**
 * Exact budgets after a kill, with real processes: a unit that declares a
 * cost (its claim books it) asks a real local model provider
 * (runtime/test/fixtures/chat-provider.mjs, which logs every request it got
 * and every answer it gave) twice; its first attempt's worker is SIGKILLed
 * before its first model call, while its second call is out (the provider
 * never answers it), or after its first call was answered; `resume` breaks
 * the dead worker's lease, settles its booking and runs the unit again.
 * The store's used model calls equal the requests the provider received
 * (a call started and never answered counts), its used tokens the tokens the
 * provider answered with, and `taskspec status` says so with the checkpoint
 * chain verified. On SQLite, and on PostgreSQL under scripts/with-postgres.sh.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "@taskspec/runtime";
import { LEGACY_FIXTURE_ENV, runCli, spawnCli } from "./runtime-harness.js";
import { describeIfAvailable, postgresMissing } from "./skip-loudly.js";

vi.setConfig({ testTimeout: 180_000 });

const dir = mkdtempSync(join(tmpdir(), "taskspec-budget-settle-"));
const log = join(dir, "provider.jsonl");
writeFileSync(log, "");
let provider: ChildProcess;
let url = "";

beforeAll(async () => {
  provider = spawn(process.execPath, [fileURLToPath(new URL("../runtime/test/fixtures/chat-provider.mjs", import.meta.url)), log], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) => provider.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
  url = `http://127.0.0.1:${port}/v1`;
});
afterAll(() => provider?.kill());

const CONTRACT = `contract: 1
task:
  id: settle
  version: 1
  goal: Ask a model twice; the first attempt is killed around a call
  outputs: [answer]
  done: [ok]
budgets:
  model_calls: 10
  tokens: 10000
  retries: 2
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  ask:
    produces: [answer]
    timeout: 1m
    cost: { model_calls: 2, tokens: 500 }
`;

// --isolation none: the handler runs in the worker, so its SIGKILL kills the worker (no crash point
// sits between a handler and its model call). The first attempt dies where SETTLE_MODE says.
const HANDLERS = `export default {
  units: {
    async ask(ctx) {
      const first = ctx.attempt.number === 1;
      const mode = process.env.SETTLE_MODE;
      if (first && mode === "before") process.kill(process.pid, "SIGKILL");
      const a = await ctx.model({ messages: [{ role: "user", content: "three short words" }] });
      if (first && mode === "after") process.kill(process.pid, "SIGKILL");
      const b = await ctx.model({ ...(first && mode === "during" ? { model: "hang" } : {}), messages: [{ role: "user", content: "again" }] });
      await ctx.write("answer", { a: a.content, b: b.content });
      return { ok: true };
    },
  },
  tools: {},
};
`;

const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
/** What the provider has seen so far: requests started, and the tokens of those it answered. */
const seen = () => ({
  started: lines(log).length,
  tokens: lines(`${log}.answered`).reduce((n, a) => n + Number(a.total_tokens), 0),
});

type Mode = "before" | "during" | "after";

async function killedThenResumed(mode: Mode, store: string, cwd: string) {
  writeFileSync(join(cwd, "settle.task.yaml"), CONTRACT);
  writeFileSync(join(cwd, "handlers.mjs"), HANDLERS);
  const before = seen();
  const env = { ...LEGACY_FIXTURE_ENV, SETTLE_MODE: mode };
  const model = ["--model-url", url, "--model", "local-echo"];
  const run = spawnCli(
    ["run", join(cwd, "settle.task.yaml"), "--handlers", join(cwd, "handlers.mjs"), "--run", "R", ...model, "--store", store],
    env,
    cwd,
  );
  if (mode === "during") {
    // the provider logs the request before it would answer: once it has the second one, that call is out
    let ended = false;
    void run.done.then(() => (ended = true));
    while (!ended && seen().started < before.started + 2) await new Promise((r) => setTimeout(r, 50));
    run.child.kill("SIGKILL");
  }
  const first = await run.done;
  expect(first.signal, first.stdout + first.stderr).toBe("SIGKILL");
  const killedAt = seen();
  const resumed = await runCli(["resume", "R", ...model], env, store, cwd);
  expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
  const after = seen();
  const s = await openStore(store, cwd);
  const run2 = await s.getRun("R");
  const events = await s.listEvents("R");
  await s.close();
  const status = await runCli(["status", "R"], {}, store, cwd);
  return {
    used: run2!.budgetUsed,
    provider: { started: after.started - before.started, tokens: after.tokens - before.tokens },
    killedAt: { started: killedAt.started - before.started, tokens: killedAt.tokens - before.tokens },
    events,
    status,
  };
}

function cases(storeFor: (mode: Mode) => { store: string; cwd: string }) {
  const expectations: Array<[Mode, string, { started: number; answered: number }]> = [
    ["before", "killed before its first model call: nothing of its booking is counted", { started: 0, answered: 0 }],
    [
      "during",
      "killed while its second model call was out: that call counts, its tokens (never reported) do not",
      { started: 2, answered: 1 },
    ],
    ["after", "killed after its first call was answered and booked: that call and its tokens", { started: 1, answered: 1 }],
  ];
  for (const [mode, name, killed] of expectations)
    it(name, async () => {
      const { store, cwd } = storeFor(mode);
      const r = await killedThenResumed(mode, store, cwd);
      // what the provider saw of the killed attempt: the kill was where the case says
      expect(r.killedAt.started).toBe(killed.started);
      expect(r.killedAt.tokens > 0).toBe(killed.answered > 0);
      // exactly what was paid: calls the provider received, tokens it answered with
      expect(r.used.model_calls).toBe(r.provider.started);
      expect(r.used.tokens).toBe(r.provider.tokens);
      expect(r.status.code, r.status.stdout + r.status.stderr).toBe(0);
      expect(r.status.stdout).toContain(`model_calls ${r.provider.started}/10`);
      expect(r.status.stdout).toContain(`tokens ${r.provider.tokens}/10000`);
      expect(r.status.stdout).toMatch(/checkpoint chain: verified/);
      // the recovery settled the killed attempt's booking; the second attempt's commit settled its own rest
      const settled = r.events.filter((e) => e.type === "budget-settled").map((e) => [e.attempt, e.data?.why]);
      expect(settled).toEqual([
        [1, "lease-broken"],
        [2, "committed"],
      ]);
    });
}

describe("a killed attempt's booking is settled at recovery to what it started (SQLite)", () => {
  cases((mode) => {
    const cwd = mkdtempSync(join(dir, `sqlite-${mode}-`));
    return { store: `sqlite:${join(cwd, "store.db")}`, cwd };
  });
});

describeIfAvailable("a killed attempt's booking is settled at recovery to what it started (PostgreSQL)", postgresMissing(), () => {
  cases((mode) => {
    const cwd = mkdtempSync(join(dir, `pg-${mode}-`));
    return { store: `${process.env.TASKSPEC_PG_URL}?schema=settle_${mode}_${process.pid}_${Date.now()}`, cwd };
  });
});
