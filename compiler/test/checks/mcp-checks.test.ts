/**
 * MCP servers and bindings (`servers:`, `tools.*.mcp`): carried into the
 * plan; C100 (a missing server, a server without one clear transport), C101
 * (a key with nowhere to go), C102 (a secret in plain text in a server).
 */
import { describe, expect, it } from "vitest";
import { bindingsDigest, compile } from "../../src/index.js";
import { applyFix, contract, found } from "./helpers.js";

const BLOG = "servers:\n  blog: { command: node, args: [blog-mcp.mjs], env: [BLOG_DB] }";
const user = (tools: string, extra = "") => `  u:\n    uses: [${tools}]\n    produces: [out]\n    verify: [ok]${extra}`;
const POST =
  '  post:\n    class: dedup\n    key: "post:${task.id}"\n    lookup: find\n    mcp: { server: blog, tool: create_post, key_arg: idempotency_key }\n  find: { class: read, mcp: { server: blog, tool: find_post, key_arg: key } }';

const codes = (text: string, which: readonly string[]) =>
  found(
    text,
    compile(text).diagnostics.filter((d) => which.includes(d.code)),
  );

describe("servers and bindings in the plan", () => {
  it("carries each server (sorted, headers as a list) and each binding", () => {
    const text = contract({
      tools: `${POST}\n  crm_note: { class: idempotent, mcp: { server: crm, tool: add_note } }`,
      units: user("post, crm_note"),
      extra:
        'servers:\n  crm:\n    url: https://crm.example.com/mcp\n    headers: { X-Team: platform, Authorization: { env: CRM_TOKEN, prefix: "Bearer " } }\n  blog: { command: node, args: [blog-mcp.mjs], env: [BLOG_DB], cwd: servers }',
    });
    const { plan, diagnostics } = compile(text);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(plan!.servers).toEqual([
      { name: "blog", transport: "stdio", command: "node", args: ["blog-mcp.mjs"], env: ["BLOG_DB"], cwd: "servers" },
      {
        name: "crm",
        transport: "http",
        url: "https://crm.example.com/mcp",
        headers: [
          { name: "Authorization", env: "CRM_TOKEN", prefix: "Bearer " },
          { name: "X-Team", value: "platform" },
        ],
      },
    ]);
    const tool = (name: string) => plan!.tools.find((t) => t.name === name)!;
    expect(tool("post").mcp).toEqual({ server: "blog", tool: "create_post", keyArg: "idempotency_key" });
    expect(tool("crm_note").mcp).toEqual({ server: "crm", tool: "add_note" });
  });

  it("carries a server's request timeout in ms, range-checked (C002), and leaves the lock's bindings digest alone", () => {
    const text = (timeout: string) =>
      contract({ tools: POST, units: user("post"), extra: BLOG.replace("env: [BLOG_DB]", `env: [BLOG_DB]${timeout}`) });
    const { plan, diagnostics } = compile(text(", timeout: 90s"));
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(plan!.servers![0]!.timeoutMs).toBe(90_000);
    expect(bindingsDigest(plan!.servers!, plan!.tools)).toBe(bindingsDigest(compile(text("")).plan!.servers!, plan!.tools));
    const zero = compile(text(", timeout: 0s")).diagnostics.filter((d) => d.code === "C002");
    expect(zero.map((d) => d.message)).toEqual([
      "timeout of server 'blog' is 0s, which would mean no timeout; give a positive duration, or remove it for the default (60s)",
    ]);
  });

  it("a contract without servers has a plan without them", () => {
    const { plan } = compile(contract({ tools: "  t: { class: read }", units: user("t") }));
    expect(plan).toBeDefined();
    expect("servers" in plan!).toBe(false);
  });

  it("a binding is behaviour: changing it changes the definition hash of the units that use it", () => {
    const hash = (tool: string) =>
      compile(contract({ tools: POST, units: user("post"), extra: BLOG })).plan!.units.find((u) => u.id === "u")!.definitionHash !==
      compile(contract({ tools: POST.replace("create_post", tool), units: user("post"), extra: BLOG })).plan!.units.find(
        (u) => u.id === "u",
      )!.definitionHash;
    expect(hash("create_post_v2")).toBe(true);
  });
});

describe("a missing server, or one without a clear transport (C100)", () => {
  it.each([
    ["a binding to an undeclared server", "  t: { class: read, mcp: { server: blgo, tool: x } }", BLOG, [["C100", "blgo"]]],
    ["no transport", "  t: { class: read, mcp: { server: blog, tool: x } }", "servers:\n  blog: { env: [A] }", [["C100", "blog"]]],
    [
      "both transports",
      "  t: { class: read, mcp: { server: blog, tool: x } }",
      "servers:\n  blog: { command: node, url: http://localhost:1/mcp }",
      [["C100", "url"]],
    ],
    [
      "a stdio key on an HTTP server",
      "  t: { class: read, mcp: { server: blog, tool: x } }",
      "servers:\n  blog: { url: http://localhost:1/mcp, cwd: srv }",
      [["C100", "cwd"]],
    ],
    [
      "headers on a stdio server",
      "  t: { class: read, mcp: { server: blog, tool: x } }",
      "servers:\n  blog: { command: node, headers: { X-A: b } }",
      [["C100", "headers"]],
    ],
    ["a declared server", "  t: { class: read, mcp: { server: blog, tool: x } }", BLOG, []],
  ] as const)("%s", (_, tools, extra, expected) => {
    const text = contract({ tools, units: user("t"), extra });
    expect(codes(text, ["C100", "C101", "C102"])).toEqual(expected);
  });

  it("names the server, suggests the closest and fixes the name", () => {
    const text = contract({ tools: "  t: { class: read, mcp: { server: blgo, tool: x } }", units: user("t"), extra: BLOG });
    const [d] = compile(text).diagnostics.filter((x) => x.code === "C100");
    expect(d!.message).toBe("tool 't' is bound to MCP server 'blgo', which `servers` does not declare — did you mean 'blog'?");
    expect(compile(applyFix(text, d!.fixes![0]!)).diagnostics.filter((x) => x.severity === "error")).toEqual([]);
  });
});

describe("a key with nowhere to go (C101)", () => {
  it.each([
    ["a dedup tool and its lookup that pass the key", POST, []],
    ["a lookup bound without key_arg", POST.replace(", key_arg: key", ""), [["C101", "mcp"]]],
    [
      "an irreversible tool with a key, no key_arg and no lookup",
      '  t: { class: irreversible, approval: human, key: "s:${task.id}", mcp: { server: blog, tool: send } }',
      [["C101", '"s:${task.id}"']],
    ],
    [
      "an irreversible tool whose key is passed",
      '  t: { class: irreversible, approval: human, key: "s:${task.id}", mcp: { server: blog, tool: send, key_arg: ref } }',
      [],
    ],
    [
      "a compensable tool found by a lookup of the tools module",
      '  t:\n    class: compensable\n    key: "b:${task.id}"\n    lookup: find\n    result: { id: string }\n    compensate: { tool: undo, with: { id: "${result.id}" } }\n    mcp: { server: blog, tool: book }\n  find: { class: read }\n  undo: { class: idempotent }',
      [],
    ],
    [
      "an idempotent tool's key need not reach the server",
      '  t: { class: idempotent, key: "${run.id}", mcp: { server: blog, tool: w } }',
      [],
    ],
    ["a tool of the tools module", '  t: { class: irreversible, approval: human, key: "s:${task.id}" }', []],
  ] as const)("%s", (_, tools, expected) => {
    const gate = tools.includes("irreversible") ? "\n    approval: human" : "";
    const text = contract({ tools, units: user(tools.startsWith("  post") ? "post" : "t", gate), extra: BLOG });
    expect(codes(text, ["C100", "C101", "C102"])).toEqual(expected);
  });
});

describe("a secret in plain text in a server (C102)", () => {
  const bound = "  t: { class: read, mcp: { server: s, tool: x } }";
  it.each([
    [
      "an Authorization header",
      'servers:\n  s: { url: https://x.example/mcp, headers: { Authorization: "Bearer abc" } }',
      [["C102", '"Bearer abc"']],
    ],
    [
      "a credential-shaped header value",
      "servers:\n  s: { url: https://x.example/mcp, headers: { X-Extra: ghp_abcdefghijklmnopqrstuvwxyz } }",
      [["C102", "ghp_abcdefghijklmnopqrstuvwxyz"]],
    ],
    ["a password in the URL", "servers:\n  s: { url: https://me:pw@x.example/mcp }", [["C102", "https://me:pw@x.example/mcp"]]],
    [
      "a token in the URL's query",
      "servers:\n  s: { url: https://x.example/mcp?api_key=abc }",
      [["C102", "https://x.example/mcp?api_key=abc"]],
    ],
    ["a flag's value", "servers:\n  s: { command: srv, args: [--token, abc] }", [["C102", "abc"]]],
    ["a flag=value", "servers:\n  s: { command: srv, args: [--api-key=abc] }", [["C102", "--api-key=abc"]]],
    ["a value in env", 'servers:\n  s: { command: srv, env: ["DB_PASSWORD=hunter2"] }', [["C102", '"DB_PASSWORD=hunter2"']]],
    [
      "secrets from named environment variables",
      'servers:\n  s: { url: https://x.example/mcp?team=a, headers: { Authorization: { env: S_TOKEN, prefix: "Bearer " }, Accept: application/json } }',
      [],
    ],
    [
      "plain arguments and names",
      "servers:\n  s: { command: node, args: [server.mjs, --port, '8080', --db, data/blog.db], env: [DB_PASSWORD] }",
      [],
    ],
  ] as const)("%s", (_, extra, expected) => {
    const text = contract({ tools: bound, units: user("t"), extra });
    expect(codes(text, ["C100", "C101", "C102"])).toEqual(expected);
  });

  it("says where the secret goes instead", () => {
    const text = contract({
      tools: bound,
      units: user("t"),
      extra: 'servers:\n  s: { url: https://x.example/mcp, headers: { Authorization: "Bearer abc" } }',
    });
    expect(compile(text).diagnostics.find((d) => d.code === "C102")!.message).toContain(
      'take it from an environment variable of the worker: `Authorization: { env: S_AUTHORIZATION, prefix: "Bearer " }`',
    );
  });
});
