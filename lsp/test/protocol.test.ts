/**
 * The server over the protocol, in-process: two in-memory streams between the
 * real server wiring and a vscode-jsonrpc client. Covers what only the wiring
 * does: capabilities, push on open/change/close, per-version answers, the
 * workspace scan, refusals as errors, custom requests.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { docsUrl } from "@taskspec/compiler";
import fc from "fast-check";
import { LineIndex } from "@taskspec/compiler";
import { afterAll, describe, expect, it } from "vitest";
import { ProposedFeatures, StreamMessageReader, StreamMessageWriter, createConnection } from "vscode-languageserver/node";
import type { CodeLens, Hover, InitializeResult, MarkupContent } from "vscode-languageserver";
import { startServer } from "../src/server.js";
import type { ImpactOfEditResult, ImpactResult, PlanResult } from "../src/protocol.js";
import { TestClient } from "./client.js";
import { analyzeText, positionOf, spec } from "./helpers.js";

function connect(): TestClient {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  // Reader/writer objects (not raw streams), so the server does not exit the test process when a stream ends.
  startServer(createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient)));
  return new TestClient(toClient, toServer);
}

const dir = mkdtempSync(join(tmpdir(), "taskspec-lsp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// The market pack names schemas/evidence.json: documents of it live where that file is (C013 otherwise).
const SCHEMAS = join(import.meta.dirname, "..", "..", "specs", "schemas");
cpSync(SCHEMAS, join(dir, "schemas"), { recursive: true });
/** A file: URI for `name` in a fresh folder of `dir` that holds the pack's schemas. */
function marketUri(folder: string, name = "market.task.yaml"): string {
  const at = join(dir, folder);
  cpSync(SCHEMAS, join(at, "schemas"), { recursive: true });
  return pathToFileURL(join(at, name)).href;
}

const MARKET = spec("market-entry-pack.task.yaml");
const CYCLE = spec("invalid/C020-cycle.task.yaml");

describe("language server over in-memory streams", () => {
  it("announces its features, checked against the client's capabilities", async () => {
    const client = connect();
    const result = (await client.initialize(null)) as InitializeResult;
    expect(result.capabilities).toMatchObject({
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      codeLensProvider: { resolveProvider: true },
      executeCommandProvider: { commands: ["taskspec.showImpact"] },
      codeActionProvider: { codeActionKinds: ["quickfix"] },
    });
    const plain = connect();
    const bare = (await plain.initialize(null, {})) as InitializeResult;
    expect(bare.capabilities.renameProvider).toBe(true);
    expect(bare.capabilities.codeActionProvider).toBe(true);
    // Without Markdown support the hover comes as plain text.
    const uri = marketUri("plain");
    await plain.open(uri, MARKET);
    const h = await plain.request<Hover>("textDocument/hover", { textDocument: { uri }, position: positionOf(MARKET, "  S04:\n", 0, 3) });
    expect(h.contents).toMatchObject({ kind: "plaintext" });
    expect((h.contents as MarkupContent).value).toMatch(/^unit S04 · phase synthesize/);
    expect((h.contents as MarkupContent).value).toContain("write_file (idempotent)");
    // A client that cannot register watchers dynamically is not asked to.
    expect(plain.registrations).toEqual([]);
    client.dispose();
    plain.dispose();
  });

  it("pushes diagnostics on open and change, per version, and clears them on close", async () => {
    const client = connect();
    await client.initialize(null);
    const uri = pathToFileURL(join(dir, "notes.task.yaml")).href;
    await client.open(uri, CYCLE);
    const opened = await client.diagnostics(uri);
    const cycle = opened.diagnostics.find((d) => d.code === "C020");
    expect(cycle?.codeDescription?.href).toBe(docsUrl("C020"));
    expect(opened.version).toBe(1);

    // Break the cycle with an incremental edit: `review` stops needing `draft`.
    const start = positionOf(CYCLE, "needs: { draft: content }");
    const end = positionOf(CYCLE, "needs: { draft: content }", 0, "needs: { draft: content }".length);
    await client.notify("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start, end }, text: "needs: {}" }],
    });
    const changed = await client.diagnostics(uri, (p) => p.version === 2);
    expect(changed.diagnostics.map((d) => d.code)).not.toContain("C020");

    await client.notify("textDocument/didClose", { textDocument: { uri } });
    const closed = await client.diagnostics(uri, (p) => p.version === undefined && p.diagnostics.length === 0);
    expect(closed.diagnostics).toEqual([]);
    client.dispose();
  });

  it("judges MCP bindings against the lock beside the document, live", async () => {
    const at = join(dir, "mcp");
    mkdirSync(at, { recursive: true });
    const bad = spec("invalid/C104-key-arg-not-in-schema.task.yaml");
    cpSync(join(SCHEMAS, "..", "invalid", "C104-key-arg-not-in-schema.mcp-lock.json"), join(at, "blog.mcp-lock.json"));
    const uri = pathToFileURL(join(at, "blog.task.yaml")).href;
    const client = connect();
    await client.initialize(null);
    await client.open(uri, bad);
    const opened = await client.diagnostics(uri);
    expect(opened.diagnostics.map((d) => d.code)).toEqual(["C104"]);
    const fixedAt = positionOf(bad, "key_arg: idempotency }", 0, "key_arg: ".length);
    await client.notify("textDocument/didChange", {
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: fixedAt, end: { ...fixedAt, character: fixedAt.character + "idempotency".length } }, text: "idempotency_key" },
      ],
    });
    const fixed = await client.diagnostics(uri, (p) => p.version === 2);
    expect(fixed.diagnostics).toEqual([]);
    client.dispose();
  });

  it("checks every contract of the workspace folder without opening it", async () => {
    const root = join(dir, "ws");
    mkdirSync(join(root, "nested"), { recursive: true });
    mkdirSync(join(root, "node_modules"), { recursive: true });
    writeFileSync(join(root, "nested", "cycle.task.yaml"), CYCLE);
    writeFileSync(join(root, "node_modules", "ignored.task.yaml"), CYCLE);
    const client = connect();
    await client.initialize(pathToFileURL(root).href);
    const path = join(root, "nested", "cycle.task.yaml");
    const uri = pathToFileURL(path).href;
    const pushed = await client.diagnostics(uri);
    expect(pushed.diagnostics.map((d) => d.code)).toContain("C020");
    expect(pushed.version).toBeUndefined();

    // Opened, fixed and saved, then closed: the file stays checked, as saved.
    const fixed = CYCLE.replace("needs: { draft: content }", "needs: {}");
    await client.open(uri, CYCLE);
    await client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: fixed }] });
    await client.diagnostics(uri, (p) => p.version === 2);
    writeFileSync(path, fixed);
    client.clearDiagnostics();
    await client.notify("textDocument/didClose", { textDocument: { uri } });
    const afterClose = await client.diagnostics(uri);
    expect(afterClose.diagnostics.map((d) => d.code)).not.toContain("C020");

    // Changed on disk while closed (the client watches the files it was asked to), then deleted.
    expect(client.registrations).toContainEqual(
      expect.objectContaining({
        method: "workspace/didChangeWatchedFiles",
        registerOptions: { watchers: [{ globPattern: "**/*.task.{yaml,yml}" }, { globPattern: "**/taskspec.config.yaml" }] },
      }),
    );
    writeFileSync(path, CYCLE);
    client.clearDiagnostics();
    await client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri, type: 2 }] });
    expect((await client.diagnostics(uri)).diagnostics.map((d) => d.code)).toContain("C020");
    rmSync(path);
    client.clearDiagnostics();
    await client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri, type: 3 }] });
    expect((await client.diagnostics(uri)).diagnostics).toEqual([]);
    client.dispose();
  });

  it("checks an edit after a quiet spell at once, and a burst of edits once, for its last version", async () => {
    // A debounce far longer than the test's own timeout: only a check that does
    // not wait for the timer can answer the first edit in time.
    const client = connect();
    await client.initialize(null, undefined, { debounceMs: 60_000 });
    const uri = marketUri("debounce");
    await client.open(uri, MARKET);
    await client.diagnostics(uri, (p) => p.version === 1);
    const broken = MARKET.replace("needs: { S01: content", "needs: { S01: contnet");
    await client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: broken }] });
    const first = await client.diagnostics(uri, (p) => p.version === 2);
    expect(first.diagnostics.map((d) => d.code)).toContain("C070");

    // Three more edits right away, inside the debounce window: none is checked yet.
    for (const version of [3, 4, 5])
      await client.notify("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ text: version === 5 ? MARKET : broken }],
      });
    await client.request("textDocument/documentSymbol", { textDocument: { uri } });
    expect(client.pushes(uri).map((p) => p.version)).toEqual([1, 2]);
    client.dispose();

    // A burst is checked once, for its last version. The window is far wider
    // than the gap between back-to-back notifications even when a loaded
    // machine delays the server (a 50 ms window let a slow check of one
    // version make the next look like the end of a quiet spell).
    const quick = connect();
    await quick.initialize(null, undefined, { debounceMs: 5_000 });
    await quick.open(uri, MARKET);
    await quick.diagnostics(uri, (p) => p.version === 1);
    for (const version of [2, 3, 4, 5])
      await quick.notify("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ text: version === 5 ? MARKET : broken }],
      });
    const last = await quick.diagnostics(uri, (p) => p.version === 5);
    expect(last.diagnostics).toEqual([]);
    expect(
      quick
        .pushes(uri)
        .map((p) => p.version)
        .filter((v) => v !== 1 && v !== 5).length,
    ).toBeLessThanOrEqual(1);
    quick.dispose();
  });

  it("answers inlay hints, and none once the inlayHints setting is off", async () => {
    const client = connect();
    await client.initialize(null);
    const uri = marketUri("hints");
    await client.open(uri, MARKET);
    const range = { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } };
    const on = await client.request<unknown[]>("textDocument/inlayHint", { textDocument: { uri }, range });
    expect(on.length).toBeGreaterThan(36);
    await client.notify("workspace/didChangeConfiguration", { settings: { taskspec: { inlayHints: false } } });
    expect(await client.request<unknown[]>("textDocument/inlayHint", { textDocument: { uri }, range })).toEqual([]);
    client.dispose();

    const off = connect();
    await off.initialize(null, undefined, { inlayHints: false });
    await off.open(uri, MARKET);
    expect(await off.request<unknown[]>("textDocument/inlayHint", { textDocument: { uri }, range })).toEqual([]);
    off.dispose();
  });

  it("answers hover, lens, command, rename refusal, plan and impact requests", async () => {
    const client = connect();
    await client.initialize(null);
    const path = join(dir, "market.task.yaml");
    writeFileSync(path, MARKET);
    const uri = pathToFileURL(path).href;
    await client.open(uri, MARKET);

    const h = await client.request<Hover>("textDocument/hover", { textDocument: { uri }, position: positionOf(MARKET, "  S04:\n", 0, 3) });
    expect((h.contents as MarkupContent).value).toContain("unit S04");

    const lenses = await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri } });
    const lens = await client.request<CodeLens>(
      "codeLens/resolve",
      lenses.find((l) => (l.data as { node: string }).node === "audience"),
    );
    expect(lens.command?.title).toBe("impact: 7 units (audience 7)");

    const shown = await client.request<ImpactResult>("workspace/executeCommand", {
      command: lens.command!.command,
      arguments: lens.command!.arguments,
    });
    expect(shown.invalidated[0]).toEqual({ unit: "U27", path: "audience --audience--> U27" });

    const kinds = await client.request<ImpactResult>("taskspec/impact", { uri, node: "S04", kinds: ["structure"] });
    expect(kinds.invalidated.map((u) => u.unit)).toEqual(["A01", "F01"]);

    await expect(
      client.request("textDocument/rename", { textDocument: { uri }, position: positionOf(MARKET, "  S04:\n", 0, 3), newName: "S03" }),
    ).rejects.toThrow(/already the name of a unit/);

    const plan = await client.request<PlanResult>("taskspec/plan", { uri });
    expect(plan.errors).toBe(0);
    expect(plan.plan?.units).toHaveLength(36);
    expect(plan.planHash).toBe(plan.plan?.planHash);
    // what the status bar asks: the hash without megabytes of plan
    const hashOnly = await client.request<PlanResult>("taskspec/plan", { uri, hashOnly: true });
    expect(hashOnly).toEqual({ errors: 0, warnings: plan.warnings, planHash: plan.plan?.planHash });

    const edited = MARKET.replace("value: product-team", "value: investment-committee");
    await client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    const edit = await client.request<ImpactOfEditResult>("taskspec/impactOfEdit", { uri, against: "saved" });
    expect(edit.changes).toEqual([{ node: "audience", kinds: "all" }]);
    expect(edit.invalidated).toHaveLength(7);

    const graph = await client.request<{ dot: string; mermaid: string; svg?: string }>("taskspec/graph", {
      uri,
      changes: [{ node: "audience" }],
    });
    expect(graph.dot).toContain("digraph");
    expect(graph.mermaid).toContain("U27");
    client.dispose();
  });

  it("answers from the last good version while the buffer is broken", async () => {
    const client = connect();
    await client.initialize(null);
    const uri = pathToFileURL(join(dir, "broken.task.yaml")).href;
    await client.open(uri, MARKET);
    await client.diagnostics(uri, (p) => p.version === 1);
    const broken = MARKET.replace("  S04:\n    phase: synthesize", "  S04:\n    phase: [synthesize");
    await client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: broken }] });
    const h = await client.request<Hover>("textDocument/hover", { textDocument: { uri }, position: positionOf(broken, "  A03:\n", 0, 3) });
    expect((h.contents as MarkupContent).value).toContain("as of version 1");
    const pushed = await client.diagnostics(uri, (p) => p.version === 2);
    expect(pushed.diagnostics.map((d) => d.code)).toContain("C001");
    client.dispose();
  });

  it("compares with the version at git HEAD", async () => {
    const repo = join(dir, "repo");
    mkdirSync(repo, { recursive: true });
    cpSync(SCHEMAS, join(repo, "schemas"), { recursive: true });
    const git = (...args: string[]) => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: repo });
    git("init", "-q");
    writeFileSync(join(repo, "market.task.yaml"), MARKET);
    git("add", "market.task.yaml");
    git("commit", "-q", "-m", "contract");
    // The saved file moves on; HEAD still has product-team.
    const saved = MARKET.replace("value: product-team", "value: board");
    writeFileSync(join(repo, "market.task.yaml"), saved);
    const client = connect();
    await client.initialize(null);
    const uri = pathToFileURL(join(repo, "market.task.yaml")).href;
    await client.open(uri, saved);
    const head = await client.request<ImpactOfEditResult>("taskspec/impactOfEdit", { uri, against: "head" });
    expect(head.changes).toEqual([{ node: "audience", kinds: "all" }]);
    const vsSaved = await client.request<ImpactOfEditResult>("taskspec/impactOfEdit", { uri, against: "saved" });
    expect(vsSaved.changes).toEqual([]);
    const outside = pathToFileURL(join(dir, "nowhere.task.yaml")).href;
    await client.open(outside, MARKET);
    const none = await client.request<ImpactOfEditResult>("taskspec/impactOfEdit", { uri: outside, against: "head" });
    expect(none.unavailable).toBeTruthy();
    client.dispose();
  });

  it("answers every request after random incremental edits", async () => {
    const client = connect();
    await client.initialize(null);
    const original = spec("publish-post.task.yaml");
    const pieces = ["\n    nee", "{", "[", "}", ":", '"', "${", "- ", "  ", "\n", "publish", "class: ", "#"];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat({ max: 8 }), insert: fc.constantFrom(...pieces) }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (edits, where) => {
          const uri = `file:///fuzz/${run++}.task.yaml`;
          let text = original;
          await client.open(uri, text);
          let version = 1;
          for (const e of edits) {
            const lines = new LineIndex(text);
            const start = Math.floor(e.at * text.length);
            const end = Math.min(text.length, start + e.remove);
            const range = { start: lines.offsetToPosition(start), end: lines.offsetToPosition(end) };
            text = text.slice(0, start) + e.insert + text.slice(end);
            await client.notify("textDocument/didChange", {
              textDocument: { uri, version: ++version },
              contentChanges: [{ range, text: e.insert }],
            });
            const position = new LineIndex(text).offsetToPosition(Math.floor(where * text.length));
            const doc = { textDocument: { uri }, position };
            const answers = await Promise.all([
              client.request("textDocument/hover", doc),
              client.request("textDocument/completion", doc),
              client.request("textDocument/definition", doc),
              client.request("textDocument/references", { ...doc, context: { includeDeclaration: true } }),
              client.request("textDocument/prepareRename", doc),
              client.request("textDocument/documentSymbol", { textDocument: { uri } }),
              client.request("textDocument/codeLens", { textDocument: { uri } }),
              client.request("textDocument/codeAction", {
                textDocument: { uri },
                range: { start: position, end: position },
                context: { diagnostics: [] },
              }),
              client.request("taskspec/plan", { uri }),
              client.request("taskspec/graph", { uri }),
            ]);
            expect(answers).toHaveLength(10);
          }
          // The server's copy of the text matches ours: its diagnostics are for exactly this text.
          const pushed = await client.diagnostics(uri, (p) => p.version === version);
          const expected = analyzeText(text).diagnostics.map((d) => d.code);
          expect(pushed.diagnostics.map((d) => d.code)).toEqual(expected);
          await client.notify("textDocument/didClose", { textDocument: { uri } });
        },
      ),
      { numRuns: 15 },
    );
    client.dispose();
  });
});
