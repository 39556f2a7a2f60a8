/**
 * The server over the protocol, in-process: two in-memory streams between the
 * real server wiring and a vscode-jsonrpc client. Covers what only the wiring
 * does: capabilities, push on open/change/close, per-version answers, the
 * workspace scan, refusals as errors, custom requests.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { pathToFileURL } from "node:url";
import { docsUrl } from "@taskspec/compiler";
import { afterAll, describe, expect, it } from "vitest";
import { ProposedFeatures, StreamMessageReader, StreamMessageWriter, createConnection } from "vscode-languageserver/node";
import type { CodeLens, Hover, InitializeResult, MarkupContent } from "vscode-languageserver";
import { startServer } from "../src/server.js";
import type { ImpactOfEditResult, ImpactResult, PlanResult } from "../src/protocol.js";
import { TestClient } from "./client.js";
import { positionOf, spec } from "./helpers.js";

function connect(): TestClient {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  // Reader/writer objects (not raw streams), so the server does not exit the test process when a stream ends.
  startServer(createConnection(ProposedFeatures.all, new StreamMessageReader(toServer), new StreamMessageWriter(toClient)));
  return new TestClient(toClient, toServer);
}

const dir = mkdtempSync(join(tmpdir(), "taskspec-lsp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  it("checks every contract of the workspace folder without opening it", async () => {
    const root = join(dir, "ws");
    mkdirSync(join(root, "nested"), { recursive: true });
    mkdirSync(join(root, "node_modules"), { recursive: true });
    writeFileSync(join(root, "nested", "cycle.task.yaml"), CYCLE);
    writeFileSync(join(root, "node_modules", "ignored.task.yaml"), CYCLE);
    const client = connect();
    await client.initialize(pathToFileURL(root).href);
    const pushed = await client.diagnostics(pathToFileURL(join(root, "nested", "cycle.task.yaml")).href);
    expect(pushed.diagnostics.map((d) => d.code)).toContain("C020");
    client.dispose();
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
    const lens = await client.request<CodeLens>("codeLens/resolve", lenses.find((l) => (l.data as { node: string }).node === "audience"));
    expect(lens.command?.title).toBe("impact: 7 units (content 0 · structure 0 · policy 0 · audience 7)");

    const shown = await client.request<ImpactResult>("workspace/executeCommand", { command: lens.command!.command, arguments: lens.command!.arguments });
    expect(shown.invalidated[0]).toEqual({ unit: "U27", path: "audience --audience--> U27" });

    const kinds = await client.request<ImpactResult>("taskspec/impact", { uri, node: "S04", kinds: ["structure"] });
    expect(kinds.invalidated.map((u) => u.unit)).toEqual(["A01", "F01"]);

    await expect(
      client.request("textDocument/rename", { textDocument: { uri }, position: positionOf(MARKET, "  S04:\n", 0, 3), newName: "S03" }),
    ).rejects.toThrow(/already the name of a unit/);

    const plan = await client.request<PlanResult>("taskspec/plan", { uri });
    expect(plan.errors).toBe(0);
    expect(plan.plan?.units).toHaveLength(36);

    const edited = MARKET.replace("value: product-team", "value: investment-committee");
    await client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
    const edit = await client.request<ImpactOfEditResult>("taskspec/impactOfEdit", { uri, against: "saved" });
    expect(edit.changes).toEqual([{ node: "audience", kinds: "all" }]);
    expect(edit.invalidated).toHaveLength(7);

    const graph = await client.request<{ dot: string; mermaid: string; svg?: string }>("taskspec/graph", { uri, changes: [{ node: "audience" }] });
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
});
