/**
 * Completion and hover in MCP bindings, answered from the lock beside the
 * contract: the declared servers, the server's tools, the bound tool's
 * arguments (for `key_arg` and the keys of `args:`), and on a bound tool's
 * name its description and annotations. Without a lock there is nothing to
 * answer from, and nothing is made up.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseMcpLock, type McpLockInput } from "@taskspec/compiler";
import { describe, expect, it } from "vitest";
import type { CompletionItem, MarkupContent } from "vscode-languageserver";
import { analyze, NO_POLICY } from "../src/service/analysis.js";
import { complete } from "../src/service/complete.js";
import { hover } from "../src/service/hover.js";
import { positionOf, spec, URI, withCursor } from "./helpers.js";

const INVALID = fileURLToPath(new URL("../../specs/invalid/", import.meta.url));
const CONTRACT = spec("invalid/C104-key-arg-not-in-schema.task.yaml").replace("key_arg: idempotency }", "key_arg: idempotency_key }");
const parsed = parseMcpLock(readFileSync(join(INVALID, "C104-key-arg-not-in-schema.mcp-lock.json"), "utf8"));
const LOCK: McpLockInput = { file: "blog.mcp-lock.json", ...parsed };

const analysisOf = (text: string, lock: McpLockInput | undefined = LOCK) =>
  analyze(URI, 1, text, undefined, undefined, NO_POLICY, lock ? () => lock : undefined);

function completeAt(marked: string, lock?: McpLockInput): CompletionItem[] {
  const { text, position } = withCursor(marked);
  return complete(analysisOf(text, lock), position);
}
const labels = (items: CompletionItem[]) => items.map((i) => i.label);

describe("completion in MCP bindings, from the lock", () => {
  it.each([
    [
      "the server's tools after `tool:`",
      CONTRACT.replace("tool: create_post,", "tool: ‸,"),
      ["create_post", "find_post", "send_newsletter"],
    ],
    [
      "the declared servers after `server:`",
      CONTRACT.replace("{ server: blog, tool: create_post", "{ server: ‸, tool: create_post"),
      ["blog"],
    ],
    [
      "the bound tool's arguments after `key_arg:`",
      CONTRACT.replace("key_arg: idempotency_key }", "key_arg: ‸ }"),
      ["title", "body", "idempotency_key"],
    ],
    [
      "the bound tool's arguments as keys of `args:`, not the ones written",
      CONTRACT.replace("    result: { post_id", "    args:\n      title: { safe: true }\n      ‸\n    result: { post_id"),
      ["body", "idempotency_key"],
    ],
  ])("%s", (_, marked, want) => {
    expect(labels(completeAt(marked)).sort()).toEqual([...want].sort());
  });

  it("a server tool's item documents its description and annotations", () => {
    const item = completeAt(CONTRACT.replace("tool: create_post,", "tool: ‸,")).find((i) => i.label === "create_post")!;
    expect(item.detail).toBe("MCP tool of blog");
    const doc = (item.documentation as MarkupContent).value;
    expect(doc).toContain("Create a post; a second call with the same idempotency_key returns the first.");
    expect(doc).toContain("`readOnlyHint: false`, `destructiveHint: false`, `idempotentHint: true`");
    expect(doc).toContain("title (required): string");
  });

  it("without a lock, no server tool or argument is offered", () => {
    expect(
      labels(completeAt(CONTRACT.replace("tool: create_post,", "tool: ‸,"), { file: "blog.mcp-lock.json", problem: "missing" })),
    ).toEqual([]);
    expect(
      labels(completeAt(CONTRACT.replace("key_arg: idempotency_key }", "key_arg: ‸ }"), { file: "x", problem: "missing" })),
    ).not.toContain("title");
  });
});

describe("hover on a bound tool's name", () => {
  it("shows the locked description, annotations and arguments", () => {
    const analysis = analysisOf(CONTRACT);
    const shown = hover(analysis, positionOf(CONTRACT, "tool: find_post", 0, "tool: fi".length));
    const text = (shown?.contents as MarkupContent).value;
    expect(text).toContain("**MCP tool find_post** of server `blog` (blog-fixture 1.2.0)");
    expect(text).toContain("The post made under a key, or nothing.");
    expect(text).toContain("`readOnlyHint: true`");
    expect(text).toContain("- arguments: key (required): string");
  });

  it("says nothing of a tool the lock does not list", () => {
    const text = CONTRACT.replace("tool: find_post,", "tool: find_by_key,");
    const shown = hover(analysisOf(text), positionOf(text, "tool: find_by_key", 0, "tool: fi".length));
    expect((shown?.contents as MarkupContent | undefined)?.value ?? "").not.toContain("MCP tool");
  });
});
