/**
 * The real server process, started the documented way (`taskspec lsp --stdio`
 * from the built CLI), driven over stdio by a vscode-jsonrpc client through a
 * whole session: initialize (with a workspace folder, so closed contracts are
 * checked), open, diagnostics, hover, completion, definition, rename, code lens
 * and resolve, the show-impact command, code action, impact of the edit,
 * shutdown and exit. Set TASKSPEC_LSP_TRANSCRIPT=<file> to write the session's
 * protocol transcript as Markdown.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { docsUrl } from "@taskspec/compiler";
import { afterAll, describe, expect, it } from "vitest";
import type {
  CodeAction,
  CodeLens,
  CompletionItem,
  Hover,
  InitializeResult,
  Location,
  MarkupContent,
  WorkspaceEdit,
} from "vscode-languageserver";
import type { ImpactOfEditResult, ImpactResult } from "../lsp/src/protocol.js";
import { TestClient, type TranscriptEntry } from "../lsp/test/client.js";
import { REPO, positionOf } from "../lsp/test/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "taskspec-lsp-stdio-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MARKET = readFileSync(join(REPO, "specs", "market-entry-pack.task.yaml"), "utf8");
const GATELESS = readFileSync(join(REPO, "specs", "invalid", "C034-no-approval-gate.task.yaml"), "utf8");

/**
 * Every step awaits the server's answer or notification; this bound only ends a
 * broken run; under a heavy load the session comes near vitest's default of
 * a minute.
 */
const SESSION_TIMEOUT = 4 * 60_000;

describe("taskspec lsp --stdio", () => {
  it(
    "serves a whole editing session",
    async () => {
      const marketPath = join(dir, "market.task.yaml");
      const mailPath = join(dir, "mail.task.yaml");
      writeFileSync(marketPath, MARKET);
      // beside its schema, as in specs/, so its `schema:` path exists (C013)
      cpSync(join(REPO, "specs", "schemas"), join(dir, "schemas"), { recursive: true });
      writeFileSync(mailPath, GATELESS);
      const market = pathToFileURL(marketPath).href;
      const mail = pathToFileURL(mailPath).href;

      const server = spawn(process.execPath, [join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"], {
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stderr = "";
      server.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve(code)));
      const client = new TestClient(server.stdout, server.stdin);

      const init = (await client.initialize(pathToFileURL(dir).href)) as InitializeResult;
      expect(init.serverInfo?.name).toBe("taskspec-lsp");

      // The workspace scan checks the closed contract.
      const scanned = await client.diagnostics(mail);
      const gate = scanned.diagnostics.find((d) => d.code === "C034");
      // `taskspec lsp` links to the docs the CLI ships (the checkout's docs/ here)
      expect(gate?.codeDescription?.href).toBe(docsUrl("C034", pathToFileURL(join(REPO, "docs", "diagnostics.md")).href));

      await client.open(mail, GATELESS);
      const opened = await client.diagnostics(mail, (p) => p.version === 1);
      expect(opened.diagnostics.map((d) => d.code)).toContain("C034");

      const actions = await client.request<CodeAction[]>("textDocument/codeAction", {
        textDocument: { uri: mail },
        range: gate!.range,
        context: { diagnostics: [gate] },
      });
      const fix = actions.find((a) => a.diagnostics?.[0]?.code === "C034");
      expect(fix?.title).toMatch(/approval/);
      const edits = fix!.edit!.changes![mail]!;
      await client.notify("textDocument/didChange", {
        textDocument: { uri: mail, version: 2 },
        contentChanges: edits.map((e) => ({ range: e.range, text: e.newText })),
      });
      const fixed = await client.diagnostics(mail, (p) => p.version === 2);
      expect(fixed.diagnostics.map((d) => d.code)).not.toContain("C034");

      await client.open(market, MARKET);
      await client.diagnostics(market, (p) => p.version === 1);
      const s04 = positionOf(MARKET, "  S04:\n", 0, 3);

      const hover = await client.request<Hover>("textDocument/hover", { textDocument: { uri: market }, position: s04 });
      expect((hover.contents as MarkupContent).value).toContain("a change here invalidates 3 units");

      const completion = await client.request<CompletionItem[]>("textDocument/completion", {
        textDocument: { uri: market },
        position: positionOf(MARKET, "needs: { V03: content, V06", 0, "needs: { V03: ".length),
      });
      expect(completion.map((c) => c.label)).toEqual(["content", "structure", "policy", "audience"]);

      const definition = await client.request<Location[]>("textDocument/definition", {
        textDocument: { uri: market },
        position: positionOf(MARKET, "S04: [content, structure]", 0, 1),
      });
      expect(definition[0]?.range.start).toEqual(positionOf(MARKET, "  S04:\n", 0, 2));

      const rename = await client.request<WorkspaceEdit>("textDocument/rename", {
        textDocument: { uri: market },
        position: s04,
        newName: "landscape",
      });
      expect(rename.changes![market]).toHaveLength(3);

      const lenses = await client.request<CodeLens[]>("textDocument/codeLens", { textDocument: { uri: market } });
      expect(lenses).toHaveLength(50);
      const lens = await client.request<CodeLens>(
        "codeLens/resolve",
        lenses.find((l) => (l.data as { node: string }).node === "S04"),
      );
      expect(lens.command?.title).toBe("impact: 3 units (content 3 · structure 2)");
      const shown = await client.request<ImpactResult>("workspace/executeCommand", {
        command: lens.command!.command,
        arguments: lens.command!.arguments,
      });
      expect(shown.invalidated.map((u) => u.path)).toEqual([
        "S04 --content--> A01",
        "S04 --content--> A03",
        "S04 --content--> A01 --content--> F01",
      ]);

      const edited = MARKET.replace("value: product-team", "value: investment-committee");
      await client.notify("textDocument/didChange", { textDocument: { uri: market, version: 2 }, contentChanges: [{ text: edited }] });
      const impact = await client.request<ImpactOfEditResult>("taskspec/impactOfEdit", { uri: market, against: "saved" });
      expect(impact.changes).toEqual([{ node: "audience", kinds: "all" }]);
      expect(impact.invalidated[0]).toEqual({ unit: "U27", path: "audience --audience--> U27" });

      await client.request("shutdown", null);
      await client.notify("exit", null);
      expect(await exited).toBe(0);
      expect(stderr).toBe("");
      client.dispose();

      const transcript = process.env["TASKSPEC_LSP_TRANSCRIPT"];
      if (transcript) writeFileSync(transcript, renderTranscript(client.transcript, dir));
    },
    SESSION_TIMEOUT,
  );
});

function renderTranscript(entries: TranscriptEntry[], root: string): string {
  const shorten = (value: unknown): unknown => {
    if (typeof value === "string") {
      const local = value
        .split(pathToFileURL(root).href)
        .join("file:///workspace")
        .split(root)
        .join("/workspace")
        .split(pathToFileURL(REPO).href)
        .join("file:///taskspec");
      return local.length > 240 ? `${local.slice(0, 200)}… (${local.length} characters)` : local;
    }
    if (Array.isArray(value))
      return value.length > 12 ? [...value.slice(0, 12).map(shorten), `… ${value.length - 12} more`] : value.map(shorten);
    // keys too: a WorkspaceEdit's `changes` is keyed by document URI
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [shorten(k), shorten(v)]));
    return value;
  };
  const lines = [
    "# Language server: protocol transcript of one session",
    "",
    "Recorded by `test/lsp-stdio.test.ts` (`TASKSPEC_LSP_TRANSCRIPT=docs/lsp-transcript.md npx vitest run test/lsp-stdio.test.ts`):",
    "the server is `taskspec lsp --stdio`, the client a vscode-jsonrpc connection. Long strings and arrays are shortened;",
    "the workspace folder is shown as `/workspace`, the checkout (whose docs/ the CLI links to) as `/taskspec`.",
    "",
  ];
  for (const { direction, message } of entries) {
    const m = message as { method?: string; id?: number | string };
    const what = m.method ? `${m.method}${m.id !== undefined ? ` (request ${m.id})` : ""}` : `response ${m.id}`;
    lines.push(
      `### ${direction === "client->server" ? "→" : "←"} ${what}`,
      "",
      "```json",
      JSON.stringify(shorten(message), null, 2),
      "```",
      "",
    );
  }
  return lines.join("\n");
}
