/**
 * The CLI's package bundle (cli/build.mjs, what `npm pack` ships) built into a
 * temp folder and run from there, for what it loads by path at run time: the
 * language server's Graphviz worker (`taskspec lsp` answers `taskspec/graph`
 * with an SVG), `graph --format svg` and formatting, beside the drill's and
 * the handler process's scripts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { TextEdit } from "vscode-languageserver";
import type { GraphResult } from "../lsp/src/protocol.js";
import { REPO } from "../lsp/test/helpers.js";
import { startStdioServer } from "./lsp-server.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 180_000 });

const dir = mkdtempSync(join(tmpdir(), "taskspec-bundle-"));
const bundle = join(dir, "bundle");
/** What the package's bin/main.js does outside a checkout: run the bundle's main. */
const bin = join(dir, "taskspec.mjs");
const contract = join(REPO, "specs", "publish-post.task.yaml");

beforeAll(() => {
  const built = spawnSync(process.execPath, [join(REPO, "cli", "build.mjs"), bundle], { encoding: "utf8" });
  expect(built.status, built.stderr).toBe(0);
  writeFileSync(bin, `import { main } from "./bundle/main.js";\nprocess.exitCode = await main(process.argv.slice(2));\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the CLI bundle", () => {
  it("ships every script it starts by path", () => {
    for (const f of ["main.js", "child.js", "handler-child.js", "svg-worker.js"]) expect(existsSync(join(bundle, f)), f).toBe(true);
  });

  it("graph --format svg", () => {
    const r = spawnSync(process.execPath, [bin, "graph", contract, "--format", "svg"], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain("</svg>");
  });

  it("the language server lays out a graph's SVG in its worker and formats a document", async () => {
    const text = readFileSync(contract, "utf8");
    const uri = pathToFileURL(contract).href;
    const { client, stop } = startStdioServer(bin);
    await client.initialize(null);
    await client.open(uri, text);
    await client.diagnostics(uri, (p) => p.version === 1);
    const graph = await client.request<GraphResult | null>("taskspec/graph", { uri });
    expect(graph?.partial).toBeUndefined();
    expect(graph?.svg).toContain("</svg>");
    const edits = await client.request<TextEdit[] | null>("textDocument/formatting", {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    expect(Array.isArray(edits)).toBe(true);
    await stop();
  });
});
