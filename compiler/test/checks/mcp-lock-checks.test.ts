/**
 * Bindings judged against the MCP lock, offline: C103 (a tool the server
 * does not have), C104 (`args:` markings and `key_arg` against the input
 * schema), C105 (`result:` against the output schema), C106 (the recovery
 * class against the server's annotations), C107 (no lock, an unreadable
 * one, a stale one). The lock here is what test/fixtures/mcp/blog-server.mjs
 * declares, as `taskspec mcp lock` writes it.
 */
import { describe, expect, it } from "vitest";
import { bindingsDigest, compile, planServers, toolDefinitionDigest, type LockedTool, type McpLock } from "../../src/index.js";
import { validatePlan } from "../../src/plan-check.js";
import type { ContractSpec } from "../../src/schema/contract.js";
import { contract, found } from "./helpers.js";

const tool = (def: Omit<LockedTool, "digest">): LockedTool => ({ ...def, digest: toolDefinitionDigest(def) });
const TOOLS: Record<string, LockedTool> = {
  create_post: tool({
    inputSchema: {
      type: "object",
      properties: { title: { type: "string" }, body: { type: "string" }, idempotency_key: { type: "string" }, n: { type: "number" } },
    },
    outputSchema: { type: "object", properties: { post_id: { type: "string" }, url: { type: "string" } } },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  }),
  find_post: tool({ inputSchema: { type: "object", properties: { key: { type: "string" } } }, annotations: { readOnlyHint: true } }),
  send_newsletter: tool({
    inputSchema: { type: "object", properties: { subject: { type: "string" }, ref: { type: "string" } } },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
  }),
  list_posts: tool({ inputSchema: { type: "object", properties: {} } }),
};

const SERVERS = "servers:\n  blog: { command: node, args: [blog-server.mjs], env: [BLOG_DB] }";
const POST =
  '  post:\n    class: dedup\n    key: "post:${task.id}"\n    lookup: find\n    result: { post_id: string }\n    mcp: { server: blog, tool: create_post, key_arg: idempotency_key }\n  find: { class: read, mcp: { server: blog, tool: find_post, key_arg: key } }';
const user = (uses: string, extra = "") => `  u:\n    uses: [${uses}]\n    produces: [out]\n    verify: [ok]${extra}`;

/** The lock `taskspec mcp lock` would write for this contract (its bindings digest made from the contract itself). */
function lockFor(text: string, tools = TOOLS): McpLock {
  const parsed = compile(text).parsed;
  const spec = (parsed.doc!.toJS() ?? {}) as ContractSpec;
  const bound = Object.entries(spec.tools ?? {}).map(([name, t]) => ({ name, ...(t.mcp ? { mcp: t.mcp } : {}) }));
  return {
    format: 1,
    bindings: bindingsDigest(planServers(spec.servers ?? {}), bound),
    servers: { blog: { name: "blog-fixture", version: "1.2.0", tools, digest: "d" } },
  };
}

const judged = (tools: string, uses: string, extra = "") => {
  const text = contract({ tools, units: user(uses, extra), extra: SERVERS });
  const lock = lockFor(text);
  return { text, result: compile(text, { mcp: { file: "c.mcp-lock.json", lock } }) };
};
const lockCodes = (text: string, diagnostics: { code: string }[]) =>
  found(text, diagnostics.filter((d) => ["C103", "C104", "C105", "C106", "C107"].includes(d.code)) as never);

describe("bindings against the lock (C103 to C106)", () => {
  it.each([
    ["bindings that fit the servers", POST, "post", "", []],
    ["a tool the server does not have", POST.replace("tool: create_post", "tool: create_pots"), "post", "", [["C103", "create_pots"]]],
    [
      "an args: marking the input schema lacks",
      POST.replace("result:", "args: { titel: { safe: true } }\n    result:"),
      "post",
      "",
      [["C104", "titel"]],
    ],
    ["a key_arg the input schema lacks", POST.replace("key_arg: idempotency_key", "key_arg: idem_key"), "post", "", [["C104", "key_arg"]]],
    ["a key_arg that takes no string", POST.replace("key_arg: idempotency_key", "key_arg: n"), "post", "", [["C104", "key_arg"]]],
    [
      "a result field the output schema lacks",
      POST.replace("result: { post_id: string }", "result: { post_id: string, slug: string }"),
      "post",
      "",
      [["C105", "slug"]],
    ],
    [
      "a result field of another type",
      POST.replace("result: { post_id: string }", "result: { post_id: number }"),
      "post",
      "",
      [["C105", "post_id"]],
    ],
    [
      "a read tool the server does not mark read-only",
      "  t: { class: read, mcp: { server: blog, tool: list_posts } }",
      "t",
      "",
      [["C106", "read"]],
    ],
    ["a read tool the server marks read-only", "  t: { class: read, mcp: { server: blog, tool: find_post } }", "t", "", []],
    [
      "an idempotent tool the server says is not",
      "  t: { class: idempotent, mcp: { server: blog, tool: send_newsletter } }",
      "t",
      "\n    approval: human",
      [["C106", "idempotent"]],
    ],
    [
      "a destructive tool declared dedup, used without a gate",
      '  t: { class: dedup, key: "n:${task.id}", lookup: find, mcp: { server: blog, tool: send_newsletter, key_arg: ref } }\n  find: { class: read, mcp: { server: blog, tool: find_post, key_arg: key } }',
      "t",
      "",
      [["C106", "dedup"]],
    ],
    [
      "a destructive tool declared dedup behind a gate",
      '  t: { class: dedup, key: "n:${task.id}", lookup: find, mcp: { server: blog, tool: send_newsletter, key_arg: ref } }\n  find: { class: read, mcp: { server: blog, tool: find_post, key_arg: key } }',
      "t",
      "\n    approval: human",
      [],
    ],
    [
      "a destructive tool declared irreversible",
      '  t: { class: irreversible, key: "n:${task.id}", mcp: { server: blog, tool: send_newsletter, key_arg: ref } }',
      "t",
      "\n    approval: human",
      [],
    ],
  ] as const)("%s", (_, tools, uses, extra, expected) => {
    const { text, result } = judged(tools, uses, extra);
    expect(lockCodes(text, result.diagnostics)).toEqual(expected);
  });

  it("names the closest tool the server has, and fixes it", () => {
    const { result } = judged(POST.replace("tool: create_post", "tool: create_pots"), "post");
    const d = result.diagnostics.find((x) => x.code === "C103")!;
    expect(d.message).toContain("tool 'post' is bound to 'create_pots' of MCP server 'blog', which the server does not have");
    expect(d.message).toContain("did you mean 'create_post'?");
    expect(d.fixes?.[0]?.edits[0]?.newText).toBe("create_post");
  });

  it("without a lock given, nothing is judged against one", () => {
    const text = contract({ tools: POST.replace("tool: create_post", "tool: create_pots"), units: user("post"), extra: SERVERS });
    expect(lockCodes(text, compile(text).diagnostics)).toEqual([]);
  });
});

describe("the lock itself (C107)", () => {
  const text = contract({ tools: POST, units: user("post"), extra: SERVERS });
  it.each([
    ["missing", { file: "c.mcp-lock.json", problem: "missing" }, "is missing"],
    ["unreadable", { file: "c.mcp-lock.json", problem: "not JSON: Unexpected token" }, "cannot be read (not JSON: Unexpected token)"],
    ["made for other bindings", { file: "c.mcp-lock.json", lock: { ...lockFor(text), bindings: "0".repeat(64) } }, "older than them"],
    ["without a bound server", { file: "c.mcp-lock.json", lock: { ...lockFor(text), servers: {} } }, "has no entry for server 'blog'"],
  ] as const)("%s", (_, mcp, says) => {
    const diags = compile(text, { mcp }).diagnostics.filter((d) => d.code.startsWith("C10") && d.code >= "C103");
    expect(diags.map((d) => d.code)).toEqual(["C107"]);
    expect(diags[0]!.message).toContain(says);
  });

  it("a changed server declaration makes the lock stale; a binding moved to another tool does not", () => {
    const lock = lockFor(text);
    const codesOf = (t: string) => compile(t, { mcp: { file: "c.mcp-lock.json", lock } }).diagnostics.map((d) => d.code);
    expect(codesOf(text.replace("args: [blog-server.mjs]", "args: [blog-server-v2.mjs]"))).toContain("C107");
    expect(codesOf(text.replace("tool: find_post", "tool: list_posts"))).not.toContain("C107");
  });

  it("a contract without bindings never reads the lock", () => {
    const plain = contract({ tools: "  t: { class: read }", units: user("t") });
    let read = 0;
    compile(plain, {
      mcp: () => {
        read++;
        return { file: "x", problem: "missing" };
      },
    });
    expect(read).toBe(0);
  });
});

describe("the plan of a locked contract", () => {
  const text = contract({ tools: POST, units: user("post"), extra: SERVERS });
  const { plan } = compile(text, { mcp: { file: "c.mcp-lock.json", lock: lockFor(text) } });

  it("keeps each bound tool's locked summary and the bindings the lock was made for", () => {
    const post = plan!.tools.find((t) => t.name === "post")!;
    expect(post.mcp!.locked).toEqual({
      digest: TOOLS.create_post!.digest,
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      args: { title: "string", body: "string", idempotency_key: "string", n: "number" },
      output: { post_id: "string", url: "string" },
    });
    expect(plan!.mcpLock!.bindings).toBe(lockFor(text).bindings);
    expect(validatePlan(JSON.parse(JSON.stringify(plan)))).toMatchObject({ ok: true });
  });
});
