/**
 * The same server driven by an editor nobody here wrote: headless Neovim 0.7
 * (Debian's `neovim`), which uses incremental sync and answers
 * workspace/configuration. A Lua probe starts `taskspec lsp --stdio`, opens a
 * contract with an unknown reference, reads vim.diagnostic.get (with codes),
 * asks for hover and completion, fixes the typo with an in-buffer edit and
 * waits for the diagnostic to go away. The probe exits non-zero on failure.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "@taskspec/compiler";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, positionOf } from "../lsp/test/helpers.js";

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

function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
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

describe("Neovim 0.7 as the client", () => {
  it("shows the compiler's diagnostics with codes, hovers, completes and clears after an incremental fix", async () => {
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
    const expected = compile(text).diagnostics.map((d) => `diagnostic ${d.code} ${d.range.start.line + 1}:${d.range.start.character + 1} ${d.message.replace(/\n/g, " ")}`);
    expect(expected.map((l) => l.split(" ")[1])).toEqual(["C010"]);
    expect(shown).toEqual(expected);
    const lines = result.stdout.split("\n");
    expect(lines.find((l) => l.startsWith("hover "))).toContain("not declared");
    expect(lines.find((l) => l.startsWith("completion "))).toBe("completion draft");
    expect(lines).toContain("cleared");
  }, 4 * PROBE_WAIT_MS);
});
