/**
 * Lens and impact bench: over real stdio against
 * `taskspec lsp --stdio`, on a chain of N units (the worst case for
 * explanation paths) at depths 1,000 / 4,000 / 8,000 / 20,000 and on the
 * 10,000-unit contract of bench/lsp/run.mjs. For each: the resolve of the lens
 * at the head of everything (every unit below it), right after open and after
 * one-character edits (median); one `taskspec/impact` request at the same node
 * (its answer's size and whether it says it is partial); the server's CPU per
 * resolve (from /proc, 10 ms ticks) and its resident memory (peak over the
 * session, VmHWM, and at the end). The server must stay up throughout.
 *
 * The server is started with --expose-gc, as the launchers start it, so that
 * `taskspec lsp` runs it in this process (without the flag it relaunches
 * itself in a child, and /proc would show the idle parent).
 *
 * Run: `node bench/lsp/lens.mjs [chain depths...]` after `npm run build`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateChain } from "./generate-chain.mjs";
import { generateContract } from "./generate-contract.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = createRequire(join(REPO, "package.json"))(
  "vscode-jsonrpc/node",
);

const depths = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const cases = [
  ...(depths.length > 0 ? depths : [1000, 4000, 8000, 20000]).map((n) => ({
    name: `chain ${n}`,
    text: generateChain(n),
    node: "sources",
    digit: "model_calls: 1 }",
  })),
  { name: "bench shape 10,000", text: generateContract(10000), node: "sources", digit: "model_calls: 2," },
];
const EDITS = 5;

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const proc = (pid, file) => readFileSync(`/proc/${pid}/${file}`, "utf8");
const cpuMs = (pid) => {
  const f = proc(pid, "stat").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * 10;
};
const memMb = (pid, field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(proc(pid, "status"))?.[1] ?? NaN) / 1024;

function positionAt(text, offset) {
  const before = text.slice(0, offset);
  return { line: before.split("\n").length - 1, character: offset - (before.lastIndexOf("\n") + 1) };
}

async function run({ name, text, node, digit }, dir) {
  const child = spawn(process.execPath, ["--expose-gc", join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let exited = false;
  child.on("exit", () => (exited = true));
  const c = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  let waiting = [];
  c.onNotification("textDocument/publishDiagnostics", (p) => (waiting = waiting.filter((w) => (w(p) ? false : true))));
  c.onRequest(() => null);
  c.listen();
  const diagnostics = (version) => new Promise((resolve) => waiting.push((p) => (p.version === version ? (resolve(p), true) : false)));
  await c.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: { textDocument: { codeLens: {} } } });
  await c.sendNotification("initialized", {});
  const path = join(dir, `${name.replace(/\W+/g, "-")}.task.yaml`);
  writeFileSync(path, text);
  const uri = pathToFileURL(path).href;
  const opened = diagnostics(1);
  await c.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text } });
  await opened;

  const resolveOnce = async () => {
    const lenses = await c.sendRequest("textDocument/codeLens", { textDocument: { uri } });
    const lens = lenses.find((l) => l.data?.node === node);
    const cpu = cpuMs(child.pid);
    const t = performance.now();
    const resolved = await c.sendRequest("codeLens/resolve", lens);
    return { ms: performance.now() - t, cpu: cpuMs(child.pid) - cpu, title: resolved.command.title };
  };
  // A hover on the node's declaration reads the version's plan (its facts): where the plan build goes when
  // the lens no longer needs it, so its time is the work the lens moved.
  const keyAt = positionAt(text, text.indexOf(`\n  ${node}:`) + 3);
  const hoverOnce = async () => {
    const cpu = cpuMs(child.pid);
    const t = performance.now();
    await c.sendRequest("textDocument/hover", { textDocument: { uri }, position: keyAt });
    return { ms: performance.now() - t, cpu: cpuMs(child.pid) - cpu };
  };
  const first = await resolveOnce();
  const firstHover = await hoverOnce();
  const after = [];
  const again = [];
  const hovers = [];
  const at = positionAt(text, text.indexOf(digit) + digit.indexOf(":") + 2);
  let value = digit.includes("1") ? "1" : "2";
  for (let i = 0; i < EDITS; i++) {
    value = value === "1" ? "3" : "1";
    const next = diagnostics(i + 2);
    await c.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: i + 2 },
      contentChanges: [{ range: { start: at, end: { line: at.line, character: at.character + 1 } }, text: value }],
    });
    await next;
    after.push(await resolveOnce());
    again.push(await resolveOnce());
    hovers.push(await hoverOnce());
  }
  const cpu = cpuMs(child.pid);
  let t = performance.now();
  const impact = await c.sendRequest("taskspec/impact", { uri, node });
  const impactMs = performance.now() - t;
  const impactCpu = cpuMs(child.pid) - cpu;
  const peak = memMb(child.pid, "VmHWM");
  const rss = memMb(child.pid, "VmRSS");
  await c.sendRequest("shutdown", null);
  await c.sendNotification("exit", null);
  c.dispose();
  return {
    name,
    units: impact.total,
    title: first.title,
    first,
    resolve: median(after.map((r) => r.ms)),
    resolveCpu: median(after.map((r) => r.cpu)),
    again: median(again.map((r) => r.ms)),
    againCpu: median(again.map((r) => r.cpu)),
    firstHover,
    hover: median(hovers.map((r) => r.ms)),
    hoverCpu: median(hovers.map((r) => r.cpu)),
    impactMs,
    impactCpu,
    impactKb: JSON.stringify(impact).length / 1024,
    partial: impact.partial !== undefined,
    peak,
    rss,
    alive: !exited,
  };
}

const load = loadavg()[0];
const dir = mkdtempSync(join(tmpdir(), "taskspec-bench-lens-"));
const rows = [];
try {
  for (const k of cases) {
    rows.push(await run(k, dir));
    process.stderr.write(`done ${k.name}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const f = (ms) => (ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
const out = [
  `Machine: ${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, Node ${process.version}, 1-minute load ${load.toFixed(1)} at the start. Command: \`node bench/lsp/lens.mjs\`.`,
  `Lens at the node every unit depends on. "After an edit": median of ${EDITS} one-character edits, each followed by its diagnostics, then the resolve,`,
  `the first request of a new version (it pays for whatever that version has not computed yet); "again": a second resolve on the same version,`,
  `i.e. the lens alone; "hover": then a hover on the node's declaration, which reads the version's plan (whichever of the two needs the plan first`,
  `builds it). Times are wall / the server's CPU time (/proc, 10 ms ticks). Memory: the server's peak resident size over the session (VmHWM) and at the end.`,
  "",
  "| contract | lens title | resolve after open (wall / CPU) | hover after it | resolve after an edit (wall / CPU) | resolve again | hover after them | taskspec/impact (wall / CPU, answer size, partial) | server peak / end RSS | server alive |",
  "|---|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.title} | ${f(r.first.ms)} / ${f(r.first.cpu)} ms | ${f(r.firstHover.ms)} / ${f(r.firstHover.cpu)} ms | ${f(r.resolve)} / ${f(r.resolveCpu)} ms | ${f(r.again)} / ${f(r.againCpu)} ms | ${f(r.hover)} / ${f(r.hoverCpu)} ms | ${f(r.impactMs)} / ${f(r.impactCpu)} ms, ${Math.round(r.impactKb)} KB, ${r.partial ? "partial" : "complete"} | ${Math.round(r.peak)} / ${Math.round(r.rss)} MB | ${r.alive ? "yes" : "NO"} |`,
  ),
];
process.stdout.write(out.join("\n") + "\n");
