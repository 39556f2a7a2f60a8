/**
 * The language server applies taskspec.config.yaml and inline suppressions
 * like `taskspec check`, and leaves YAML that is not a contract alone. The
 * real server (`taskspec lsp --stdio` from the built CLI) over stdio, in a
 * temporary project: the workspace scan, opened documents, a configuration
 * changed on disk, and a broken configuration shown on itself.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { Hover } from "vscode-languageserver";
import { TestClient } from "../lsp/test/client.js";
import { REPO } from "../lsp/test/helpers.js";

const DEAD = readFileSync(join(REPO, "specs", "invalid", "C080-dead-unit.task.yaml"), "utf8");
const SUPPRESSED = DEAD.replace("  translate:\n", "  # taskspec-ignore C080: kept for the audit\n  translate:\n").replace(
  "  write:\n",
  "  # taskspec-ignore C052: nothing soft here\n  write:\n",
);
const COMPOSE = "services:\n  web:\n    image: nginx\n    ports: ['80:80']\n";
const dir = mkdtempSync(join(tmpdir(), "taskspec-lsp-config-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const uriOf = (name: string) => pathToFileURL(join(dir, name)).href;
const codes = (p: { diagnostics: { code?: string | number; severity?: number }[] }) => p.diagnostics.map((d) => `${d.code} ${d.severity}`);

describe("taskspec lsp --stdio with a configuration file", () => {
  it(
    "applies severities, ignores and suppressions, re-reads a changed configuration and ignores non-contracts",
    async () => {
      writeFileSync(join(dir, "taskspec.config.yaml"), "rules:\n  C080: error\nignore: [generated]\n");
      writeFileSync(join(dir, "dead.task.yaml"), DEAD);
      writeFileSync(join(dir, "dead-too.task.yml"), DEAD);
      mkdirSync(join(dir, "generated"));
      writeFileSync(join(dir, "generated", "g.task.yaml"), DEAD);
      writeFileSync(join(dir, "docker-compose.yml"), COMPOSE);

      const server = spawn(process.execPath, [join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"], {
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stderr = "";
      server.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      const client = new TestClient(server.stdout, server.stdin);
      await client.initialize(pathToFileURL(dir).href);

      // The workspace scan: the configuration's severity (1 = Error), a .task.yml found too, the ignored folder silent.
      expect(codes(await client.diagnostics(uriOf("dead.task.yaml")))).toEqual(["C080 1"]);
      expect(codes(await client.diagnostics(uriOf("dead-too.task.yml")))).toEqual(["C080 1"]);
      expect(codes(await client.diagnostics(uriOf("generated/g.task.yaml")))).toEqual([]);

      // An opened contract: the used suppression hides C080, the unused one is C090 (2 = Warning) with a quick fix.
      const suppressed = uriOf("suppressed.task.yaml");
      await client.open(suppressed, SUPPRESSED);
      const opened = await client.diagnostics(suppressed, (p) => p.version === 1);
      expect(codes(opened)).toEqual(["C090 2"]);
      const actions = await client.request<{ title: string }[]>("textDocument/codeAction", {
        textDocument: { uri: suppressed },
        range: opened.diagnostics[0]!.range,
        context: { diagnostics: opened.diagnostics },
      });
      expect(actions.map((a) => a.title)).toContain("Remove the unused suppression comment");

      // YAML that is not a contract, even sent as the taskspec language: no diagnostics, no answers.
      const compose = uriOf("docker-compose.yml");
      await client.open(compose, COMPOSE);
      const hover = await client.request<Hover | null>("textDocument/hover", {
        textDocument: { uri: compose },
        position: { line: 1, character: 3 },
      });
      expect(hover).toBeNull();
      // a contract opened after it is checked after it: by then the compose file would have had its push
      const later = uriOf("later.task.yaml");
      await client.open(later, DEAD);
      await client.diagnostics(later, (p) => p.version === 1);
      expect(client.pushes(compose)).toEqual([]);

      // The configuration changes on disk: closed contracts are re-checked under it.
      client.clearDiagnostics();
      writeFileSync(join(dir, "taskspec.config.yaml"), "rules:\n  C080: off\n");
      await client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: uriOf("taskspec.config.yaml"), type: 2 }] });
      expect(codes(await client.diagnostics(uriOf("dead.task.yaml")))).toEqual([]);
      expect(codes(await client.diagnostics(later, (p) => p.version === 1))).toEqual([]);

      // A broken configuration: its problem is shown on the file, at its line and column; contracts get the defaults.
      writeFileSync(join(dir, "taskspec.config.yaml"), "rules:\n  C020: off\n");
      await client.notify("workspace/didChangeWatchedFiles", { changes: [{ uri: uriOf("taskspec.config.yaml"), type: 2 }] });
      const broken = await client.diagnostics(uriOf("taskspec.config.yaml"));
      expect(broken.diagnostics).toEqual([
        expect.objectContaining({ range: { start: { line: 1, character: 8 }, end: { line: 1, character: 11 } }, severity: 1 }),
      ]);
      expect(broken.diagnostics[0]!.message).toContain("C020 is an error and stays one");
      expect(codes(await client.diagnostics(uriOf("dead.task.yaml"), (p) => p.diagnostics.length > 0))).toEqual(["C080 2"]);

      await client.request("shutdown", null);
      await client.notify("exit", null);
      client.dispose();
      expect(stderr).not.toContain("failed");
    },
    4 * 60_000,
  );
});
