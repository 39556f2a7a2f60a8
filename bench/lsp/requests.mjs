/**
 * The newer language-server requests, side by side with yaml-language-server
 * on the same generated contracts (500, 2,000 and 10,000 units) in one run,
 * over real stdio: hover on a key (`needs:`), completion of a `needs` key,
 * signature help inside `count(`, semantic tokens (full), formatting of the
 * whole document, and folding ranges. Each is timed on a settled document
 * (diagnostics received, the plan built by a first hover), median of 10 (5 at
 * 10,000 units). A request a server does not offer is shown as "—"; one that
 * failed says so.
 *
 * Run: `npm --prefix bench/lsp ci && node bench/lsp/requests.mjs [sizes...]` after `npm run build`.
 * Prints the Markdown of the "lsp: the newer requests" section of bench/RESULTS.md.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateContract, unitId } from "./generate-contract.mjs";
import { Session, median, positionAt, rssMb } from "./session.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, "..", "..");
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = sizes.length > 0 ? sizes : [500, 2000, 10000];
const TARGET_MS = 50;

const REQUESTS = [
  { name: "hover on a key", method: "textDocument/hover", capability: "hoverProvider", params: (s) => ({ position: s.key }) },
  { name: "completion", method: "textDocument/completion", capability: "completionProvider", params: (s) => ({ position: s.completion }) },
  {
    name: "signature help",
    method: "textDocument/signatureHelp",
    capability: "signatureHelpProvider",
    params: (s) => ({ position: s.call }),
  },
  { name: "semantic tokens", method: "textDocument/semanticTokens/full", capability: "semanticTokensProvider", params: () => ({}) },
  {
    name: "formatting",
    method: "textDocument/formatting",
    capability: "documentFormattingProvider",
    params: () => ({ options: { tabSize: 2, insertSpaces: true } }),
  },
  { name: "folding ranges", method: "textDocument/foldingRange", capability: "foldingRangeProvider", params: () => ({}) },
];

function calibrate() {
  const start = performance.now();
  let x = 0;
  for (let i = 0; i < 1e8; i++) x += i;
  return { ms: performance.now() - start, x };
}

async function measure(session, capabilities, uri, text, spots, iterations) {
  const first = session.nextDiagnostics(uri);
  await session.connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text } });
  await first;
  // a first hover builds what later requests reuse (our plan); not timed
  await session.connection.sendRequest("textDocument/hover", { textDocument: { uri }, position: spots.key });
  const out = {};
  for (const r of REQUESTS) {
    if (!capabilities[r.capability]) {
      out[r.name] = { offered: false };
      continue;
    }
    const times = [];
    let size = 0;
    try {
      for (let i = 0; i < iterations; i++) {
        const t = performance.now();
        const answer = await session.connection.sendRequest(r.method, { textDocument: { uri }, ...r.params(spots) });
        times.push(performance.now() - t);
        size = Array.isArray(answer) ? answer.length : Array.isArray(answer?.data) ? answer.data.length / 5 : answer ? 1 : 0;
      }
      out[r.name] = { offered: true, ms: median(times), size };
    } catch (err) {
      out[r.name] = { offered: true, failed: err instanceof Error ? err.message : String(err) };
    }
  }
  out.rss = rssMb(session.child.pid);
  return out;
}

const before = { calibration: calibrate().ms, load: loadavg()[0] };
const dir = mkdtempSync(join(tmpdir(), "taskspec-bench-requests-"));
const schemaUri = pathToFileURL(join(REPO, "compiler", "contract.schema.json")).href;
const rows = [];
try {
  for (const n of SIZES) {
    const text = generateContract(n);
    const path = join(dir, `bench-${n}.task.yaml`);
    writeFileSync(path, text);
    const uri = pathToFileURL(path).href;
    const mid = unitId(Math.floor(n / 2));
    const decl = text.indexOf(`\n  ${mid}:\n`);
    const needsKey = text.indexOf("needs:", decl) + 2;
    const needsAt = text.indexOf("needs: { ", decl) + "needs: { ".length;
    const callAt = text.indexOf('check: "count(') + 'check: "count('.length;
    const spots = { key: positionAt(text, needsKey), completion: positionAt(text, needsAt), call: positionAt(text, callAt) };
    const iterations = n >= 10000 ? 5 : 10;

    const ours = new Session(process.execPath, ["--expose-gc", join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"]);
    const ourInit = await ours.start(null);
    const our = await measure(ours, ourInit.capabilities, uri, text, spots, iterations);
    await ours.stop();

    const yamlSettings = {
      validate: true,
      hover: true,
      completion: true,
      format: { enable: true },
      schemas: { [schemaUri]: ["*.task.yaml"] },
    };
    const theirs = new Session(
      process.execPath,
      [join(HERE, "node_modules", "yaml-language-server", "bin", "yaml-language-server"), "--stdio"],
      yamlSettings,
    );
    const theirInit = await theirs.start(null, { yaml: yamlSettings });
    const their = await measure(theirs, theirInit.capabilities, uri, text, spots, iterations);
    await theirs.stop();
    rows.push({ n, bytes: text.length, our, their });
    process.stderr.write(`done ${n}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const after = { calibration: calibrate().ms, load: loadavg()[0] };

const cell = (m) => {
  if (!m.offered) return "—";
  if (m.failed) return `failed: ${m.failed.slice(0, 60)}`;
  const ms = m.ms < 10 ? m.ms.toFixed(1) : m.ms.toFixed(0);
  return `${ms} ms (${m.size})`;
};
const out = [
  `Machine: ${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, Node ${process.version}. Command: \`node bench/lsp/requests.mjs\`.`,
  `Load: 1-minute load average ${before.load.toFixed(1)} before, ${after.load.toFixed(1)} after; a fixed 1e8-iteration loop took`,
  `${before.calibration.toFixed(0)} ms before and ${after.calibration.toFixed(0)} ms after (about 80 ms on an idle modern core).`,
  `Median wall time of each request on a settled document, over stdio; in brackets the answer's size (items, tokens, edits, ranges).`,
  `yaml-language-server 1.25.0 validates against compiler/contract.schema.json with formatting on (its Prettier formatter).`,
  `"—": the server does not offer the request. Target: each under ${TARGET_MS} ms at 2,000 units.`,
  "",
  `| units | file | server | ${REQUESTS.map((r) => r.name).join(" | ")} | RSS |`,
  `|---:|---:|---|${REQUESTS.map(() => "---:").join("|")}|---:|`,
];
const misses = [];
for (const r of rows) {
  const kb = `${Math.round(r.bytes / 1024)} KB`;
  for (const [server, m] of [
    ["taskspec", r.our],
    ["yaml-language-server", r.their],
  ]) {
    out.push(`| ${r.n} | ${kb} | ${server} | ${REQUESTS.map((q) => cell(m[q.name])).join(" | ")} | ${Math.round(m.rss)} MB |`);
  }
  if (r.n === 2000)
    for (const q of REQUESTS) {
      const m = r.our[q.name];
      if (m.offered && (m.failed || m.ms > TARGET_MS)) misses.push(`${q.name}: ${m.failed ?? `${m.ms.toFixed(0)} ms`}`);
    }
}
if (rows.some((r) => r.n === 2000))
  out.push(
    "",
    misses.length
      ? `Over the ${TARGET_MS} ms target at 2,000 units: ${misses.join("; ")}.`
      : `Every request is under ${TARGET_MS} ms at 2,000 units.`,
  );
process.stdout.write(out.join("\n") + "\n");
