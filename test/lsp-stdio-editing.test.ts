/**
 * The real server process (`taskspec lsp --stdio` from the built CLI) over
 * stdio, for the editing features: document and range formatting of an open
 * contract, applied and formatted again (no edits the second time); semantic
 * tokens for its expressions, in full, for a range and as a delta after an edit;
 * a schema file that does not exist beside the contract (C013), then created.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { InitializeResult, SemanticTokens, SemanticTokensDelta, TextEdit } from "vscode-languageserver";
import { TextDocument } from "vscode-languageserver-textdocument";
import { startStdioServer } from "./lsp-server.js";
import { REPO } from "../lsp/test/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "taskspec-lsp-editing-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every step awaits the server's answer; this bound only ends a broken run. */
const SESSION_TIMEOUT = 2 * 60_000;

const MESSY = [
  "contract: 1",
  "task:",
  "    id: t   # the id",
  "    goal: g",
  "    outputs: [ out ]",
  '    done: [{ check: "exists(inputs.brief)  &&  true" }]',
  "budgets:   {model_calls: 10}",
  "inputs:",
  "    brief: { kind: decision, value: b }",
  "units:",
  "    a:",
  "        needs: { brief: content }",
  "        produces:",
  "        - out",
  '        verify: [{ check: "len(result.text)   > 0" }]',
  "",
].join("\n");

describe("taskspec lsp --stdio: editing features", () => {
  it(
    "formats a document and a range",
    async () => {
      const path = join(dir, "messy.task.yaml");
      writeFileSync(path, MESSY);
      const uri = pathToFileURL(path).href;
      const { client, stop } = startStdioServer();
      const init = (await client.initialize(pathToFileURL(dir).href)) as InitializeResult;
      expect(init.capabilities.documentFormattingProvider).toBe(true);
      expect(init.capabilities.documentRangeFormattingProvider).toBe(true);
      await client.open(uri, MESSY);
      await client.diagnostics(uri, (p) => p.version === 1);

      const options = { tabSize: 2, insertSpaces: true };
      const range = await client.request<TextEdit[]>("textDocument/rangeFormatting", {
        textDocument: { uri },
        range: { start: { line: 6, character: 0 }, end: { line: 6, character: 5 } },
        options,
      });
      expect(range).toEqual([
        { range: { start: { line: 6, character: 0 }, end: { line: 7, character: 0 } }, newText: "budgets: { model_calls: 10 }\n" },
      ]);

      const edits = await client.request<TextEdit[]>("textDocument/formatting", { textDocument: { uri }, options });
      const formatted = TextDocument.applyEdits(TextDocument.create(uri, "taskspec", 1, MESSY), edits);
      expect(formatted).toBe(
        [
          "contract: 1",
          "task:",
          "  id: t # the id",
          "  goal: g",
          "  outputs: [out]",
          '  done: [{ check: "exists(inputs.brief)  &&  true" }]',
          "budgets: { model_calls: 10 }",
          "inputs:",
          "  brief: { kind: decision, value: b }",
          "units:",
          "  a:",
          "    needs: { brief: content }",
          "    produces:",
          "      - out",
          '    verify: [{ check: "len(result.text)   > 0" }]',
          "",
        ].join("\n"),
      );
      await client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: formatted }] });
      const settled = await client.diagnostics(uri, (p) => p.version === 2);
      expect(settled.diagnostics.filter((d) => d.severity === 1)).toEqual([]);
      expect(await client.request<TextEdit[]>("textDocument/formatting", { textDocument: { uri }, options })).toEqual([]);
      await stop();
    },
    SESSION_TIMEOUT,
  );

  it(
    "colours the expressions: full, range and delta",
    async () => {
      const path = join(dir, "tokens.task.yaml");
      writeFileSync(path, MESSY);
      const uri = pathToFileURL(path).href;
      const { client, stop } = startStdioServer();
      const init = (await client.initialize(pathToFileURL(dir).href)) as InitializeResult;
      const legend = init.capabilities.semanticTokensProvider!.legend;
      await client.open(uri, MESSY);
      await client.diagnostics(uri, (p) => p.version === 1);

      const full = await client.request<SemanticTokens>("textDocument/semanticTokens/full", { textDocument: { uri } });
      expect(decode(MESSY, full.data, legend.tokenTypes)).toEqual([
        "5:function:exists",
        "5:variable:inputs",
        "5:property:brief",
        "5:operator:&&",
        "5:keyword:true",
        "14:function:len",
        "14:variable:result",
        "14:property:text",
        "14:operator:>",
        "14:number:0",
      ]);
      const range = await client.request<SemanticTokens>("textDocument/semanticTokens/range", {
        textDocument: { uri },
        range: { start: { line: 14, character: 0 }, end: { line: 15, character: 0 } },
      });
      expect(decode(MESSY, range.data, legend.tokenTypes)).toEqual([
        "14:function:len",
        "14:variable:result",
        "14:property:text",
        "14:operator:>",
        "14:number:0",
      ]);

      const edited = MESSY.replace("len(result.text)   > 0", "len(result.text)   > 0 && count(result.items) > 1");
      await client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: edited }] });
      const delta = await client.request<SemanticTokensDelta>("textDocument/semanticTokens/full/delta", {
        textDocument: { uri },
        previousResultId: full.resultId,
      });
      expect(delta.edits).toHaveLength(1);
      const patched = [...full.data];
      for (const e of delta.edits) patched.splice(e.start, e.deleteCount, ...(e.data ?? []));
      expect(decode(edited, patched, legend.tokenTypes).slice(-7)).toEqual([
        "14:number:0",
        "14:operator:&&",
        "14:function:count",
        "14:variable:result",
        "14:property:items",
        "14:operator:>",
        "14:number:1",
      ]);
      // an unknown result id gets the whole answer
      const fresh = await client.request<SemanticTokens>("textDocument/semanticTokens/full/delta", {
        textDocument: { uri },
        previousResultId: "stale",
      });
      expect(fresh.data).toEqual(patched);
      await stop();
    },
    SESSION_TIMEOUT,
  );
});

describe("taskspec lsp --stdio: file references", () => {
  it(
    "reports a schema file missing beside the contract (C013) until it exists",
    async () => {
      const folder = join(dir, "evidence");
      mkdirSync(folder, { recursive: true });
      const text = readFileSync(join(REPO, "specs", "invalid", "C013-missing-schema-file.task.yaml"), "utf8");
      const path = join(folder, "collect.task.yaml");
      writeFileSync(path, text);
      const uri = pathToFileURL(path).href;
      const { client, stop } = startStdioServer();
      await client.initialize(pathToFileURL(dir).href);
      await client.open(uri, text);
      const opened = await client.diagnostics(uri, (p) => p.version === 1);
      expect(opened.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.message])).toEqual([
        [
          "C013",
          11,
          43,
          "schema file 'schemas/evidence.json' of verifier 'evidence_schema' does not exist (paths are relative to the contract's folder)",
        ],
      ]);
      mkdirSync(join(folder, "schemas"));
      writeFileSync(join(folder, "schemas", "evidence.json"), "{}");
      await client.notify("textDocument/didChange", {
        textDocument: { uri, version: 2 },
        contentChanges: [{ text: `${text}# the schema is there now\n` }],
      });
      const fixed = await client.diagnostics(uri, (p) => p.version === 2);
      expect(fixed.diagnostics).toEqual([]);
      await stop();
    },
    SESSION_TIMEOUT,
  );
});

/** The protocol's five-integer encoding back to `line:type:text`. */
function decode(text: string, data: number[], types: string[]): string[] {
  const lines = text.split("\n");
  const out: string[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i]!;
    character = data[i] === 0 ? character + data[i + 1]! : data[i + 1]!;
    out.push(`${line}:${types[data[i + 3]!]}:${lines[line]!.slice(character, character + data[i + 2]!)}`);
  }
  return out;
}
