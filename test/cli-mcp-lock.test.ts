/**
 * `taskspec mcp lock` against real MCP servers built with the SDK
 * (test/fixtures/mcp/blog-server.mjs), over stdio and over Streamable HTTP:
 * it writes what each server declares into the lock beside the contract;
 * `taskspec check` then judges the bindings offline against it (C103 to
 * C107); a stdio server gets only the environment the contract names.
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BLOG_SERVER, startHttpBlog } from "./fixtures/mcp/http-blog.js";

const CLI = fileURLToPath(new URL("../cli/bin/taskspec.js", import.meta.url));
const SERVER = BLOG_SERVER;
const root = mkdtempSync(join(tmpdir(), "taskspec-mcp-lock-"));
const db = join(root, "blog.json");

const taskspec = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: "utf8", env: { PATH: process.env.PATH ?? "", ...env } });

const contract = (server: string, tools = "") => `contract: 1
task:
  id: blog
  goal: Publish one post
  timeout: 10m
  outputs: [post]
  done: [published]
budgets:
  tool_calls: 10
servers:
${server}
tools:
  create_post:
    class: dedup
    key: "post:\${task.id}"
    lookup: find_post
    result: { post_id: string, url: string }
    mcp: { server: blog, tool: create_post, key_arg: idempotency_key }
  find_post: { class: read, mcp: { server: blog, tool: find_post, key_arg: key } }
${tools}verifiers:
  published: { kind: rule, check: "exists(result.post_id)" }
units:
  publish:
    uses: [create_post]
    produces: [post]
    verify: [published]
`;
const STDIO = `  blog: { command: node, args: [${JSON.stringify(SERVER)}], env: [BLOG_DB] }`;

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("taskspec mcp lock, over stdio", () => {
  const file = join(root, "blog.task.yaml");
  const lockFile = join(root, "blog.mcp-lock.json");
  beforeAll(() => writeFileSync(file, contract(STDIO)));

  it("before the lock, check says it is missing (C107)", () => {
    const check = taskspec({}, "check", "blog.task.yaml");
    expect(check.status).toBe(1);
    expect(check.stdout).toContain("error C107: the MCP lock blog.mcp-lock.json is missing");
  });

  it("a variable the contract names and the environment lacks is refused before the server starts", () => {
    const lock = taskspec({}, "mcp", "lock", "blog.task.yaml");
    expect(lock.status).toBe(2);
    expect(lock.stderr).toContain("MCP server 'blog': `env` names the environment variable BLOG_DB, which is not set");
  });

  it("writes every tool of the server with its schemas and annotations, the server's name and version", () => {
    const lock = taskspec({ BLOG_DB: db, UNNAMED_SECRET: "x" }, "mcp", "lock", "blog.task.yaml");
    expect(lock.status, lock.stderr).toBe(0);
    expect(lock.stdout).toContain("wrote blog.mcp-lock.json: blog (blog-fixture 1.2.0, 7 tools)");
    const written = JSON.parse(readFileSync(lockFile, "utf8")) as {
      servers: {
        blog: { name: string; version: string; tools: Record<string, { annotations?: object; inputSchema: object; digest: string }> };
      };
    };
    expect(written.servers.blog).toMatchObject({ name: "blog-fixture", version: "1.2.0" });
    expect(Object.keys(written.servers.blog.tools)).toEqual([
      "create_post",
      "delete_post",
      "export_posts",
      "find_post",
      "list_posts",
      "send_newsletter",
      "summarize",
    ]);
    expect(written.servers.blog.tools.send_newsletter!.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(written.servers.blog.tools.create_post!.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it("check then judges the bindings offline, with no server and no variable", () => {
    const check = taskspec({}, "check", "blog.task.yaml");
    expect(check.status, check.stdout).toBe(0);
    writeFileSync(file, contract(STDIO).replace("key_arg: idempotency_key", "key_arg: idem_key"));
    const bad = taskspec({}, "check", "blog.task.yaml");
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain("error C104: key_arg 'idem_key' of tool 'create_post' is not an argument of the server's tool");
    writeFileSync(file, contract(STDIO, "  newsletter: { class: idempotent, mcp: { server: blog, tool: send_newsletter } }\n"));
    const contradicted = taskspec({}, "check", "blog.task.yaml");
    expect(contradicted.stdout).toContain(
      "error C106: tool 'newsletter' is declared idempotent, but the server's annotations say idempotentHint: false",
    );
    writeFileSync(file, contract(STDIO.replace("env: [BLOG_DB]", "env: [BLOG_DB, BLOG_LOG]")));
    expect(taskspec({}, "check", "blog.task.yaml").stdout).toContain(
      "error C107: the MCP lock blog.mcp-lock.json was made for other server declarations",
    );
    writeFileSync(file, contract(STDIO));
  });

  it("a variable the contract does not name never reaches the server; named, the server's changed tool gets another digest", () => {
    const digest = () => JSON.parse(readFileSync(lockFile, "utf8")).servers.blog.tools.create_post.digest as string;
    const before = digest();
    expect(taskspec({ BLOG_DB: db, BLOG_VARIANT: "changed" }, "mcp", "lock", "blog.task.yaml").status).toBe(0);
    expect(digest()).toBe(before);
    writeFileSync(file, contract(STDIO.replace("env: [BLOG_DB]", "env: [BLOG_DB, BLOG_VARIANT]")));
    expect(taskspec({ BLOG_DB: db, BLOG_VARIANT: "changed" }, "mcp", "lock", "blog.task.yaml").status).toBe(0);
    expect(digest()).not.toBe(before);
  });
});

describe("taskspec mcp lock, over Streamable HTTP", () => {
  let server: ChildProcess;
  let port = 0;
  beforeAll(async () => {
    ({ server, port } = await startHttpBlog(db));
  });
  afterAll(() => server.kill());

  it("sends the headers, their secrets from the environment, and locks the server", () => {
    const http = `  blog:\n    url: http://127.0.0.1:${port}/mcp\n    headers: { Authorization: { env: BLOG_TOKEN, prefix: "Bearer " }, X-Team: platform }`;
    writeFileSync(join(root, "web.task.yaml"), contract(http));
    const missing = taskspec({}, "mcp", "lock", "web.task.yaml");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("header 'Authorization' names the environment variable BLOG_TOKEN, which is not set");
    const lock = taskspec({ BLOG_TOKEN: "t0k3n" }, "mcp", "lock", "web.task.yaml");
    expect(lock.status, lock.stderr).toBe(0);
    expect(lock.stdout).toContain("wrote web.mcp-lock.json: blog (blog-fixture 1.2.0, 7 tools)");
    expect(taskspec({}, "check", "web.task.yaml").status).toBe(0);
  });
});
