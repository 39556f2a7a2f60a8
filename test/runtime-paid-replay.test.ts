/**
 * Paid work is not paid twice, with the real CLI, a handler process per
 * attempt, a local chat-completions provider that logs every request
 * (runtime/test/fixtures/chat-provider.mjs) and the examples' mail service:
 * (a) a worker SIGKILLed after its model calls answered and before the unit
 * committed: the resumed attempt is handed back the answers, the provider gets
 * no new request, and the artifact is the one the run without the kill writes;
 * a worker killed while a call was out: that call (paid, its answer unknown)
 * is sent again, the answered one before it is not;
 * (b) a gate whose handler asks a model that answers differently each time to
 * write the mail it sends: the sending attempt after the approval renders the
 * approved mail (the answer replayed), which is sent once, the model paid once;
 * (c) an approval that does not apply (its scope does not cover the tool):
 * the run blocks with the reason and `resume` does not claim the gate again
 * and again.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { harnessPerTest, LEGACY_FIXTURE_ENV, runCli, spawnCli, tempRunDir, tokenOf } from "./runtime-harness.js";
import { SqliteStore } from "@taskspec/runtime";

vi.setConfig({ testTimeout: 180_000 });

const KEY = "sk-provider-secret-7373737373";
const { dir } = tempRunDir("taskspec-replay-");
const log = join(dir, "provider.jsonl");
writeFileSync(log, "");
let provider: ChildProcess;
let url = "";

beforeAll(async () => {
  provider = spawn(process.execPath, [fileURLToPath(new URL("../runtime/test/fixtures/chat-provider.mjs", import.meta.url)), log, KEY], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) => provider.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
  url = `http://127.0.0.1:${port}/v1`;
});
afterAll(() => provider?.kill());

/** Requests the provider received so far. */
const received = () => readFileSync(log, "utf8").split("\n").filter(Boolean).length;
/** Default isolation (a handler process per attempt) and the provider's key in the worker only. */
const ENV = { TASKSPEC_MODEL_API_KEY: KEY, TASKSPEC_ISOLATION: undefined, TASKSPEC_CRASH_AT: "" };
const modelFlags = (model: string) => ["--model-url", url, "--model", model];

async function withStore<T>(db: string, fn: (s: SqliteStore) => Promise<T>): Promise<T> {
  const s = new SqliteStore({ path: db });
  await s.init();
  try {
    return await fn(s);
  } finally {
    await s.close();
  }
}

describe("a crash after a model call does not pay for it again", () => {
  const CONTRACT = `contract: 1
task:
  id: asks
  version: 1
  goal: Ask a model twice and keep what it said
  outputs: [answer]
  done: [ok]
budgets:
  model_calls: 10
  tokens: 1000
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  ask:
    produces: [answer]
    timeout: 1m
`;
  const HANDLERS = `export default {
  units: {
    async ask(ctx) {
      const first = await ctx.model({ messages: [{ role: "user", content: "three short words" }] });
      await ctx.charge({ tokens: 5 });
      const second = await ctx.model({ messages: [{ role: "user", content: "and again: " + first.content }] });
      await ctx.write("answer", { first: first.content, second: second.content });
      return { ok: true };
    },
  },
  tools: {},
};
`;
  async function runOnce(name: string, crashAt: string) {
    const d = join(dir, name);
    const { mkdirSync } = await import("node:fs");
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, "asks.task.yaml"), CONTRACT);
    writeFileSync(join(d, "handlers.mjs"), HANDLERS);
    const db = join(d, "store.db");
    const args = ["run", join(d, "asks.task.yaml"), "--handlers", join(d, "handlers.mjs"), "--run", "R", ...modelFlags("local-echo")];
    const before = received();
    const first = await runCli(args, { ...ENV, TASKSPEC_CRASH_AT: crashAt }, `sqlite:${db}`);
    const paidFirst = received() - before;
    const resumed = crashAt ? await runCli(["resume", "R", ...modelFlags("local-echo")], ENV, `sqlite:${db}`) : first;
    const paid = received() - before;
    const facts = await withStore(db, async (s) => {
      const answer = (await s.listArtifacts("R", { status: "committed" })).find((a) => a.name === "answer")!;
      return {
        artifact: readFileSync(join(d, "artifacts", answer.path), "utf8"),
        used: (await s.loadFacts("R")).run.budgetUsed,
        replayed: (await s.listEvents("R", { type: "paid-call-replayed" })).map((e) => [e.attempt, e.data?.call, e.data?.replayed]),
      };
    });
    return { first, resumed, paidFirst, paid, ...facts };
  }

  it("the worker SIGKILLed after the calls answered and before the commit: the re-run makes no new model call, same artifact", async () => {
    const baseline = await runOnce("baseline", "");
    expect(baseline.first.code, baseline.first.stderr).toBe(0);
    expect(baseline.paid).toBe(2);

    const killed = await runOnce("killed", "after-artifact-before-commit@ask");
    expect(killed.first.signal, killed.first.stderr).toBe("SIGKILL");
    expect(killed.paidFirst).toBe(2);
    expect(killed.resumed.code, killed.resumed.stderr + killed.resumed.stdout).toBe(0);
    // the resumed attempt was handed back both answers and the charge: the provider got nothing new
    expect(killed.paid).toBe(2);
    expect(killed.replayed).toEqual([
      [2, "model", true],
      [2, "charge", true],
      [2, "model", true],
    ]);
    // paid once: two model calls, their tokens and the handler's own charge, as in the run without the kill
    expect(killed.used.model_calls).toBe(baseline.used.model_calls);
    expect(killed.used.tokens).toBe(baseline.used.tokens);
    expect(killed.artifact).toBe(baseline.artifact);
  });
});

describe("a call whose answer never came was paid and is made again", () => {
  // the handler runs in the worker (--isolation none), so killing the worker kills the call in flight
  const HANDLERS = `export default {
  units: {
    async ask(ctx) {
      const first = await ctx.model({ messages: [{ role: "user", content: "three short words" }] });
      const second = await ctx.model({ model: "slow", messages: [{ role: "user", content: "and slowly" }] });
      await ctx.write("answer", { first: first.content, second: second.content });
      return { ok: true };
    },
  },
  tools: {},
};
`;
  const CONTRACT = `contract: 1
task:
  id: asks
  version: 1
  goal: Ask a model twice, the second time slowly
  outputs: [answer]
  done: [ok]
budgets:
  model_calls: 10
  tokens: 1000
verifiers:
  ok: { kind: rule, check: "count(result.stale_outputs) == 0" }
units:
  ask:
    produces: [answer]
    timeout: 1m
`;

  it("killed while its second call was out: the resumed attempt is handed the first answer and sends the second again", async () => {
    const d = join(dir, "during");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, "asks.task.yaml"), CONTRACT);
    writeFileSync(join(d, "handlers.mjs"), HANDLERS);
    const db = join(d, "store.db");
    const env = { ...ENV, ...LEGACY_FIXTURE_ENV };
    const before = received();
    const run = spawnCli(
      [
        "run",
        join(d, "asks.task.yaml"),
        "--handlers",
        join(d, "handlers.mjs"),
        "--run",
        "R",
        ...modelFlags("local-echo"),
        "--store",
        `sqlite:${db}`,
      ],
      env,
    );
    // the provider logs a request before it answers (the slow one after 2 s): once it has the second, that call is out
    let ended = false;
    void run.done.then(() => (ended = true));
    while (!ended && received() < before + 2) await new Promise((r) => setTimeout(r, 20));
    run.child.kill("SIGKILL");
    expect((await run.done).signal).toBe("SIGKILL");
    expect(received() - before).toBe(2);

    const resumed = await runCli(["resume", "R", ...modelFlags("local-echo")], env, `sqlite:${db}`);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    // the first call replayed, the second (started, never answered: paid, its answer unknown) sent again: one new request
    expect(received() - before).toBe(3);
    await withStore(db, async (s) => {
      const calls = await s.listPaidCalls("R", { unit: "ask" });
      expect(calls.map((c) => [c.attempt, c.seq, c.state, c.closedAt !== undefined])).toEqual([
        [1, 0, "answered", true],
        [1, 1, "started", true],
        [2, 0, "replayed", true],
        [2, 1, "answered", true],
      ]);
      // the same request both times: not replayed because its answer never came
      expect(calls[3]!.requestHash).toBe(calls[1]!.requestHash);
      expect((await s.loadFacts("R")).run.budgetUsed.model_calls).toBe(3);
    });
  });
});

describe("a model-written request can be approved", () => {
  const h = harnessPerTest();
  const CONTRACT = `contract: 1
task:
  id: drafts
  version: 1
  goal: Mail a note a model wrote, once, after a person approved exactly that note
  timeout: 5m
  outputs: [receipt]
  done: [sent_once]
budgets:
  model_calls: 10
  tool_calls: 10
  tokens: 1000
tools:
  send_mail: { class: irreversible, approval: human, key: "mail:\${run.id}", result: { message_id: string } }
verifiers:
  sent_once: { kind: rule, check: "exists(result.message_id)" }
units:
  notify:
    uses: [send_mail]
    approval: human
    retry: { max: 0 }
    produces: [receipt]
    verify: [sent_once]
`;
  const HANDLERS = `export default {
  units: {
    notify: async (ctx) => {
      const draft = await ctx.model({ messages: [{ role: "user", content: "write a two-line note about the trip" }] });
      const r = await ctx.tool("send_mail", { to: "ada@example.org", subject: "Your trip", body: draft.content });
      await ctx.write("receipt", r);
      return r;
    },
  },
};
`;
  const TOOLS = `export default {
  tools: {
    send_mail: {
      call: async (args, meta) => {
        const res = await fetch(process.env.TASKSPEC_MAIL_URL + "/send", {
          method: "POST",
          headers: { "content-type": "application/json", "Idempotency-Key": meta.key, "X-Fencing-Token": String(meta.fencingToken) },
          body: JSON.stringify(args),
          signal: meta.signal,
        });
        const json = await res.json();
        if (!res.ok) throw new Error("mail: " + res.status);
        return { message_id: json.id };
      },
    },
  },
};
`;
  const setup = () => {
    writeFileSync(join(h.dir, "drafts.task.yaml"), CONTRACT);
    writeFileSync(join(h.dir, "drafts-handlers.mjs"), HANDLERS);
    writeFileSync(join(h.dir, "drafts-tools.mjs"), TOOLS);
    return (run: string) => [
      "run",
      join(h.dir, "drafts.task.yaml"),
      "--handlers",
      join(h.dir, "drafts-handlers.mjs"),
      "--tools",
      join(h.dir, "drafts-tools.mjs"),
      "--run",
      run,
      ...modelFlags("counter"),
    ];
  };
  const cli = (args: string[]) => h.cli(args, ENV as unknown as Record<string, string>);
  const prepared = async (run: string) =>
    (
      JSON.parse((await cli(["status", run, "--format", "json"])).stdout) as {
        prepared: Array<{ args: Record<string, unknown>; requestHash: string }>;
      }
    ).prepared;
  const claims = async (run: string) =>
    withStore(h.db, async (s) => (await s.listEvents(run, { type: "leased" })).filter((e) => e.unit === "notify").length);

  it("the approved mail, written by a model that never answers the same twice, is sent exactly once and the model paid once", async () => {
    const args = setup();
    const before = received();
    const first = await cli(args("M1"));
    expect(first.code, first.stdout + first.stderr).toBe(3);
    expect(received() - before).toBe(1);
    const [held] = await prepared("M1");
    expect(held!.args.body).toMatch(/^echo: write a two-line note about the trip \(draft \d+\)$/);

    const approved = await cli(["approve", "M1", "notify", "--token", tokenOf(first, "notify")]);
    expect(approved.code, approved.stderr).toBe(0);
    const done = await cli(["resume", "M1", ...modelFlags("counter")]);
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.stdout).toMatch(/run M1: done/);
    // the model was not asked again: the sending attempt was handed back the draft the person approved
    expect(received() - before).toBe(1);
    const sent = (await h.get("mail", "/messages")) as Array<{ to: string; body: string }>;
    expect(sent.map((m) => m.body)).toEqual([held!.args.body]);
    expect((await h.stats("mail")).counters.sends).toBe(1);
    await withStore(h.db, async (s) => {
      expect((await s.loadFacts("M1")).run.budgetUsed.model_calls).toBe(1);
      expect((await s.listEffects("M1")).map((e) => [e.state, e.requestHash])).toEqual([["COMMITTED", held!.requestHash]]);
      expect((await s.listEvents("M1", { type: "paid-call-replayed" })).map((e) => e.data?.replayed)).toEqual([true]);
    });
  });

  it("an approval that does not apply blocks the run with its reason, and resume does not claim the gate again and again", async () => {
    const args = setup();
    const first = await cli(args("M2"));
    expect(first.code, first.stdout + first.stderr).toBe(3);
    expect(await claims("M2")).toBe(1);
    const before = received();
    // granted, but for another tool: the call would refuse it
    const approved = await cli(["approve", "M2", "notify", "--token", tokenOf(first, "notify"), "--scope", "tool:other"]);
    expect(approved.code, approved.stderr).toBe(0);

    const again = await cli(["resume", "M2", ...modelFlags("counter")]);
    expect(again.code, again.stdout + again.stderr).toBe(3);
    expect(again.stdout).toMatch(
      /blocked notify: approval: .*approval ap_\S+ does not apply: scope tool:other does not cover tool send_mail/,
    );
    const twice = await cli(["resume", "M2", ...modelFlags("counter")]);
    expect(twice.code).toBe(3);
    // blocked, not spinning: no claim of the gate since the one that prepared the request, nothing sent, nothing paid
    expect(await claims("M2")).toBe(1);
    expect((await h.stats("mail")).counters.sends ?? 0).toBe(0);
    expect(received() - before).toBe(0);
  });
});
