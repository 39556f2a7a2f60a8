/**
 * The same server driven by an editor nobody here wrote: headless Neovim 0.7
 * (Debian's `neovim`), which uses incremental sync and answers
 * workspace/configuration. A Lua probe starts `taskspec lsp --stdio`, opens a
 * contract with an unknown reference, reads vim.diagnostic.get (with codes),
 * asks for hover and completion, fixes the typo with an in-buffer edit and
 * waits for the diagnostic to go away. The probe exits non-zero on failure.
 * A second, generic probe sends a list of requests (navigation, rename,
 * symbols, lenses, hover, signature help, completion, folding, selection,
 * inlay hints, links, quick fixes, the one lens of a contract that never
 * compiled, formatting, semantic tokens, snippets) and prints the answers for
 * the test to check.
 * Skips loudly when `nvim` is not on PATH (.ci/run installs it, and its
 * TASKSPEC_REQUIRE_ALL=1 turns the skip into a failure).
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compile } from "@taskspec/compiler";
import { afterAll, expect, it } from "vitest";
import { REPO, positionOf } from "../lsp/test/helpers.js";
import { describeIfAvailable } from "./skip-loudly.js";

const dir = mkdtempSync(join(tmpdir(), "taskspec-nvim-"));
/** The probe's bound for any one wait (see the probe's comment). */
const PROBE_WAIT_MS = 120_000;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PROBE = String.raw`
local function fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end
-- Every wait is for a state the server causes (diagnostics stored, an answer
-- received); the bound only ends a broken run (the first diagnostics took
-- 41 s at load average 25 on a 2-core machine). Each phase prints its elapsed time.
local WAIT_MS = tonumber(os.getenv("PROBE_WAIT_MS"))
local started_at = vim.loop.hrtime()
local function phase(name)
  io.stdout:write(string.format("phase %s %d ms\n", name, (vim.loop.hrtime() - started_at) / 1e6))
end
local function wait_for(what, predicate)
  if not vim.wait(WAIT_MS, predicate, 20) then fail(what .. " within " .. WAIT_MS .. " ms") end
  phase(what)
end
local function request(buf, method, params)
  local answers = vim.lsp.buf_request_sync(buf, method, params, WAIT_MS)
  phase(method)
  return answers
end
local root = os.getenv("PROBE_ROOT")
local client_id = vim.lsp.start_client({
  name = "taskspec",
  cmd = { "node", os.getenv("PROBE_BIN"), "lsp", "--stdio" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "workspace" } },
})
if not client_id then fail("the server did not start") end
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client_id)

wait_for("diagnostics", function() return #vim.diagnostic.get(buf) > 0 end)
for _, d in ipairs(vim.diagnostic.get(buf)) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  io.stdout:write(string.format("diagnostic %s %d:%d %s\n", tostring(code), d.lnum + 1, d.col + 1, (d.message:gsub("\n", " "))))
end

local uri = vim.uri_from_bufnr(buf)
local line, character = tonumber(os.getenv("PROBE_LINE")), tonumber(os.getenv("PROBE_CHAR"))
local hover = request(buf, "textDocument/hover", { textDocument = { uri = uri }, position = { line = line, character = character } })
local hover_result = hover and hover[client_id] and hover[client_id].result
if not hover_result then fail("no hover answer") end
io.stdout:write("hover " .. (hover_result.contents.value:gsub("\n", " ")) .. "\n")

local completion = request(buf, "textDocument/completion", { textDocument = { uri = uri }, position = { line = line, character = character } })
local items = completion and completion[client_id] and completion[client_id].result
if not items then fail("no completion answer") end
local labels = {}
for _, item in ipairs(items.items or items) do table.insert(labels, item.label) end
table.sort(labels)
io.stdout:write("completion " .. table.concat(labels, ",") .. "\n")

-- Fix the typo in the buffer: Neovim sends an incremental change.
local text = vim.api.nvim_buf_get_lines(buf, line, line + 1, false)[1]
local s, e = text:find("draf", 1, true)
vim.api.nvim_buf_set_text(buf, line, s - 1, line, e, { "draft" })
wait_for("the diagnostic to clear after the fix", function() return #vim.diagnostic.get(buf) == 0 end)
io.stdout:write("cleared\n")

vim.lsp.stop_client(client_id)
wait_for("the server to stop", function() return vim.lsp.get_client_by_id(client_id) == nil end)
vim.cmd("qall!")
`;

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

const nvimMissing = spawnSync("nvim", ["--version"], { stdio: "ignore" }).error
  ? "nvim is not on PATH (Debian: apt-get install neovim)"
  : undefined;

describeIfAvailable("Neovim 0.7 as the client", nvimMissing, () => {
  it(
    "shows the compiler's diagnostics with codes, hovers, completes and clears after an incremental fix",
    async () => {
      const text = readFileSync(join(REPO, "specs", "invalid", "C010-unknown-need.task.yaml"), "utf8");
      const file = join(dir, "notes.task.yaml");
      writeFileSync(file, text);
      writeFileSync(join(dir, "probe.lua"), PROBE);
      for (const d of ["config", "data", "state", "cache"]) mkdirSync(join(dir, "xdg", d), { recursive: true });
      const at = positionOf(text, "draf: content", 0, 2);
      const env = {
        ...process.env,
        XDG_CONFIG_HOME: join(dir, "xdg", "config"),
        XDG_DATA_HOME: join(dir, "xdg", "data"),
        XDG_STATE_HOME: join(dir, "xdg", "state"),
        XDG_CACHE_HOME: join(dir, "xdg", "cache"),
        PROBE_ROOT: dir,
        PROBE_BIN: join(REPO, "cli", "bin", "taskspec.js"),
        PROBE_LINE: String(at.line),
        PROBE_CHAR: String(at.character),
        PROBE_WAIT_MS: String(PROBE_WAIT_MS),
      };
      const result = await run("nvim", ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile probe.lua", file], env, dir);
      expect(result.stderr).not.toContain("FAIL");
      expect(result.code, result.stdout + result.stderr).toBe(0);
      // Exactly the compiler's diagnostics, as Neovim stores them.
      const shown = result.stdout.split("\n").filter((l) => l.startsWith("diagnostic "));
      const expected = compile(text).diagnostics.map(
        (d) => `diagnostic ${d.code} ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message.replace(/\n/g, " ")}`,
      );
      expect(expected.map((l) => l.split(" ")[1])).toEqual(["C010"]);
      expect(shown).toEqual(expected);
      const lines = result.stdout.split("\n");
      expect(lines.find((l) => l.startsWith("hover "))).toContain("not declared");
      expect(lines.find((l) => l.startsWith("completion "))).toBe("completion draft");
      expect(lines).toContain("cleared");
    },
    4 * PROBE_WAIT_MS,
  );
});

/**
 * Every other feature through Neovim: a generic probe sends the requests of a
 * JSON list (method, params with this buffer's uri filled in) once the client
 * is initialized, and prints each answer as JSON; the test reads them.
 */
const REQUEST_PROBE = String.raw`
local function fail(message)
  io.stderr:write("FAIL: " .. message .. "\n")
  vim.cmd("cquit 1")
end
local WAIT_MS = tonumber(os.getenv("PROBE_WAIT_MS"))
local root = os.getenv("PROBE_ROOT")
-- Neovim 0.7 takes no snippets by itself; a snippet plugin would say it does
local capabilities = vim.lsp.protocol.make_client_capabilities()
if os.getenv("PROBE_SNIPPETS") == "1" then capabilities.textDocument.completion.completionItem.snippetSupport = true end
local client_id = vim.lsp.start_client({
  name = "taskspec",
  cmd = { "node", os.getenv("PROBE_BIN"), "lsp", "--stdio" },
  root_dir = root,
  capabilities = capabilities,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "workspace" } },
})
if not client_id then fail("the server did not start") end
local buf = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(buf, client_id)
local function initialized()
  local c = vim.lsp.get_client_by_id(client_id)
  return c ~= nil and c.server_capabilities ~= nil and next(c.server_capabilities) ~= nil
end
if not vim.wait(WAIT_MS, initialized, 20) then fail("the client to initialize within " .. WAIT_MS .. " ms") end
local caps = vim.lsp.get_client_by_id(client_id).server_capabilities
io.stdout:write("capabilities " .. vim.fn.json_encode(caps) .. "\n")
if os.getenv("PROBE_WAIT_DIAGNOSTICS") == "1" then
  if not vim.wait(WAIT_MS, function() return #vim.diagnostic.get(buf) > 0 end, 20) then fail("diagnostics within " .. WAIT_MS .. " ms") end
end
local uri = vim.uri_from_bufnr(buf)
local requests = vim.fn.json_decode(table.concat(vim.fn.readfile(os.getenv("PROBE_REQUESTS")), "\n"))
for _, r in ipairs(requests) do
  local params = r.params
  if params.textDocument then params.textDocument.uri = uri end
  if params.data then params.data.uri = uri end
  if r.diagnostics then
    params.context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, params.range.start.line) }
  end
  local answers, err = vim.lsp.buf_request_sync(buf, r.method, params, WAIT_MS)
  if not answers then fail(r.name .. ": " .. tostring(err)) end
  local answer = answers[client_id]
  if answer and answer.err then fail(r.name .. ": " .. vim.fn.json_encode(answer.err)) end
  local result = answer and answer.result
  if result == nil then result = vim.NIL end
  io.stdout:write("answer " .. r.name .. " " .. vim.fn.json_encode(result) .. "\n")
end
vim.lsp.stop_client(client_id)
if not vim.wait(WAIT_MS, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20) then fail("the server to stop") end
vim.cmd("qall!")
`;

interface ProbeRequest {
  name: string;
  method: string;
  params: Record<string, unknown>;
  /** Fill params.context.diagnostics with Neovim's diagnostics on the range's line. */
  diagnostics?: boolean;
}

interface ProbeOptions {
  /** Wait for the buffer's first diagnostics before the requests. */
  waitDiagnostics?: boolean;
  /** Tell the server the client takes snippets (as with a snippet plugin). */
  snippets?: boolean;
}

async function probeRequests(
  name: string,
  text: string,
  requests: ProbeRequest[],
  { waitDiagnostics = false, snippets = false }: ProbeOptions = {},
): Promise<{ answers: Map<string, unknown>; capabilities: Record<string, unknown> }> {
  const sub = join(dir, name);
  mkdirSync(sub, { recursive: true });
  const file = join(sub, `${name}.task.yaml`);
  writeFileSync(file, text);
  // beside the example contracts' schemas, so their `schema:` paths exist here too (C013)
  cpSync(join(REPO, "specs", "schemas"), join(sub, "schemas"), { recursive: true });
  writeFileSync(join(sub, "probe.lua"), REQUEST_PROBE);
  writeFileSync(join(sub, "requests.json"), JSON.stringify(requests));
  for (const d of ["config", "data", "state", "cache"]) mkdirSync(join(sub, "xdg", d), { recursive: true });
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: join(sub, "xdg", "config"),
    XDG_DATA_HOME: join(sub, "xdg", "data"),
    XDG_STATE_HOME: join(sub, "xdg", "state"),
    XDG_CACHE_HOME: join(sub, "xdg", "cache"),
    PROBE_ROOT: sub,
    PROBE_BIN: join(REPO, "cli", "bin", "taskspec.js"),
    PROBE_REQUESTS: join(sub, "requests.json"),
    PROBE_WAIT_MS: String(PROBE_WAIT_MS),
    PROBE_WAIT_DIAGNOSTICS: waitDiagnostics ? "1" : "0",
    PROBE_SNIPPETS: snippets ? "1" : "0",
  };
  const result = await run("nvim", ["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", "luafile probe.lua", file], env, sub);
  expect(result.stderr).not.toContain("FAIL");
  expect(result.code, result.stdout + result.stderr).toBe(0);
  const answers = new Map<string, unknown>();
  let capabilities: Record<string, unknown> = {};
  for (const line of result.stdout.split("\n")) {
    const answer = /^answer (\S+) (.*)$/.exec(line);
    if (answer) answers.set(answer[1]!, JSON.parse(answer[2]!));
    if (line.startsWith("capabilities ")) capabilities = JSON.parse(line.slice("capabilities ".length)) as Record<string, unknown>;
  }
  expect([...answers.keys()]).toEqual(requests.map((r) => r.name));
  return { answers, capabilities };
}

describeIfAvailable("Neovim 0.7 drives every feature", nvimMissing, () => {
  it(
    "definition, references, rename, symbols, lenses, hover on keys, signature help, result fields, folding, selection",
    async () => {
      const text = readFileSync(join(REPO, "specs", "market-entry-pack.task.yaml"), "utf8");
      const doc = { uri: "" };
      const pos = (needle: string, delta = 0, from = 0) => {
        const offset = text.indexOf(needle, from) + delta;
        const before = text.slice(0, offset);
        return { line: before.split("\n").length - 1, character: offset - (before.lastIndexOf("\n") + 1) };
      };
      const s04 = pos("  S04:\n", 3);
      const untilAt = pos('until: "result.claims_check', 'until: "result.'.length);
      const requests: ProbeRequest[] = [
        {
          name: "definition",
          method: "textDocument/definition",
          params: { textDocument: doc, position: pos("S04: [content, structure]", 1) },
        },
        {
          name: "references",
          method: "textDocument/references",
          params: { textDocument: doc, position: s04, context: { includeDeclaration: true } },
        },
        { name: "rename", method: "textDocument/rename", params: { textDocument: doc, position: s04, newName: "S04b" } },
        { name: "symbols", method: "textDocument/documentSymbol", params: { textDocument: doc } },
        { name: "lenses", method: "textDocument/codeLens", params: { textDocument: doc } },
        { name: "resolve", method: "codeLens/resolve", params: { range: { start: s04, end: s04 }, data: { uri: "", node: "S04" } } },
        { name: "hoverKey", method: "textDocument/hover", params: { textDocument: doc, position: pos("    timeout: 45m", 6) } },
        { name: "hoverUnit", method: "textDocument/hover", params: { textDocument: doc, position: s04 } },
        {
          name: "signature",
          method: "textDocument/signatureHelp",
          params: { textDocument: doc, position: pos('check: "count(result.claims)', 'check: "count('.length) },
        },
        { name: "resultFields", method: "textDocument/completion", params: { textDocument: doc, position: untilAt } },
        { name: "folding", method: "textDocument/foldingRange", params: { textDocument: doc } },
        {
          name: "inlayHints",
          method: "textDocument/inlayHint",
          params: { textDocument: doc, range: { start: { line: 0, character: 0 }, end: pos("\nimpact:") } },
        },
        { name: "links", method: "textDocument/documentLink", params: { textDocument: doc } },
        {
          name: "selection",
          method: "textDocument/selectionRange",
          params: { textDocument: doc, positions: [pos("    timeout: 45m", 14, text.indexOf("  S04:\n"))] },
        },
      ];
      const { answers, capabilities } = await probeRequests("market", text, requests);
      for (const cap of [
        "hoverProvider",
        "definitionProvider",
        "referencesProvider",
        "renameProvider",
        "documentSymbolProvider",
        "codeLensProvider",
        "signatureHelpProvider",
        "foldingRangeProvider",
        "selectionRangeProvider",
        "inlayHintProvider",
        "documentLinkProvider",
      ]) {
        expect(capabilities[cap], cap).toBeTruthy();
      }
      const definition = answers.get("definition") as { range: { start: unknown } }[];
      expect(definition[0]!.range.start).toEqual(pos("  S04:\n", 2));
      expect(answers.get("references")).toHaveLength(3);
      const rename = answers.get("rename") as { changes: Record<string, { newText: string }[]> };
      const edits = Object.values(rename.changes)[0]!;
      expect(edits.map((e) => e.newText)).toEqual(["S04b", "S04b", "S04b"]);
      // Neovim asks for hierarchical symbols: the units section holds the phases
      const symbols = answers.get("symbols") as { name: string; children?: { name: string }[] }[];
      expect(symbols.find((s) => s.name === "units")?.children?.map((c) => c.name)).toContain("phase synthesize");
      expect(answers.get("lenses")).toHaveLength(36 + 14);
      expect((answers.get("resolve") as { command: { title: string } }).command.title).toBe("impact: 3 units (content 3 · structure 2)");
      expect((answers.get("hoverKey") as { contents: { value: string } }).contents.value).toContain("Per-attempt time limit");
      expect((answers.get("hoverUnit") as { contents: { value: string } }).contents.value).toContain("unit S04");
      expect((answers.get("signature") as { signatures: { label: string }[] }).signatures[0]!.label).toBe("count(list) -> number");
      const fields = answers.get("resultFields") as { label: string }[] | { items: { label: string }[] };
      expect((Array.isArray(fields) ? fields : fields.items).map((i) => i.label)).toEqual(
        expect.arrayContaining(["claims", "claims_check"]),
      );
      expect((answers.get("folding") as unknown[]).length).toBeGreaterThan(36);
      expect((answers.get("inlayHints") as { label: string }[]).filter((h) => h.label.startsWith(" worst case"))).toHaveLength(36);
      expect((answers.get("links") as { target: string }[]).map((l) => l.target)).toEqual([
        pathToFileURL(join(dir, "market", "schemas", "evidence.json")).href,
      ]);
      const [selection] = answers.get("selection") as { range: unknown; parent?: unknown }[];
      expect(selection!.parent).toBeDefined();
    },
    4 * PROBE_WAIT_MS,
  );

  it(
    "a quick fix for a compiler diagnostic",
    async () => {
      const text = readFileSync(join(REPO, "specs", "invalid", "C021-loop-without-max.task.yaml"), "utf8");
      const d = compile(text).diagnostics.find((x) => x.code === "C021")!;
      const requests: ProbeRequest[] = [
        { name: "actions", method: "textDocument/codeAction", params: { textDocument: { uri: "" }, range: d.range }, diagnostics: true },
        { name: "lenses", method: "textDocument/codeLens", params: { textDocument: { uri: "" } } },
      ];
      const { answers } = await probeRequests("quickfix", text, requests, { waitDiagnostics: true });
      const actions = answers.get("actions") as { title: string; kind?: string; edit?: unknown }[];
      expect(actions.length).toBeGreaterThan(0);
      expect(actions.some((a) => a.kind === "quickfix" && a.edit !== undefined)).toBe(true);
      // a contract that never compiled: one lens saying so, not one per unit
      const lenses = answers.get("lenses") as { command: { title: string } }[];
      expect(lenses.map((l) => l.command.title)).toEqual(["impact: not known until the contract compiles"]);
    },
    4 * PROBE_WAIT_MS,
  );

  it(
    "formatting, semantic tokens for expressions, and snippets for a client that takes them",
    async () => {
      const tidy = readFileSync(join(REPO, "specs", "market-entry-pack.task.yaml"), "utf8");
      // one line laid out by hand, and an empty key line under `units` for a snippet
      const text = tidy.replace("    timeout: 45m\n", "    timeout:      45m\n").replace("\nimpact:", "\n  \nimpact:");
      const blank = text.indexOf("\n  \nimpact:") + 3;
      const before = text.slice(0, blank);
      const atBlank = { line: before.split("\n").length - 1, character: 2 };
      const requests: ProbeRequest[] = [
        {
          name: "formatting",
          method: "textDocument/formatting",
          params: { textDocument: { uri: "" }, options: { tabSize: 2, insertSpaces: true } },
        },
        { name: "tokens", method: "textDocument/semanticTokens/full", params: { textDocument: { uri: "" } } },
        { name: "snippets", method: "textDocument/completion", params: { textDocument: { uri: "" }, position: atBlank } },
      ];
      const { answers, capabilities } = await probeRequests("editing", text, requests, { snippets: true });
      expect(capabilities["documentFormattingProvider"]).toBeTruthy();
      expect(capabilities["semanticTokensProvider"]).toBeTruthy();
      const edits = answers.get("formatting") as { newText: string }[];
      expect(edits.map((e) => e.newText).join("")).toContain("    timeout: 45m\n");
      // five numbers per token; the market contract's expressions give dozens
      const tokens = (answers.get("tokens") as { data: number[] }).data;
      expect(tokens.length % 5).toBe(0);
      expect(tokens.length / 5).toBeGreaterThan(20);
      const completion = answers.get("snippets") as
        { label: string; insertTextFormat?: number }[] | { items: { label: string; insertTextFormat?: number }[] };
      const unit = (Array.isArray(completion) ? completion : completion.items).find((i) => i.label === "new unit");
      expect(unit?.insertTextFormat).toBe(2);
    },
    4 * PROBE_WAIT_MS,
  );

  it("the README's snippet starts the server for *.task.yaml and *.task.yml buffers only, not for docker-compose.yml", async () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const snippet = /In Neovim[\s\S]*?```lua\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet, "the Neovim snippet in README.md").toBeDefined();
    const sub = join(dir, "snippet");
    mkdirSync(sub, { recursive: true });
    for (const f of ["a.task.yaml", "b.task.yml", "docker-compose.yml"]) writeFileSync(join(sub, f), "x: 1\n");
    // Neovim 0.7 has no vim.lsp.start (0.8+, which the README asks for): record the calls instead of starting a server.
    const probe = `vim.lsp.start = function(config) io.stdout:write("start " .. vim.fn.expand("%:t") .. " " .. table.concat(config.cmd, " ") .. "\\n") end
${snippet}
for _, f in ipairs({ "a.task.yaml", "b.task.yml", "docker-compose.yml" }) do vim.cmd("edit " .. f) end
vim.cmd("qa!")
`;
    writeFileSync(join(sub, "snippet.lua"), probe);
    // 0.7 reads vim.filetype.add only with Lua filetype detection on; 0.8+ has it on by default
    const result = await run(
      "nvim",
      [
        "--headless",
        "-u",
        "NONE",
        "-i",
        "NONE",
        "-n",
        "--cmd",
        "lua vim.g.do_filetype_lua = 1",
        "-c",
        "filetype on",
        "-c",
        "luafile snippet.lua",
      ],
      process.env,
      sub,
    );
    expect(result.stdout.split("\n").filter((l) => l.startsWith("start "))).toEqual([
      "start a.task.yaml npx taskspec lsp --stdio",
      "start b.task.yml npx taskspec lsp --stdio",
    ]);
  });
});
