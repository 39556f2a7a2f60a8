/**
 * Language-server benchmark: generated contracts of 500, 2,000 and
 * 10,000 units; for each, the time from a one-character edit to fresh
 * diagnostics, and the latency of hover, completion and a code-lens resolve,
 * over real stdio against `taskspec lsp --stdio`; side by side in the same run
 * with yaml-language-server validating the same file against
 * compiler/contract.schema.json (schema-only work for it, every semantic check
 * for us); the servers' resident memory with the file open; and, in-process,
 * where our time goes (parse vs. the whole compile).
 *
 * Run: `npm --prefix bench/lsp ci && node bench/lsp/run.mjs [sizes...]` after `npm run build`.
 * Prints a Markdown table (the `## lsp` section of bench/RESULTS.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateContract, unitId } from "./generate-contract.mjs";
import { Session, cpuMs, median, positionAt, rssMb } from "./session.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");
const compiler = await import(pathToFileURL(join(REPO, "compiler", "dist", "index.js")).href);

const SIZES = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const sizes = SIZES.length > 0 ? SIZES : [500, 2000, 10000];
// lsp/src/server.ts debounces on the leading edge: a single edit after a quiet spell is checked at once
const OUR_DEBOUNCE_MS = 0;
const YAML_LS_DELAY_MS = 200; // yaml-language-server's fixed validationDelayMs

/** Times every measured request of one server on one file. */
async function measure(session, uri, text, spots, { iterations, lenses }) {
  const first = session.nextDiagnostics(uri);
  await session.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text } });
  await first;
  const edit = [];
  const editCpu = [];
  const hover = [];
  const hoverAgain = [];
  const completion = [];
  const resolve = [];
  let version = 1;
  let digit = "2";
  for (let i = 0; i < iterations; i++) {
    // One character: the unit's model_calls toggles between 2 and 3.
    const next = digit === "2" ? "3" : "2";
    const range = { start: spots.digit, end: { line: spots.digit.line, character: spots.digit.character + 1 } };
    const fresh = session.nextDiagnostics(uri);
    const cpuBefore = cpuMs(session.child.pid);
    const sent = performance.now();
    await session.connection.sendNotification("textDocument/didChange", {
      textDocument: { uri, version: ++version },
      contentChanges: [{ range, text: next }],
    });
    const { at } = await fresh;
    edit.push(at - sent);
    editCpu.push(cpuMs(session.child.pid) - cpuBefore);
    digit = next;

    let t = performance.now();
    await session.connection.sendRequest("textDocument/hover", { textDocument: { uri }, position: spots.hover });
    hover.push(performance.now() - t);
    // Again on the same version: what a hover costs once the version's plan exists.
    t = performance.now();
    await session.connection.sendRequest("textDocument/hover", { textDocument: { uri }, position: spots.hover });
    hoverAgain.push(performance.now() - t);
    t = performance.now();
    const items = await session.connection.sendRequest("textDocument/completion", { textDocument: { uri }, position: spots.completion });
    completion.push(performance.now() - t);
    spots.completionCount = Array.isArray(items) ? items.length : (items?.items?.length ?? 0);
    if (lenses) {
      const all = await session.connection.sendRequest("textDocument/codeLens", { textDocument: { uri } });
      const lens = all.find((l) => l.data?.node === spots.lensNode);
      t = performance.now();
      await session.connection.sendRequest("codeLens/resolve", lens);
      resolve.push(performance.now() - t);
    }
  }
  const rss = rssMb(session.child.pid);
  // and once the server has been idle for a second (a server may collect its garbage then)
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const rssIdle = rssMb(session.child.pid);
  return {
    edit: median(edit),
    editCpu: median(editCpu),
    hover: median(hover),
    hoverAgain: median(hoverAgain),
    completion: median(completion),
    resolve: lenses ? median(resolve) : undefined,
    rss,
    rssIdle,
  };
}

function inProcess(text) {
  const times = { parse: [], check: [], compile: [] };
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  for (let i = 0; i < 5; i++) {
    let t = cpu();
    compiler.parseContract(text);
    times.parse.push(cpu() - t);
    t = cpu();
    compiler.checkContract(text);
    times.check.push(cpu() - t);
    t = cpu();
    compiler.compile(text);
    times.compile.push(cpu() - t);
  }
  return { parse: median(times.parse), check: median(times.check), compile: median(times.compile) };
}

/** A fixed CPU-bound loop: how fast this machine is right now (an idle modern core: about 80 ms). */
function calibrate() {
  const start = performance.now();
  let x = 0;
  for (let i = 0; i < 1e8; i++) x += i;
  return { ms: performance.now() - start, x };
}

const before = { calibration: calibrate().ms, load: loadavg()[0] };
const dir = mkdtempSync(join(tmpdir(), "taskspec-bench-lsp-"));
const schemaUri = pathToFileURL(join(REPO, "compiler", "contract.schema.json")).href;
const rows = [];
try {
  for (const n of sizes) {
    const text = generateContract(n);
    const path = join(dir, `bench-${n}.task.yaml`);
    writeFileSync(path, text);
    const uri = pathToFileURL(path).href;
    const mid = unitId(Math.floor(n / 2));
    const later = unitId(Math.min(n - 1, Math.floor(n / 2) + 50));
    const decl = text.indexOf(`\n  ${mid}:\n`) + 3;
    const costAt = text.indexOf("model_calls: 2", decl) + "model_calls: ".length;
    const laterDecl = text.indexOf(`\n  ${later}:\n`);
    const needsAt = text.indexOf("needs: { ", laterDecl) + "needs: { ".length;
    const spots = {
      digit: positionAt(text, costAt),
      hover: positionAt(text, decl + 1),
      completion: positionAt(text, needsAt),
      lensNode: mid,
    };
    const iterations = n >= 10000 ? 10 : 20;
    const compile = inProcess(text);

    const ours = new Session(process.execPath, ["--expose-gc", join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"]);
    await ours.start(null);
    const our = await measure(ours, uri, text, { ...spots }, { iterations, lenses: true });
    await ours.stop();

    const yamlSettings = { validate: true, hover: true, completion: true, schemas: { [schemaUri]: ["*.task.yaml"] } };
    const theirs = new Session(
      process.execPath,
      [join(HERE, "node_modules", "yaml-language-server", "bin", "yaml-language-server"), "--stdio"],
      yamlSettings,
    );
    await theirs.start(null, { yaml: yamlSettings });
    const their = await measure(theirs, uri, text, { ...spots }, { iterations, lenses: false });
    await theirs.stop();
    rows.push({ n, bytes: text.length, compile, our, their, iterations });
    process.stderr.write(`done ${n}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const after = { calibration: calibrate().ms, load: loadavg()[0] };
const f = (ms) => (ms === undefined ? "—" : ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
const out = [
  `Machine: ${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, Node ${process.version}. Command: \`node bench/lsp/run.mjs\`.`,
  `Load while it ran: 1-minute load average ${before.load.toFixed(1)} before, ${after.load.toFixed(1)} after; a fixed 1e8-iteration loop took`,
  `${before.calibration.toFixed(0)} ms before and ${after.calibration.toFixed(0)} ms after (about 80 ms on an idle modern core), so every time below is inflated by`,
  `roughly that factor on a shared machine. Both servers ran in the same run, one after the other, on the same file.`,
  `Medians over 20 edits (10 at 10,000 units). "edit → diagnostics" is from sending a one-character didChange to receiving the`,
  `new publishDiagnostics, including each server's fixed delay (ours: none for an edit after a quiet spell, its debounce being leading-edge; yaml-language-server: ${YAML_LS_DELAY_MS} ms,`,
  `not configurable); "minus delay" subtracts it. Hover on a unit id right after the edit's diagnostics (ours builds that version's`,
  `plan on first use, so this includes it) and again on the same version, completion of a \`needs\` key (every unit/input that`,
  `would not close a cycle), resolve of that unit's impact lens; RSS of the server process with the file open, right after the edits
  and after a second without requests (ours collects its garbage when idle). "server CPU`,
  `per edit" is the CPU time the server process used from the edit to its diagnostics (/proc, 10 ms ticks): on a loaded`,
  `machine it shows the work done better than wall time does.`,
  "",
  "| units | file | server | edit → diagnostics | minus delay | server CPU per edit | hover after edit / again | completion | lens resolve | RSS after the edits / after 1 s idle |",
  "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|",
];
for (const r of rows) {
  const kb = `${Math.round(r.bytes / 1024)} KB`;
  out.push(
    `| ${r.n} | ${kb} | taskspec (all checks) | ${f(r.our.edit)} ms | ${f(r.our.edit - OUR_DEBOUNCE_MS)} ms | ${f(r.our.editCpu)} ms | ${f(r.our.hover)} / ${f(r.our.hoverAgain)} ms | ${f(r.our.completion)} ms | ${f(r.our.resolve)} ms | ${Math.round(r.our.rss)} / ${Math.round(r.our.rssIdle)} MB |`,
  );
  out.push(
    `| ${r.n} | ${kb} | yaml-language-server (schema only) | ${f(r.their.edit)} ms | ${f(r.their.edit - YAML_LS_DELAY_MS)} ms | ${f(r.their.editCpu)} ms | ${f(r.their.hover)} / ${f(r.their.hoverAgain)} ms | ${f(r.their.completion)} ms | — | ${Math.round(r.their.rss)} / ${Math.round(r.their.rssIdle)} MB |`,
  );
}
out.push(
  "",
  "Where our time goes (in-process CPU time, median of 5): ",
  "",
  "| units | parseContract (YAML + syntax model) | checkContract (all diagnostics: parse + schema + checks) | compile (+ plan) |",
  "|---:|---:|---:|---:|",
);
for (const r of rows) out.push(`| ${r.n} | ${f(r.compile.parse)} ms | ${f(r.compile.check)} ms | ${f(r.compile.compile)} ms |`);
process.stdout.write(out.join("\n") + "\n");
