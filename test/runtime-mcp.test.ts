/**
 * Tools bound to a real MCP server (test/fixtures/mcp/blog-server.mjs, built
 * with the SDK, with its own storage), called by the worker through the
 * ledger with no adapter written for them (the tools module is empty), over
 * stdio and over Streamable HTTP. What happened is read from the server's own
 * storage, never from the runtime's:
 * - a worker SIGKILLed after the server made the post and before the receipt
 *   was stored, then resumed: the lookup (the key passed in `key_arg`) finds
 *   the post, and the server made one;
 * - a server that dies mid-call after making the post: UNKNOWN, the server is
 *   started again for the lookup, one post;
 * - a call cut by the unit's timeout: the server gets MCP's cancellation
 *   notification, the effect is looked up, never retried blindly;
 * - a server whose tool changed after the lock: refused before anything is
 *   sent, the reason in `status`;
 * - a server asking for sampling and elicitation: refused, never hangs;
 * - an answer past the size bound: refused, named;
 * - an answer that does not fit the contract's `result:`: the call's failure,
 *   the difference named.
 */
import { type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOG_SERVER, startHttpBlog } from "./fixtures/mcp/http-blog.js";
import { runCli, tempRunDir } from "./runtime-harness.js";

const SERVER = BLOG_SERVER;

interface BlogState {
  posts: Array<{ key: string }>;
  starts: number;
  calls: Record<string, number>;
  cancelled: number;
  refused: string[];
}

const STDIO = (env: string, more = "") => `{ command: node, args: [${JSON.stringify(SERVER)}], env: [${env}]${more} }`;

const CONTRACT = (server: string, units: string, key = "post:${run.id}") => `contract: 1
task:
  id: blog
  goal: Publish one post
  timeout: 1m
  outputs: [post]
  done: [{ check: "true" }]
budgets: { tool_calls: 20, retries: 2 }
servers:
  blog: ${server}
tools:
  create_post:
    class: dedup
    key: "${key}"
    lookup: find_post
    result: { post_id: string, url: string }
    mcp: { server: blog, tool: create_post, key_arg: idempotency_key }
  find_post: { class: read, mcp: { server: blog, tool: find_post, key_arg: key } }
  summarize: { class: read, mcp: { server: blog, tool: summarize } }
  export_posts: { class: read, mcp: { server: blog, tool: export_posts } }
  list_posts: { class: read, result: { total: number }, mcp: { server: blog, tool: list_posts } }
units:
${units}`;

const PUBLISH = `  publish:
    uses: [create_post]
    produces: [post]
    timeout: 4s
    verify: [{ check: "exists(result.post_id)" }]
`;

const READ = (tool: string) => `  publish:
    uses: [${tool}]
    produces: [post]
    retry: { max: 0 }
    verify: [{ check: "true" }]
`;

const HANDLERS = (tool: string, args: object, again?: object) => `export default {
  units: {
    async publish(ctx) {
      let answer = await ctx.tool(${JSON.stringify(tool)}, ${JSON.stringify(args)});
      ${again ? `answer = await ctx.tool(${JSON.stringify(tool)}, ${JSON.stringify(again)});` : ""}
      await ctx.write("post", JSON.stringify(answer));
      return answer;
    },
  },
};
`;

interface Shape {
  units?: string;
  key?: string;
  /** A second create_post the handler makes after the first. */
  again?: object;
  /** The run's id (runs sharing one server's storage need their own keys). */
  runId?: string;
}

function setUp(server: string, read?: string, db?: string, shape: Shape = {}) {
  const { dir, store } = tempRunDir("taskspec-mcp-run-");
  const contract = join(dir, "blog.task.yaml");
  writeFileSync(contract, CONTRACT(server, shape.units ?? (read ? READ(read) : PUBLISH), shape.key));
  writeFileSync(join(dir, "handlers.mjs"), read ? HANDLERS(read, {}) : HANDLERS("create_post", { title: "Resumable tasks" }, shape.again));
  writeFileSync(join(dir, "tools.mjs"), "export default { tools: {} };\n");
  const file = db ?? join(dir, "blog.json");
  const state = () => (existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as BlogState) : undefined);
  const run = ["run", contract, "--handlers", join(dir, "handlers.mjs"), "--tools", join(dir, "tools.mjs"), "--run", shape.runId ?? "R"];
  const lock = async (env: Record<string, string> = {}) => {
    const r = await runCli(["mcp", "lock", contract], { BLOG_DB: file, ...env });
    expect(r.code, r.stderr).toBe(0);
  };
  return { dir, store, db: file, state, run, lock };
}

const postsUnder = (s: BlogState | undefined, key: string) => s?.posts.filter((p) => p.key === key).length ?? 0;

describe("tools bound to an MCP server over stdio, through the ledger", () => {
  it("a worker killed after the server made the post, before the receipt: resumed, one post by the server's count", async () => {
    const { store, db, state, run, lock } = setUp(STDIO("BLOG_DB"));
    await lock();
    const killed = await runCli(run, { BLOG_DB: db, TASKSPEC_CRASH_AT: "after-effect-before-receipt@publish/create_post" }, store);
    expect(killed.signal, killed.stdout + killed.stderr).toBe("SIGKILL");
    expect(postsUnder(state(), "post:R")).toBe(1);
    const resumed = await runCli(["resume", "R"], { BLOG_DB: db }, store);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("run R: done");
    expect(state()!.posts).toHaveLength(1);
    expect(state()!.calls.create_post).toBe(1); // recovery asked the lookup, never the tool again
    expect(state()!.calls.find_post).toBeGreaterThanOrEqual(1);
  });

  it("a server that dies mid-call after the effect: UNKNOWN, looked up on a restarted server, one post", async () => {
    const { dir, store, db, state, run, lock } = setUp(STDIO("BLOG_DB, BLOG_CRASH_ONCE"));
    const marker = join(dir, "crashed");
    await lock({ BLOG_CRASH_ONCE: "" });
    const r = await runCli(run, { BLOG_DB: db, BLOG_CRASH_ONCE: marker }, store);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(existsSync(marker)).toBe(true);
    const s = state()!;
    expect(s.posts).toHaveLength(1);
    expect(s.calls.create_post).toBe(1);
    expect(s.calls.find_post).toBeGreaterThanOrEqual(1);
    expect(s.starts).toBeGreaterThanOrEqual(3); // the lock's, the run's, and one started again after the crash for the lookup
    const events = await runCli(["events", "R"], {}, store);
    expect(events.stdout).toMatch(/effect-unknown/);
  });

  it("a call cut by the unit's timeout: the server is told (MCP cancellation), the effect looked up, not sent blindly", async () => {
    const { dir, store, db, state, run, lock } = setUp(STDIO("BLOG_DB, BLOG_HANG_ONCE"));
    await lock({ BLOG_HANG_ONCE: "" });
    const r = await runCli(run, { BLOG_DB: db, BLOG_HANG_ONCE: join(dir, "hung") }, store);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const s = state()!;
    expect(s.cancelled).toBe(1);
    expect(s.posts).toHaveLength(1);
    expect(s.calls.find_post).toBeGreaterThanOrEqual(1); // asked before the key was sent again
  });

  it("a server whose tool changed after the lock: the call is refused with the reason, nothing is sent", async () => {
    const { store, db, state, run, lock } = setUp(STDIO("BLOG_DB, BLOG_VARIANT"));
    await lock({ BLOG_VARIANT: "" });
    const changed = await runCli(run, { BLOG_DB: db, BLOG_VARIANT: "changed" }, store);
    expect(changed.code).not.toBe(0);
    const status = await runCli(["status", "R"], {}, store);
    expect(status.stdout + status.stderr).toContain("MCP server 'blog' changed tool 'create_post' since the lock");
    expect(state()!.posts).toHaveLength(0);
    expect(state()!.calls.create_post).toBeUndefined();
  });

  it("a tool changed on the live server between two calls of one connection: the second is refused with the reason, not sent", async () => {
    const { store, db, state, run, lock } = setUp(STDIO("BLOG_DB, BLOG_CHANGE_AFTER_FIRST"), undefined, undefined, {
      key: "post:${run.id}:${args.title}",
      again: { title: "Second post" },
      units: PUBLISH.replace("timeout: 4s", "timeout: 30s\n    retry: { max: 0 }\n    effects: { create_post: { max: 2 } }"),
    });
    await lock({ BLOG_CHANGE_AFTER_FIRST: "" });
    const r = await runCli(run, { BLOG_DB: db, BLOG_CHANGE_AFTER_FIRST: "1" }, store);
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    const s = state()!;
    expect(s.starts).toBe(2); // the lock's, and one for both calls of the run
    expect(s.calls.create_post).toBe(1);
    expect(s.posts.map((p) => p.key)).toEqual(["post:R:Resumable tasks"]);
    const status = await runCli(["status", "R"], {}, store);
    expect(status.stdout + status.stderr).toContain("MCP server 'blog' changed tool 'create_post' since the lock");
  });

  it("a server's own timeout cuts a call the unit would still wait for: the server is told (MCP cancellation), the effect looked up", async () => {
    const { dir, store, db, state, run, lock } = setUp(STDIO("BLOG_DB, BLOG_HANG_ONCE", ", timeout: 1s"), undefined, undefined, {
      units: PUBLISH.replace("timeout: 4s", "timeout: 10m"),
    });
    await lock({ BLOG_HANG_ONCE: "" });
    const r = await runCli(run, { BLOG_DB: db, BLOG_HANG_ONCE: join(dir, "hung") }, store);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const s = state()!;
    expect(s.cancelled).toBe(1);
    expect(s.posts).toHaveLength(1);
    expect(s.calls.find_post).toBeGreaterThanOrEqual(1);
    const events = await runCli(["events", "R"], {}, store);
    expect(events.stdout).toMatch(/effect-unknown/);
    expect(events.stdout).toMatch(/timed out/i);
  });

  it("a server asking for sampling and elicitation is refused, and the unit ends instead of hanging", async () => {
    const { store, db, state, run, lock } = setUp(STDIO("BLOG_DB"), "summarize");
    await lock();
    const r = await runCli(run, { BLOG_DB: db }, store);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("MCP tool 'summarize' answered an error: no model to summarize with");
    expect(state()!.refused).toHaveLength(2);
    for (const refusal of state()!.refused) expect(refusal).toMatch(/Method not found/);
  });

  it("an answer past the size bound is refused, its size named", async () => {
    const { store, db, run, lock } = setUp(STDIO("BLOG_DB"), "export_posts");
    await lock();
    const r = await runCli(run, { BLOG_DB: db }, store);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/MCP tool 'export_posts' answered \d+ bytes, past the bound of 1048576; not stored/);
  });
  it("an answer that lacks a field the contract's result declares is the call's failure, the field named; nothing stored", async () => {
    const { store, db, run, lock } = setUp(STDIO("BLOG_DB"), "list_posts");
    await lock();
    const r = await runCli(run, { BLOG_DB: db }, store);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain(
      "MCP tool 'list_posts' answered a result that lacks 'total' (the contract's result declares it); not stored",
    );
    const show = await runCli(["show", "R", "publish"], {}, store);
    expect(show.stdout).not.toMatch(/artifact post \S+ committed/);
  });
});

describe("tools bound to an MCP server over Streamable HTTP, through the ledger", () => {
  const { dir } = tempRunDir("taskspec-mcp-http-");
  const db = join(dir, "blog.json");
  // the server's faults, armed by removing their file (the server fires each once, while its file is absent)
  const dropped = join(dir, "dropped");
  const crashed = join(dir, "crashed");
  const faults = { BLOG_DROP_ONCE: dropped, BLOG_CRASH_ONCE: crashed };
  let server: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    writeFileSync(dropped, "");
    writeFileSync(crashed, "");
    ({ server, port } = await startHttpBlog(db, 0, faults));
  });
  afterAll(() => server.kill());
  const url = () => `{ url: "http://127.0.0.1:${port}/mcp" }`;

  it("a worker killed after the server made the post, before the receipt: resumed, one post by the server's count", async () => {
    const { store, state, run, lock } = setUp(url(), undefined, db);
    await lock();
    const killed = await runCli(run, { TASKSPEC_CRASH_AT: "after-effect-before-receipt@publish/create_post" }, store);
    expect(killed.signal, killed.stdout + killed.stderr).toBe("SIGKILL");
    expect(postsUnder(state(), "post:R")).toBe(1);
    const resumed = await runCli(["resume", "R"], {}, store);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(postsUnder(state(), "post:R")).toBe(1);
    expect(state()!.calls.create_post).toBe(1);
  });

  it("a connection lost mid-call after the post: UNKNOWN, looked up on the same server, one post", async () => {
    const { store, state, run, lock } = setUp(url(), undefined, db, { runId: "H2" });
    await lock();
    rmSync(dropped);
    const r = await runCli(run, {}, store);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(existsSync(dropped)).toBe(true); // the server did drop it
    expect(postsUnder(state(), "post:H2")).toBe(1);
    const events = await runCli(["events", "H2"], {}, store);
    expect(events.stdout).toMatch(/effect-unknown/);
  });

  it("the server killed mid-call after the post: UNKNOWN; started again on its port, resume looks it up, one post", async () => {
    const { store, state, run, lock } = setUp(url(), undefined, db, { runId: "H3" });
    await lock();
    const calls = state()!.calls.create_post ?? 0;
    rmSync(crashed);
    const cut = await runCli(run, {}, store);
    expect(cut.code, cut.stdout + cut.stderr).not.toBe(0); // nothing answers the lookup while the server is down
    expect(existsSync(crashed)).toBe(true);
    expect(postsUnder(state(), "post:H3")).toBe(1);
    ({ server } = await startHttpBlog(db, port, faults));
    const resumed = await runCli(["resume", "H3"], {}, store);
    expect(resumed.code, resumed.stdout + resumed.stderr).toBe(0);
    expect(postsUnder(state(), "post:H3")).toBe(1);
    expect(state()!.calls.create_post).toBe(calls + 1); // looked up, never sent again
    const events = await runCli(["events", "H3"], {}, store);
    expect(events.stdout).toMatch(/effect-unknown/);
  });
});

describe("cancel calls compensators and lookups bound to an MCP server, through the ledger", () => {
  it("a post made before the worker was killed: cancel looks it up, deletes it on the server and verifies, by the server's count", async () => {
    const { dir, store } = tempRunDir("taskspec-mcp-cancel-");
    const db = join(dir, "blog.json");
    const contract = join(dir, "blog.task.yaml");
    writeFileSync(
      contract,
      `contract: 1
task:
  id: blog
  goal: Publish one post
  timeout: 1m
  outputs: [post]
  done: [{ check: "true" }]
budgets: { tool_calls: 20, retries: 2 }
servers:
  blog: ${STDIO("BLOG_DB")}
tools:
  create_post:
    class: compensable
    key: "post:\${run.id}"
    lookup: find_post
    result: { post_id: string, url: string }
    compensate: { tool: delete_post, with: { post_id: "\${result.post_id}" } }
    mcp: { server: blog, tool: create_post, key_arg: idempotency_key }
  find_post: { class: read, mcp: { server: blog, tool: find_post, key_arg: key } }
  delete_post: { class: idempotent, mcp: { server: blog, tool: delete_post } }
units:
${PUBLISH}`,
    );
    writeFileSync(join(dir, "handlers.mjs"), HANDLERS("create_post", { title: "Resumable tasks" }));
    writeFileSync(join(dir, "tools.mjs"), "export default { tools: {} };\n");
    const state = () => JSON.parse(readFileSync(db, "utf8")) as BlogState & { deleted: number };
    expect((await runCli(["mcp", "lock", contract], { BLOG_DB: db })).code).toBe(0);
    const run = ["run", contract, "--handlers", join(dir, "handlers.mjs"), "--tools", join(dir, "tools.mjs"), "--run", "R"];
    const killed = await runCli(run, { BLOG_DB: db, TASKSPEC_CRASH_AT: "after-effect-before-receipt@publish/create_post" }, store);
    expect(killed.signal, killed.stdout + killed.stderr).toBe("SIGKILL");
    expect(postsUnder(state(), "post:R")).toBe(1);
    const cancelled = await runCli(["cancel", "R", "--by", "ops"], { BLOG_DB: db }, store);
    expect(cancelled.code, cancelled.stdout + cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain("compensated and verified");
    const s = state();
    expect(s.posts).toHaveLength(0);
    expect(s.deleted).toBe(1);
    expect(s.calls.create_post).toBe(1);
    expect(s.calls.delete_post).toBe(1);
    expect(s.calls.find_post).toBeGreaterThanOrEqual(2); // the outcome at cancel, then the verification
    const status = await runCli(["status", "R"], {}, store);
    expect(status.stdout).toContain("run R (blog): cancelled");
  });
});

describe("an approval binds the exact MCP request; a secret argument reaches the server and nothing else", () => {
  it("a changed request after the approval is not sent; the approved one is sent once; the secret is in no store, output or lock", async () => {
    const { dir, store } = tempRunDir("taskspec-mcp-gate-");
    const db = join(dir, "blog.json");
    const subject = join(dir, "subject.txt");
    const SECRET = "tok-SECRET-4711-unsubscribe";
    const contract = join(dir, "news.task.yaml");
    writeFileSync(
      contract,
      `contract: 1
task:
  id: news
  goal: Mail the newsletter once, after a person approved exactly that mail
  timeout: 5m
  outputs: [receipt]
  done: [{ check: "true" }]
budgets: { tool_calls: 10, retries: 1 }
inputs:
  subject: { kind: external }
servers:
  blog: ${STDIO("BLOG_DB")}
tools:
  send_newsletter:
    class: irreversible
    approval: human
    args: { ref: { secret: true } }
    mcp: { server: blog, tool: send_newsletter }
units:
  announce:
    needs: { subject: content }
    uses: [send_newsletter]
    approval: human
    retry: { max: 0 }
    produces: [receipt]
    verify: [{ check: "exists(result.sent)" }]
`,
    );
    writeFileSync(
      join(dir, "handlers.mjs"),
      `export default {
  units: {
    async announce(ctx) {
      const r = await ctx.tool("send_newsletter", { subject: ctx.inputs.subject, ref: ${JSON.stringify(SECRET)} });
      await ctx.write("receipt", JSON.stringify(r));
      return r;
    },
  },
};
`,
    );
    writeFileSync(
      join(dir, "tools.mjs"),
      `import { readFileSync } from "node:fs";
export default { inputs: { subject: async () => readFileSync(${JSON.stringify(subject)}, "utf8").trim() }, tools: {} };
`,
    );
    writeFileSync(subject, "December news\n");
    const env = { BLOG_DB: db };
    const state = () =>
      existsSync(db)
        ? (JSON.parse(readFileSync(db, "utf8")) as BlogState & { newsletters: number; sent?: Array<{ subject: string; ref: string }> })
        : undefined;
    const outputs: string[] = [];
    const cli = async (args: string[]) => {
      const r = await runCli(args, env, store);
      outputs.push(r.stdout, r.stderr);
      return r;
    };
    const lock = await runCli(["mcp", "lock", contract], env);
    outputs.push(lock.stdout, lock.stderr);
    expect(lock.code, lock.stderr).toBe(0);
    const run = ["run", contract, "--handlers", join(dir, "handlers.mjs"), "--tools", join(dir, "tools.mjs"), "--run", "N"];
    const token = (r: { stdout: string }) => /resume token (rt_\S+)/.exec(r.stdout)?.[1];

    const first = await cli(run);
    expect(first.code, first.stdout + first.stderr).toBe(3); // the request is PREPARED, not sent
    expect(state()?.calls.send_newsletter).toBeUndefined();
    expect((await cli(["approve", "N", "announce", "--token", token(first)!])).code).toBe(0);

    writeFileSync(subject, "January news\n"); // the request changes after the person approved
    const changed = await cli(["resume", "N"]);
    expect(changed.code, changed.stdout + changed.stderr).toBe(3);
    expect(changed.stdout).toMatch(/the request changed \(sha256 [0-9a-f]{16} → [0-9a-f]{16}; it differs in subject\)/);
    expect(state()?.calls.send_newsletter).toBeUndefined(); // nothing reached the server

    expect((await cli(["approve", "N", "announce", "--token", token(changed)!])).code).toBe(0);
    const sent = await cli(["resume", "N"]);
    expect(sent.code, sent.stdout + sent.stderr).toBe(0);
    expect((await cli(["resume", "N"])).code).toBe(0);
    const s = state()!;
    expect(s.calls.send_newsletter).toBe(1);
    expect(s.sent).toEqual([{ subject: "January news", ref: SECRET }]); // the server got the real value, once

    for (const args of [
      ["status", "N"],
      ["status", "N", "--format", "json"],
      ["events", "N"],
      ["handoff", "N"],
      ["approve", "N", "announce", "--dry-run"],
    ])
      await cli(args);
    for (const out of outputs) expect(out).not.toContain(SECRET);
    expect(outputs.join("")).toContain("***");
    for (const file of readdirSync(dir).filter((f) => f.startsWith("store.db") || f.endsWith(".mcp-lock.json")))
      expect(readFileSync(join(dir, file)).includes(SECRET), file).toBe(false);
  });
});
