/**
 * What the worker accepts from a bound tool's answer (the locked output
 * schema's fields and the contract's `result:`, the difference named), and
 * which tools it joins with a tools module's: no server is started here.
 */
import { describe, expect, it } from "vitest";
import type { PlanTool } from "@taskspec/compiler";
import { resultMismatch } from "../src/mcp/adapters.js";
import { joinBoundTools } from "../src/mcp/bound-tools.js";

const RECOVERY = { onRetry: "never", onUnknown: "lookup", onAbort: "nothing", summary: "" } as const;
const tool = (over: Partial<PlanTool> = {}): PlanTool => ({
  name: "create_post",
  class: "dedup",
  cost: { model_calls: 0, tool_calls: 1, tokens: 0 },
  recovery: RECOVERY,
  mcp: { server: "blog", tool: "create_post", locked: { digest: "d", output: { post_id: "string", url: "string" } } },
  ...over,
});

describe("resultMismatch: an answer against the locked output schema and the contract's result", () => {
  it.each<[string, PlanTool, unknown, string | undefined]>([
    ["fits both", tool({ result: { post_id: "string" } }), { post_id: "p1", url: "u" }, undefined],
    [
      "a field of the schema of another type",
      tool(),
      { post_id: 7, url: "u" },
      "has 'post_id' of another type than the output schema says (string)",
    ],
    [
      "a field the contract declares and the answer lacks",
      tool({ result: { slug: "string" } }),
      { post_id: "p1" },
      "lacks 'slug' (the contract's result declares it)",
    ],
    [
      "a field of the contract of another type",
      tool({ result: { post_id: "number" } }),
      { post_id: "p1" },
      "has 'post_id' of another type than the contract's result says (number)",
    ],
    ["not an object, with declared fields", tool(), "p1", "is not an object"],
    ["anything, with nothing declared", tool({ mcp: { server: "blog", tool: "t" } }), "p1", undefined],
    ["a field the schema has and the answer lacks: the schema's own required decides", tool(), { url: "u" }, undefined],
  ])("%s", (_, t, value, expected) => {
    expect(resultMismatch(t, value)).toBe(expected);
  });
});

describe("joinBoundTools", () => {
  const plan = {
    servers: [{ name: "blog", transport: "stdio" as const, command: "node" }],
    tools: [tool(), tool({ name: "local", mcp: undefined })],
  };
  const own = { local: { call: async () => null } };

  it("adds an adapter per bound tool beside the module's, and starts nothing before a call", async () => {
    const joined = joinBoundTools(plan, own, { folder: "/", env: {} });
    expect(Object.keys(joined.tools).sort()).toEqual(["create_post", "local"]);
    expect(joined.tools.local).toBe(own.local);
    await joined.close();
  });

  it("refuses a tools module that defines a bound tool too", () => {
    expect(() => joinBoundTools(plan, { ...own, create_post: { call: async () => null } }, { folder: "/", env: {} })).toThrow(
      "the tools module defines 'create_post' (bound to blog/create_post), which the contract binds to an MCP server",
    );
  });

  it("without bindings, is the module's tools", () => {
    expect(joinBoundTools({ tools: [tool({ name: "local", mcp: undefined })] }, own, { folder: "/", env: {} }).tools).toEqual(own);
  });
});
