/**
 * ctx.model end to end: the handler (in its locked-down process) asks the
 * worker, the worker's chat-completions adapter calls a real local provider
 * (runtime/test/fixtures/chat-provider.mjs, its own process and request log)
 * with the key only the worker holds, and the runtime books the spend: one
 * model call before the request, the reported tokens after. The handler's
 * own charge is not what is counted.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { SqliteStore } from "@taskspec/runtime";
import { runCli } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 120_000 });

const KEY = "sk-provider-secret-4242424242";
const dir = mkdtempSync(join(tmpdir(), "taskspec-model-"));
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

const contract = (calls: number) => `contract: 1
task:
  id: asks
  version: 1
  goal: Ask a model
  outputs: [answer]
  done: [ok]
budgets:
  model_calls: ${calls}
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
      const second = await ctx.model({ messages: [{ role: "user", content: "again" }] });
      let direct = "refused";
      try { await fetch(${JSON.stringify("URL")}, { method: "POST" }); direct = "reached"; } catch {}
      await ctx.write("answer", { first: first.content, second: second.content, direct, keySeen: process.env.TASKSPEC_MODEL_API_KEY !== undefined });
      return { ok: true };
    },
  },
  tools: {},
};
`;

const requests = () =>
  readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { authorization: string | null; body: string });

async function runCase(name: string, calls: number, flags: string[]) {
  const d = mkdtempSync(join(dir, `${name}-`));
  writeFileSync(join(d, "asks.task.yaml"), contract(calls));
  writeFileSync(join(d, "handlers.mjs"), HANDLERS.replace('"URL"', JSON.stringify(`${url}/chat/completions`)));
  const store = `sqlite:${join(d, "store.db")}`;
  const before = requests().length;
  const r = await runCli(
    ["run", join(d, "asks.task.yaml"), "--handlers", join(d, "handlers.mjs"), "--run", "R", ...flags],
    { TASKSPEC_MODEL_API_KEY: KEY, TASKSPEC_ISOLATION: undefined }, // the default: a handler process per attempt
    store,
  );
  if (r.code === 2) return { r, sent: requests().slice(before) };
  const s = new SqliteStore({ path: join(d, "store.db") });
  await s.init();
  const facts = await s.loadFacts("R");
  const events = await s.listEvents("R");
  const answer = (await s.listArtifacts("R", {})).find((a) => a.name === "answer");
  const artifact = answer ? (JSON.parse(readFileSync(join(d, "artifacts", answer.path), "utf8")) as Record<string, unknown>) : undefined;
  await s.close();
  return { r, facts, events, artifact, sent: requests().slice(before) };
}

it("the worker calls the provider with its key and books one call and the reported tokens per ctx.model", async () => {
  const { r, facts, sent, artifact, events } = await runCase("ok", 5, ["--model-url", url, "--model", "local-echo"]);
  expect(r.code, r.stderr).toBe(0);
  expect(sent).toHaveLength(2);
  expect(sent.every((q) => q.authorization === `Bearer ${KEY}`)).toBe(true);
  expect(facts!.run.budgetUsed).toMatchObject({ model_calls: 2, tokens: 7 + 3 }); // "three short words" 3+4, "again" 1+2
  expect(artifact).toMatchObject({ first: "echo: three short words", second: "echo: again", keySeen: false });
  // the handler process has no network (where unshare works): ctx.model is its only way to the provider
  const isolation = events!.find((e) => e.type === "isolation")?.data;
  expect(isolation?.mode).toBe("process");
  if (isolation?.network === "isolated") expect(artifact?.direct).toBe("refused");
});

it("a model call past the cap is refused before it leaves: the run blocks on the budget", async () => {
  const { r, facts, sent } = await runCase("cap", 1, ["--model-url", url, "--model", "local-echo"]);
  expect(r.code).toBe(3); // blocked
  expect(sent).toHaveLength(1);
  expect(facts!.run.budgetUsed.model_calls).toBe(1);
  expect(r.stdout + r.stderr).toMatch(/model_calls/);
});

it("without a configured model, ctx.model is refused with how to configure one", async () => {
  const { r, sent, events } = await runCase("none", 5, []);
  expect(r.code).not.toBe(0);
  expect(sent).toHaveLength(0);
  const failed = events!.filter((e) => e.type === "attempt-failed").map((e) => JSON.stringify(e.data));
  expect(failed.join("\n")).toMatch(/no model configured.*--model-url/);
});

it("a bad --model-url is a usage error (exit 2), nothing runs", async () => {
  const { r, sent } = await runCase("bad", 5, ["--model-url", "not a url", "--model", "x"]);
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/--model-url takes a URL/);
  expect(sent).toHaveLength(0);
});
