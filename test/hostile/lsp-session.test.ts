/**
 * A hostile session against the real language server over stdio: its
 * workspace holds the hostile corpus (a FIFO and a symlink to /dev/zero
 * among it); every hostile input and seeded mutants of the example contracts
 * are opened, edited (whole and by range) and asked for hover, completion,
 * code lenses and their resolution, formatting and semantic tokens at random
 * positions. Each answer must come within a budget, the process must stay
 * alive and its memory bounded, and it must shut down cleanly at the end.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { CodeLens } from "vscode-languageserver";
import { FULL_CAPABILITIES, TestClient } from "../../lsp/test/client.js";
import { REPO } from "../../lsp/test/helpers.js";
import { hostileInputs, seedContracts, textOf, writeCorpus } from "./corpus.js";
import { apply, mutant, mutantText, mutation } from "./mutate.js";

const dir = mkdtempSync(join(tmpdir(), "taskspec-hostile-lsp-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Per request or diagnostics push, on a loaded 2-core machine (answers take milliseconds when it is quiet). */
const BUDGET_MS = 20_000;
/** The server's resident memory (with the CLI process that started it); the two idle near 150 MB. */
const MAX_RSS_MB = 1024;

const CAPABILITIES = {
  ...FULL_CAPABILITIES,
  textDocument: {
    ...FULL_CAPABILITIES.textDocument,
    formatting: {},
    semanticTokens: { requests: { full: { delta: true }, range: true }, tokenTypes: [], tokenModifiers: [], formats: ["relative"] },
  },
};

/** A small seeded generator for positions and choices (the mutants come from fast-check). */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s % n;
  };
}

/** Resident memory of `pid` and its descendants (`taskspec lsp` runs the server in a child started with --expose-gc). */
function rssMb(pid: number): number {
  let kb: number;
  try {
    kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
  let children = "";
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8");
  } catch {
    // no children file: count the process alone
  }
  return (
    kb / 1024 +
    children
      .split(/\s+/)
      .filter(Boolean)
      .reduce((mb, child) => mb + rssMb(Number(child)), 0)
  );
}

describe("a hostile language-server session over stdio", () => {
  it("answers every request within budget, stays alive with bounded memory, and shuts down cleanly", async () => {
    writeCorpus(dir);
    spawnSync("mkfifo", [join(dir, "pipe.task.yaml")]);
    symlinkSync("/dev/zero", join(dir, "zero.task.yaml"));

    const server = spawn(process.execPath, [join(REPO, "cli", "bin", "taskspec.js"), "lsp", "--stdio"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    server.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    let exitCode: number | null | undefined;
    const exited = new Promise<number | null>((resolve) => server.on("exit", (code) => resolve((exitCode = code))));
    const client = new TestClient(server.stdout, server.stdin);

    let slowest = { ms: 0, what: "" };
    let requests = 0;
    let maxRss = 0;
    const within = async <T>(what: string, promise: Promise<T>): Promise<T> => {
      const started = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer to ${what} within ${BUDGET_MS} ms`)), BUDGET_MS);
      });
      try {
        return await Promise.race([promise, late]);
      } finally {
        clearTimeout(timer);
        const ms = Date.now() - started;
        requests++;
        if (ms > slowest.ms) slowest = { ms, what };
      }
    };

    await within("initialize", client.initialize(pathToFileURL(dir).href, CAPABILITIES));
    // the workspace scan reaches the corpus beside the FIFO and /dev/zero: it must get through
    await within("the workspace scan", client.diagnostics(pathToFileURL(join(dir, "alias-bomb.task.yaml")).href));

    const seeds = seedContracts();
    const documents = [
      ...hostileInputs().map((input) => ({ name: input.name, text: textOf(input) })),
      ...fc
        .sample(mutant(seeds), { numRuns: 30, seed: 20261202 })
        .map((m, i) => ({ name: `mutant-${i}.task.yaml`, text: mutantText(seeds, m) })),
    ];
    const edits = fc.sample(mutation, { numRuns: documents.length, seed: 7 });
    const pick = random(20261202);

    for (const [i, doc] of documents.entries()) {
      const uri = pathToFileURL(join(dir, "open", doc.name)).href;
      const ask = async (text: string, version: number) => {
        const lines = text.split("\n").length;
        const at = () => ({ line: pick(lines + 2), character: pick(120) });
        const textDocument = { uri };
        await within(`hover in ${doc.name} v${version}`, client.request("textDocument/hover", { textDocument, position: at() }));
        await within(`completion in ${doc.name} v${version}`, client.request("textDocument/completion", { textDocument, position: at() }));
        const lenses = await within(
          `codeLens of ${doc.name} v${version}`,
          client.request<CodeLens[] | null>("textDocument/codeLens", { textDocument }),
        );
        for (const lens of (lenses ?? []).slice(0, 3))
          await within(`codeLens/resolve in ${doc.name}`, client.request("codeLens/resolve", lens));
        await within(
          `formatting of ${doc.name} v${version}`,
          client.request("textDocument/formatting", { textDocument, options: { tabSize: 2, insertSpaces: true } }),
        );
        await within(`semanticTokens of ${doc.name} v${version}`, client.request("textDocument/semanticTokens/full", { textDocument }));
        const from = at();
        await within(
          `semanticTokens/range of ${doc.name} v${version}`,
          client.request("textDocument/semanticTokens/range", {
            textDocument,
            range: { start: from, end: { line: from.line + 40, character: 0 } },
          }),
        );
      };
      await client.open(uri, doc.text);
      await within(
        `diagnostics of ${doc.name}`,
        client.diagnostics(uri, (p) => p.version === 1),
      );
      await ask(doc.text, 1);
      // a whole-text change to a mutation of it, then a change by range (the incremental path)
      const changed = apply(doc.text, edits[i]!);
      await client.notify("textDocument/didChange", { textDocument: { uri, version: 2 }, contentChanges: [{ text: changed }] });
      const line = pick(changed.split("\n").length);
      await client.notify("textDocument/didChange", {
        textDocument: { uri, version: 3 },
        contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: "{{{{{{{{[[[[: *x\n" }],
      });
      await within(
        `diagnostics of ${doc.name} v3`,
        client.diagnostics(uri, (p) => p.version === 3),
      );
      await ask(changed, 3);
      await client.notify("textDocument/didClose", { textDocument: { uri } });
      expect(exitCode, `the server exited after ${doc.name}`).toBeUndefined();
      maxRss = Math.max(maxRss, rssMb(server.pid!));
      expect(maxRss, `resident memory after ${doc.name}`).toBeLessThan(MAX_RSS_MB);
    }

    // still itself: a clean contract gets a clean answer
    const clean = pathToFileURL(join(dir, "open", "clean.task.yaml")).href;
    await client.open(clean, readFileSync(join(REPO, "specs", "publish-post.task.yaml"), "utf8"));
    expect((await within("diagnostics of a clean contract", client.diagnostics(clean))).diagnostics).toEqual([]);
    await within("shutdown", client.request("shutdown", null));
    await client.notify("exit", null);
    expect(await exited).toBe(0);
    client.dispose();
    expect(stderr).not.toMatch(/internal error|Unhandled|RangeError|TypeError/);
    console.log(
      `hostile LSP session: ${documents.length} documents, ${requests} requests; slowest ${slowest.ms} ms (${slowest.what}); max RSS ${Math.round(maxRss)} MB`,
    );
  }, 600_000);
});
