/**
 * The real server process over stdio with a 20,000-unit chain open: a
 * `taskspec/graph` request answers with a partial result that says why (no
 * graph of that size is drawn), `taskspec/impact` within its path budget, and
 * a hover sent while the graph request is in flight is answered within a bound.
 * A graph small enough to draw still gets its SVG, laid out off the server's
 * thread: hovers go on being answered while Graphviz works.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { Hover, MarkupContent } from "vscode-languageserver";
import { generateChain } from "../bench/lsp/generate-chain.mjs";
import { generateContract, unitId } from "../bench/lsp/generate-contract.mjs";
import { startStdioServer } from "./lsp-server.js";
import { positionOf } from "../lsp/test/helpers.js";
import type { GraphResult, ImpactResult } from "../lsp/src/protocol.js";

const dir = mkdtempSync(join(tmpdir(), "taskspec-lsp-budget-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every step awaits the server's answer; this bound only ends a broken run (a 20,000-unit compile on a loaded machine). */
const SESSION_TIMEOUT = 5 * 60_000;
/** A hover must not wait behind a graph: on an idle machine it takes milliseconds; this allows for a loaded one. */
const HOVER_BOUND_MS = 3000;

/** A server with `text` saved as `name` and open, its first diagnostics in. */
async function opened(name: string, text: string) {
  const path = join(dir, name);
  writeFileSync(path, text);
  const uri = pathToFileURL(path).href;
  const { client, stop } = startStdioServer();
  await client.initialize(null);
  await client.open(uri, text);
  await client.diagnostics(uri, (p) => p.version === 1);
  return { client, stop, uri };
}

/** Sends `first`, then a hover; resolves with when each answer came (ms after sending the hover). */
async function hoverWhile<T>(first: () => Promise<T>, hover: () => Promise<Hover | null>) {
  let firstDone = Infinity;
  const sent = performance.now();
  const pending = first().then((answer) => {
    firstDone = performance.now() - sent;
    return answer;
  });
  const h = await hover();
  const hoverMs = performance.now() - sent;
  return { answer: await pending, hover: h, hoverMs, firstMs: () => firstDone };
}

describe("taskspec lsp --stdio: graph and impact within a budget", () => {
  it(
    "on a 20,000-unit chain: a partial graph, impact within its budget, a hover answered meanwhile",
    async () => {
      const text = generateChain(20000) as string;
      const { client, stop, uri } = await opened("chain.task.yaml", text);
      const position = positionOf(text, "  C10000:\n", 0, 3);
      const hover = () => client.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position });
      // the first hover builds the version's plan (seconds at this size); later ones read it
      expect(((await hover())?.contents as MarkupContent).value).toContain("C10000");

      const graph = await hoverWhile(
        () => client.request<GraphResult | null>("taskspec/graph", { uri, changes: [{ node: "sources" }] }),
        hover,
      );
      expect((graph.hover?.contents as MarkupContent).value).toContain("C10000");
      expect(graph.hoverMs).toBeLessThan(HOVER_BOUND_MS);
      expect(graph.answer?.partial).toMatch(/20000 units; graphs of more than \d+ units are not drawn/);
      expect(graph.answer?.svg).toBeUndefined();

      const impact = await hoverWhile(() => client.request<ImpactResult | null>("taskspec/impact", { uri, node: "sources" }), hover);
      expect(impact.hoverMs).toBeLessThan(HOVER_BOUND_MS);
      // every unit counted, the first listed (the whole list's size: bench/RESULTS.md, "figures behind code comments")
      expect(impact.answer?.total).toBe(20000);
      expect(impact.answer?.invalidated).toHaveLength(1000);
      expect(impact.answer?.partial).toMatch(/^Partial: the first 1000 of 20000 invalidated units are listed/);
      expect(JSON.stringify(impact.answer).length).toBeLessThan(100_000);
      await stop();
    },
    SESSION_TIMEOUT,
  );

  it(
    "lays out a drawable graph's SVG off the server's thread: a hover sent after the graph request is answered first",
    async () => {
      const text = generateContract(450) as string;
      const { client, stop, uri } = await opened("layers.task.yaml", text);
      const position = positionOf(text, `  ${unitId(200)}:\n`, 0, 3);
      const hover = () => client.request<Hover | null>("textDocument/hover", { textDocument: { uri }, position });
      await hover();
      const request = () => client.request<GraphResult | null>("taskspec/graph", { uri, changes: [{ node: "audience" }] });
      // the first graph loads Graphviz's WebAssembly in the worker
      const warm = await request();
      expect(warm?.svg).toMatch(/^<svg|<\?xml/);
      const graph = await hoverWhile(request, hover);
      expect((graph.hover?.contents as MarkupContent).value).toContain(unitId(200));
      expect(graph.answer?.svg).toContain("</svg>");
      expect(graph.answer?.partial).toBeUndefined();
      // on the server's thread the layout (hundreds of ms at least) held the hover until the graph was sent
      expect(graph.hoverMs).toBeLessThan(graph.firstMs());
      await stop();
    },
    SESSION_TIMEOUT,
  );
});
