/**
 * Hidden misbehaving handlers against the real CLI, under both isolation
 * modes: a handler's throw, whatever it throws, is its own failure with its
 * message (never `crashed`, which is for a process that dies); a tool call
 * that keeps ending UNKNOWN, found absent by its lookup each time, counts
 * toward `retry.max`; a unit makes at most its bound of distinct posts
 * however it varies the key. A local HTTP service counts the posts.
 */
import { createServer, type Server } from "node:http";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli, tempRunDir, type CliResult } from "./runtime-harness.js";
import { SqliteStore } from "../runtime/src/store/sqlite.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const HANDLERS = fileURLToPath(new URL("./fixtures/misbehaving/handlers.mjs", import.meta.url));
const { dir, store } = tempRunDir("taskspec-misbehaving-");
const db = join(dir, "store.db");

const THROWS = `contract: 1
task:
  id: throws
  version: 1
  goal: A handler's throw is its failure with its message
  outputs: [odd-out, getter-out]
  done: [ok]
inputs:
  channel: { kind: decision, value: "news-desk" }
budgets:
  model_calls: 10
  tool_calls: 10
  tokens: 1000
  retries: 0
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
  t_odd: { needs: { channel: content }, produces: [odd-out], verify: [ok] }
  t_getter: { produces: [getter-out], verify: [ok] }
`;

const UNKNOWN = `contract: 1
task:
  id: unknown
  version: 1
  goal: An UNKNOWN call found absent counts toward retry.max
  outputs: [unknown-out]
  done: [ok]
budgets:
  model_calls: 10
  tool_calls: 60
  tokens: 1000
  retries: 0
tools:
  create_post: { class: dedup, key: "post:\${run.id}:\${unit.id}", lookup: find_post, result: { id: string } }
  find_post: { class: read }
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
  u_unknown: { uses: [create_post], produces: [unknown-out], verify: [ok], retry: { max: 0 } }
`;

const BOUNDS = `contract: 1
task:
  id: bounds
  version: 1
  goal: A unit makes at most its bound of distinct posts
  outputs: [two-out, three-out, parallel-out, retry-out]
  done: [ok]
budgets:
  model_calls: 10
  tool_calls: 60
  tokens: 1000
  retries: 0
tools:
  create_post: { class: dedup, key: "post:\${run.id}:\${unit.id}:\${args.title}", lookup: find_post, result: { id: string } }
  create_note: { class: dedup, key: "note:\${run.id}:\${unit.id}:\${attempt.id}", lookup: find_post, result: { id: string } }
  find_post: { class: read }
verifiers:
  ok: { kind: rule, check: "result.ok == true" }
units:
  a_two: { uses: [create_post], effects: { create_post: { max: 1 } }, produces: [two-out], verify: [ok] }
  a_three: { uses: [create_post], effects: { create_post: { max: 2 } }, produces: [three-out], verify: [ok] }
  a_parallel: { uses: [create_post], effects: { create_post: { max: 1 } }, produces: [parallel-out], verify: [ok] }
  a_retry: { uses: [create_note], produces: [retry-out], verify: [ok], retry: { max: 1 } }
`;

let server: Server;
/** Posts the service received, by Idempotency-Key. */
const posts = new Map<string, number>();
const runs: Record<string, CliResult> = {};
const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { TASKSPEC_ISOLATION: undefined, MISBEHAVING_URL: url(), ...env }, store);
let port = 0;
const url = () => `http://127.0.0.1:${port}`;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      const u = new URL(req.url ?? "/", "http://x");
      if (req.method === "GET") {
        res.end(JSON.stringify({ found: null })); // nothing is ever found: every UNKNOWN is absent
        return;
      }
      const key = String(req.headers["idempotency-key"] ?? "");
      posts.set(key, (posts.get(key) ?? 0) + 1);
      const args = JSON.parse(body || "{}") as { fail?: string };
      res.statusCode = args.fail === "503" ? 503 : 200;
      res.end(JSON.stringify({ id: `${u.pathname}:${key}` }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as { port: number }).port;
  writeFileSync(join(dir, "throws.task.yaml"), THROWS);
  writeFileSync(join(dir, "unknown.task.yaml"), UNKNOWN);
  writeFileSync(join(dir, "bounds.task.yaml"), BOUNDS);
  const [p, n, u, b] = await Promise.all([
    cli(["run", join(dir, "throws.task.yaml"), "--handlers", HANDLERS, "--run", "TP", "--isolation", "process"]),
    cli(["run", join(dir, "throws.task.yaml"), "--handlers", HANDLERS, "--run", "TN", "--isolation", "none"]),
    cli(["run", join(dir, "unknown.task.yaml"), "--handlers", HANDLERS, "--run", "UK"]),
    cli(["run", join(dir, "bounds.task.yaml"), "--handlers", HANDLERS, "--run", "BD"]),
  ]);
  runs.BD = b;
  runs.TP = p;
  runs.TN = n;
  runs.UK = u;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

async function unitsOf(run: string) {
  const s = new SqliteStore({ path: db });
  try {
    return new Map((await s.loadFacts(run)).units.map((u) => [u.unit, u]));
  } finally {
    await s.close();
  }
}

describe("a handler that throws fails with its own error, never `crashed`", () => {
  for (const [run, mode] of [
    ["TP", "process"],
    ["TN", "none"],
  ] as const) {
    it(`--isolation ${mode}: odd thrown values are the handler's error, their message scrubbed`, async () => {
      expect(runs[run]!.stderr).not.toMatch(/internal|TypeError: Cannot convert/);
      expect(runs[run]!.stdout).toMatch(new RegExp(`run ${run}: failed`));
      const units = await unitsOf(run);
      expect(units.get("t_odd")).toMatchObject({
        state: "failed",
        failures: 1,
        lastError: { class: "handler-error", message: "handler threw: odd boom near [redacted]" },
      });
      expect(units.get("t_getter")).toMatchObject({
        state: "failed",
        lastError: { class: "handler-error", message: expect.stringMatching(/^handler threw: a thrown object that cannot be shown/) },
      });
    });
  }
});

describe("an effect that ends UNKNOWN and is found absent counts toward retry.max", () => {
  it("retry.max: 0, a post that always ends UNKNOWN, a lookup that says absent: one attempt, failed with its reason", async () => {
    expect(runs.UK!.stdout).toMatch(/run UK: failed/);
    const units = await unitsOf("UK");
    expect(units.get("u_unknown")).toMatchObject({
      state: "failed",
      attempts: 1,
      failures: 1,
      lastError: {
        class: "tool-error",
        attempt: 1,
        message: expect.stringMatching(
          /^the outcome of create_post was unknown \(POST \/posts: 503\) and lookup find_post found it absent: attempt a1 made nothing and counts toward retry\.max/,
        ),
      },
    });
    expect(posts.get("post:UK:u_unknown")).toBe(1);
  });
});

describe("a unit makes at most its bound of distinct dedup effects, however the handler varies the key", () => {
  const postsOf = (prefix: string) => [...posts.entries()].filter(([k]) => k.startsWith(prefix)).sort();

  it("bound 1, two titles: the first is posted, the second refused before it is sent", async () => {
    expect(runs.BD!.stdout).toMatch(/run BD: failed/);
    const units = await unitsOf("BD");
    expect(units.get("a_two")).toMatchObject({ state: "failed", lastError: { class: "guard" } });
    expect(units.get("a_two")!.lastError!.message).toMatch(
      /^unit a_two called create_post with key "post:BD:a_two:B", a distinct effect beyond the 1 its contract declares \(`effects: \{ create_post: \{ max: 1 \} \}`\); it already made "post:BD:a_two:A"; refused, nothing was sent/,
    );
    expect(postsOf("post:BD:a_two:")).toEqual([["post:BD:a_two:A", 1]]);
  });

  it("bound 2, three titles: two posts", async () => {
    expect((await unitsOf("BD")).get("a_three")).toMatchObject({ state: "failed", lastError: { class: "guard" } });
    expect(postsOf("post:BD:a_three:")).toEqual([
      ["post:BD:a_three:A", 1],
      ["post:BD:a_three:B", 1],
    ]);
  });

  it("bound 1, two posts at once: exactly one reaches the service", async () => {
    expect((await unitsOf("BD")).get("a_parallel")).toMatchObject({ state: "failed", lastError: { class: "guard" } });
    expect(postsOf("post:BD:a_parallel:")).toHaveLength(1);
  });

  it("a key per attempt: the retry's new key is refused, the count is the store's (one post)", async () => {
    const unit = (await unitsOf("BD")).get("a_retry");
    expect(unit).toMatchObject({ state: "failed", attempts: 2, lastError: { class: "guard", attempt: 2 } });
    expect(unit!.lastError!.message).toMatch(
      /key "note:BD:a_retry:a2", a distinct effect beyond the one a unit makes without a declared bound/,
    );
    expect(postsOf("note:BD:a_retry:")).toEqual([["note:BD:a_retry:a1", 1]]);
  });
});
