/**
 * The language server's everyday requests, side by side with
 * yaml-language-server on the same generated contracts (500, 2,000 and 10,000
 * units) in one run, over real stdio: hover on a key (`needs:`), hover on a
 * unit id, completion of a `needs` key, signature help inside `count(`,
 * formatting of the whole document, semantic tokens (full), and a code lens
 * list plus the resolve of the middle unit's impact lens.
 *
 * Each request is timed on a settled document (diagnostics received, the
 * plan built by a first hover), median of 10 (5 at 10,000 units). Formatting
 * is timed after a one-character edit each time (a user formats what they
 * just changed; answering the same version again would time a cache), and
 * its first answer on the opened document is shown apart. A request that
 * takes over 3 s is timed 3 times, not 10 (yaml-language-server's formatting
 * takes tens of seconds at 10,000 units). A request a server does not offer
 * is shown as "—"; one that failed says so.
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
/** A request slower than this is timed only SLOW_ITERATIONS times. */
const SLOW_MS = 3000;
const SLOW_ITERATIONS = 3;

const sizeOf = (answer) =>
  Array.isArray(answer)
    ? answer.length
    : Array.isArray(answer?.data)
      ? answer.data.length / 5
      : Array.isArray(answer?.items)
        ? answer.items.length
        : answer
          ? 1
          : 0;

const REQUESTS = [
  {
    name: "hover on a key",
    capability: "hoverProvider",
    run: (c, s) => c.sendRequest("textDocument/hover", { textDocument: { uri: s.uri }, position: s.key }),
  },
  {
    name: "hover on a unit",
    capability: "hoverProvider",
    run: (c, s) => c.sendRequest("textDocument/hover", { textDocument: { uri: s.uri }, position: s.unit }),
  },
  {
    name: "completion",
    capability: "completionProvider",
    run: (c, s) => c.sendRequest("textDocument/completion", { textDocument: { uri: s.uri }, position: s.completion }),
  },
  {
    name: "signature help",
    capability: "signatureHelpProvider",
    run: (c, s) => c.sendRequest("textDocument/signatureHelp", { textDocument: { uri: s.uri }, position: s.call }),
  },
  {
    name: "formatting after an edit",
    capability: "documentFormattingProvider",
    edit: true,
    run: (c, s) => c.sendRequest("textDocument/formatting", { textDocument: { uri: s.uri }, options: { tabSize: 2, insertSpaces: true } }),
  },
  {
    name: "semantic tokens",
    capability: "semanticTokensProvider",
    run: (c, s) => c.sendRequest("textDocument/semanticTokens/full", { textDocument: { uri: s.uri } }),
  },
  {
    name: "code lens + resolve",
    capability: "codeLensProvider",
    // yaml-language-server's lenses are schema links, with nothing to resolve: not the same work
    compare: false,
    run: async (c, s, capabilities) => {
      const lenses = await c.sendRequest("textDocument/codeLens", { textDocument: { uri: s.uri } });
      if (!capabilities.codeLensProvider?.resolveProvider) return lenses;
      const lens = (lenses ?? []).find((l) => l.data?.node === s.lensNode) ?? lenses?.[0];
      if (lens) await c.sendRequest("codeLens/resolve", lens);
      return lenses;
    },
  },
];

function calibrate() {
  const start = performance.now();
  let x = 0;
  for (let i = 0; i < 1e8; i++) x += i;
  return { ms: performance.now() - start, x };
}

async function measure(session, capabilities, spots, text, iterations) {
  // A server that ends mid-run would leave a request unanswered and this process would just exit: say so instead.
  const died = new Promise((_, reject) =>
    session.child.on("exit", (code, signal) => reject(new Error(`the server exited (code ${code}, signal ${signal})`))),
  );
  died.catch(() => undefined);
  try {
    return await Promise.race([measureOn(session, capabilities, spots, text, iterations), died]);
  } finally {
    session.child.removeAllListeners("exit");
  }
}

async function measureOn(session, capabilities, spots, text, iterations) {
  const { uri } = spots;
  const c = session.connection;
  const first = session.nextDiagnostics(uri);
  await c.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "yaml", version: 1, text } });
  await first;
  // a first hover builds what later requests reuse (our plan); not timed
  await c.sendRequest("textDocument/hover", { textDocument: { uri }, position: spots.key });
  const out = {};
  let version = 1;
  let digit = "2";
  for (const r of REQUESTS) {
    if (!capabilities[r.capability]) {
      out[r.name] = { offered: false };
      continue;
    }
    const times = [];
    let size = 0;
    try {
      if (r.edit) {
        // the first answer on the opened document, before any edit
        const t = performance.now();
        await r.run(c, spots, capabilities);
        out.firstFormat = performance.now() - t;
      }
      for (let i = 0; i < iterations; i++) {
        if (r.edit) {
          // one character: the middle unit's model_calls toggles between 2 and 3; diagnostics received first
          const next = digit === "2" ? "3" : "2";
          const range = { start: spots.digit, end: { line: spots.digit.line, character: spots.digit.character + 1 } };
          const fresh = session.nextDiagnostics(uri);
          await c.sendNotification("textDocument/didChange", {
            textDocument: { uri, version: ++version },
            contentChanges: [{ range, text: next }],
          });
          await fresh;
          digit = next;
        }
        const t = performance.now();
        const answer = await r.run(c, spots, capabilities);
        times.push(performance.now() - t);
        size = sizeOf(answer);
        if (times.length >= SLOW_ITERATIONS && median(times) > SLOW_MS) break;
      }
      out[r.name] = { offered: true, ms: median(times), size, n: times.length };
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
    const spots = {
      uri,
      key: positionAt(text, text.indexOf("needs:", decl) + 2),
      unit: positionAt(text, decl + 4),
      completion: positionAt(text, text.indexOf("needs: { ", decl) + "needs: { ".length),
      call: positionAt(text, text.indexOf('check: "count(') + 'check: "count('.length),
      digit: positionAt(text, text.indexOf("model_calls: 2", decl) + "model_calls: ".length),
      lensNode: mid,
    };
    const iterations = n >= 10000 ? 5 : 10;

    const ours = new Session(process.execPath, ["--expose-gc", join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"]);
    const ourInit = await ours.start(null);
    const our = await measure(ours, ourInit.capabilities, spots, text, iterations);
    await ours.stop();
    process.stderr.write(`done ${n} taskspec ${JSON.stringify(our)}\n`);

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
    const their = await measure(theirs, theirInit.capabilities, spots, text, iterations);
    await theirs.stop();
    rows.push({ n, bytes: text.length, our, their });
    process.stderr.write(`done ${n} yaml-language-server\n${JSON.stringify({ n, our, their })}\n`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const after = { calibration: calibrate().ms, load: loadavg()[0] };

const ms = (x) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
const cell = (m) => {
  if (!m.offered) return "—";
  if (m.failed) return `failed: ${m.failed.slice(0, 60)}`;
  return `${ms(m.ms)} ms (${m.size})`;
};
const ratio = (ours, theirs, request) => {
  if (request.compare === false || !ours?.offered || !theirs?.offered || ours.failed || theirs.failed) return "—";
  return `${(theirs.ms / Math.max(ours.ms, 0.05)).toFixed(1)}×`;
};
const out = [
  `Machine: ${cpus()[0]?.model ?? "unknown CPU"} × ${cpus().length}, Node ${process.version}. Command: \`node bench/lsp/requests.mjs ${SIZES.join(" ")}\`.`,
  `Load: 1-minute load average ${before.load.toFixed(1)} before, ${after.load.toFixed(1)} after; a fixed 1e8-iteration loop took`,
  `${before.calibration.toFixed(0)} ms before and ${after.calibration.toFixed(0)} ms after (about 80 ms on an idle modern core).`,
  `Median wall time of each request on a settled document, over stdio; in brackets the answer's size (items, tokens, edits, lenses).`,
  `Formatting is timed after a one-character edit each time; "first format" is its first answer on the opened document.`,
  `yaml-language-server 1.25.0 validates against compiler/contract.schema.json with formatting on (its Prettier formatter).`,
  `"—": the server does not offer the request. Target: each under ${TARGET_MS} ms at 2,000 units.`,
  "",
  `| units | file | server | ${REQUESTS.map((r) => r.name).join(" | ")} | first format | RSS |`,
  `|---:|---:|---|${REQUESTS.map(() => "---:").join("|")}|---:|---:|`,
];
const misses = [];
for (const r of rows) {
  const kb = `${Math.round(r.bytes / 1024)} KB`;
  for (const [server, m] of [
    ["taskspec", r.our],
    ["yaml-language-server", r.their],
  ]) {
    const first = m.firstFormat === undefined ? "—" : `${ms(m.firstFormat)} ms`;
    out.push(`| ${r.n} | ${kb} | ${server} | ${REQUESTS.map((q) => cell(m[q.name])).join(" | ")} | ${first} | ${Math.round(m.rss)} MB |`);
  }
  out.push(
    `| ${r.n} | | yaml-language-server ÷ taskspec | ${REQUESTS.map((q) => ratio(r.our[q.name], r.their[q.name], q)).join(" | ")} | ${r.our.firstFormat && r.their.firstFormat ? `${(r.their.firstFormat / r.our.firstFormat).toFixed(1)}×` : "—"} | |`,
  );
  if (r.n === 2000) {
    for (const q of REQUESTS) {
      const m = r.our[q.name];
      if (m.offered && (m.failed || m.ms > TARGET_MS)) misses.push(`${q.name}: ${m.failed ?? `${m.ms.toFixed(0)} ms`}`);
    }
    if (r.our.firstFormat > TARGET_MS) misses.push(`first format: ${r.our.firstFormat.toFixed(0)} ms`);
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
