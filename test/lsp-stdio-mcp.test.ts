/**
 * The language server as a real process (`taskspec lsp --stdio`) on a
 * contract with MCP bindings beside its lock: completion offers the server's
 * tools from the lock and the bound tool's arguments, hover on a bound tool's
 * name shows its description and annotations.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { CompletionItem, Hover, MarkupContent } from "vscode-languageserver";
import { TestClient } from "../lsp/test/client.js";
import { REPO, positionOf } from "../lsp/test/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "taskspec-lsp-mcp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const INVALID = join(REPO, "specs", "invalid");
const CONTRACT = readFileSync(join(INVALID, "C104-key-arg-not-in-schema.task.yaml"), "utf8").replace(
  "key_arg: idempotency }",
  "key_arg: idempotency_key }",
);

describe("taskspec lsp --stdio, MCP bindings", () => {
  it("completes server tools and arguments from the lock, and hovers a bound tool", async () => {
    const path = join(dir, "blog.task.yaml");
    writeFileSync(path, CONTRACT);
    cpSync(join(INVALID, "C104-key-arg-not-in-schema.mcp-lock.json"), join(dir, "blog.mcp-lock.json"));
    const uri = pathToFileURL(path).href;
    const server = spawn(process.execPath, [join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
    const client = new TestClient(server.stdout, server.stdin);
    await client.initialize(null);
    await client.open(uri, CONTRACT);
    expect((await client.diagnostics(uri)).diagnostics).toEqual([]);

    const at = (needle: string, delta: number) => ({ textDocument: { uri }, position: positionOf(CONTRACT, needle, 0, delta) });
    const tools = await client.request<CompletionItem[]>("textDocument/completion", at("tool: create_post", "tool: ".length));
    expect(tools.map((c) => c.label).sort()).toEqual(["create_post", "find_post", "send_newsletter"]);
    const args = await client.request<CompletionItem[]>("textDocument/completion", at("key_arg: idempotency_key", "key_arg: ".length));
    expect(args.map((c) => c.label).sort()).toEqual(["body", "idempotency_key", "title"]);
    const shown = await client.request<Hover>("textDocument/hover", at("tool: find_post", "tool: fi".length));
    const text = (shown.contents as MarkupContent).value;
    expect(text).toContain("**MCP tool find_post** of server `blog` (blog-fixture 1.2.0)");
    expect(text).toContain("`readOnlyHint: true`");

    await client.request("shutdown", null);
    await client.notify("exit", null);
    expect(await exited).toBe(0);
  }, 120_000);
});
