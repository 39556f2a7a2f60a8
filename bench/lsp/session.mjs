/**
 * What the language-server benchmarks share: a client session over a server
 * process's stdio (vscode-jsonrpc from the root install), medians, positions,
 * and the process's CPU time and resident memory from /proc.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const rootRequire = createRequire(join(REPO, "package.json"));
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = rootRequire("vscode-jsonrpc/node");

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function positionAt(text, offset) {
  const before = text.slice(0, offset);
  const line = before.split("\n").length - 1;
  return { line, character: offset - (before.lastIndexOf("\n") + 1) };
}

/** CPU time (user + system) the process has used, in ms (Linux /proc, 10 ms resolution). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function rssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export class Session {
  constructor(command, args, configuration) {
    this.child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
    this.connection = createMessageConnection(new StreamMessageReader(this.child.stdout), new StreamMessageWriter(this.child.stdin));
    this.waiters = [];
    this.connection.onNotification("textDocument/publishDiagnostics", (p) => {
      const now = performance.now();
      this.waiters = this.waiters.filter((w) => (w.accept(p) ? (w.resolve({ p, at: now }), false) : true));
    });
    this.connection.onRequest("workspace/configuration", (p) => p.items.map((i) => (i.section === "yaml" ? configuration : null)));
    this.connection.onRequest("client/registerCapability", () => null);
    this.connection.onRequest("window/workDoneProgress/create", () => null);
    this.connection.onNotification(() => undefined);
    this.connection.listen();
  }
  nextDiagnostics(uri) {
    return new Promise((resolve) => this.waiters.push({ accept: (p) => p.uri === uri, resolve }));
  }
  async start(rootUri, settings) {
    const result = await this.connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri,
      workspaceFolders: null,
      capabilities: {
        textDocument: {
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true },
          hover: { contentFormat: ["markdown"] },
          completion: { completionItem: { snippetSupport: true } },
          codeLens: {},
          signatureHelp: {},
          foldingRange: {},
          formatting: {},
          semanticTokens: { requests: { full: { delta: true }, range: true }, tokenTypes: [], tokenModifiers: [], formats: ["relative"] },
        },
        workspace: { configuration: true },
      },
    });
    await this.connection.sendNotification("initialized", {});
    if (settings) await this.connection.sendNotification("workspace/didChangeConfiguration", { settings });
    return result;
  }
  async stop() {
    await this.connection.sendRequest("shutdown", null);
    await this.connection.sendNotification("exit", null);
    this.connection.dispose();
  }
}
