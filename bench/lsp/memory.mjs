/**
 * Resident memory of the real language server process over an edit session:
 * `taskspec lsp --stdio` spawned, a generated contract opened, ten
 * one-character edits each followed by a hover, the lens list and one lens
 * resolve, then idle. Prints RSS (VmRSS) after the open, after the edits and
 * after 1 s and 3 s of idle.
 *   npm run build && node bench/lsp/memory.mjs [units=10000]
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateContract } from "./generate-contract.mjs";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = createRequire(join(REPO, "package.json"))(
  "vscode-jsonrpc/node",
);
const units = Number(process.argv[2] ?? 10000);
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;

const child = spawn(process.execPath, ["--expose-gc", join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"], {
  stdio: ["pipe", "pipe", "inherit"],
});
const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
let onDiagnostics = () => undefined;
connection.onNotification("textDocument/publishDiagnostics", () => onDiagnostics());
connection.onRequest("client/registerCapability", () => null);
connection.onRequest("workspace/configuration", (p) => p.items.map(() => null));
connection.listen();
const diagnostics = () => new Promise((resolve) => (onDiagnostics = resolve));

await connection.sendRequest("initialize", { processId: null, rootUri: null, capabilities: {} });
await connection.sendNotification("initialized", {});
const text = generateContract(units);
const uri = "file:///bench/memory.task.yaml";
let next = diagnostics();
await connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "taskspec", version: 1, text } });
await next;
const rows = [["after open", rssMb(child.pid)]];

// the digit of a unit's model_calls in the middle of the file toggles 2 <-> 3
const at = text.indexOf("model_calls: ", text.length >> 1) + "model_calls: ".length;
const before = text.slice(0, at).split("\n");
const position = { line: before.length - 1, character: before.at(-1).length };
for (let version = 2; version <= 11; version++) {
  next = diagnostics();
  const range = { start: position, end: { line: position.line, character: position.character + 1 } };
  await connection.sendNotification("textDocument/didChange", {
    textDocument: { uri, version },
    contentChanges: [{ range, text: version % 2 ? "2" : "3" }],
  });
  await next;
  await connection.sendRequest("textDocument/hover", { textDocument: { uri }, position });
  const lenses = await connection.sendRequest("textDocument/codeLens", { textDocument: { uri } });
  await connection.sendRequest("codeLens/resolve", lenses[lenses.length >> 1]);
}
rows.push(["after ten edits", rssMb(child.pid)]);
for (const ms of [1000, 2000]) {
  await new Promise((resolve) => setTimeout(resolve, ms));
  rows.push([`idle ${ms === 1000 ? 1 : 3} s`, rssMb(child.pid)]);
}
child.kill();
console.log(`${units} units, RSS of the server process: ${rows.map(([label, mb]) => `${label} ${mb.toFixed(0)} MB`).join(", ")}`);
process.exit(0);
