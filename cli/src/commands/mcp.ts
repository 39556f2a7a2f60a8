/**
 * `taskspec mcp lock <contract>`: starts or connects to each MCP server the
 * contract binds, lists its tools and writes what they declare into the
 * lock beside the contract (`<name>.mcp-lock.json`, to commit with it), then
 * judges the bindings against the new lock as `check` does. Exit 1 when the
 * contract has errors (no lock written) or the bindings do not fit the
 * servers, 2 when a server cannot be reached.
 */
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { checkContract } from "@taskspec/compiler";
import { filesBeside, mcpLockBeside, mcpLockPath } from "@taskspec/compiler/node";
import type { Command } from "commander";
import { compilePlan } from "../io/compile-plan.js";
import { readContractFile } from "../io/read-contracts.js";
import { colorFor, renderText, type ColorWhen } from "../render/diagnostics.js";
import { colorOption } from "./output-options.js";
import { configLookup } from "../io/config.js";
import { UserError } from "../user-error.js";

export function register(program: Command): void {
  const mcp = program.command("mcp").description("MCP servers bound in a contract.");
  mcp
    .command("lock")
    .description("Ask each MCP server the contract binds for its tools and write the lock beside the contract.")
    .argument("<contract>", "contract file")
    .addOption(colorOption())
    .action(async (file: string, options: { color: ColorWhen }) => {
      process.exitCode = await runMcpLock(file, options.color);
    });
}

export async function runMcpLock(file: string, color: ColorWhen = "auto"): Promise<number> {
  const text = readContractFile(file);
  const rules = configLookup()(file).rules;
  // without the lock: the lock is what is being made, a stale one must not stop it
  const { plan, diagnostics } = compilePlan(text, { files: filesBeside(file), rules });
  const render = (d: typeof diagnostics) =>
    process.stderr.write(renderText({ file, text, diagnostics: d }, { color: colorFor(process.stderr, color) }));
  if (!plan) {
    render(diagnostics);
    return 1;
  }
  if (!plan.tools.some((t) => t.mcp))
    throw new UserError(`${file}: binds no tool to an MCP server (\`mcp:\` on a tool); nothing to lock`, 2);
  const { lockServers } = await import("@taskspec/runtime");
  let lock;
  try {
    lock = await lockServers(plan, { folder: dirname(resolve(file)), env: process.env });
  } catch (err) {
    throw new UserError(`${file}: ${(err as Error).message}`, 2);
  }
  const path = mcpLockPath(file);
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  const servers = Object.entries(lock.servers).map(([name, s]) => `${name} (${s.name} ${s.version}, ${Object.keys(s.tools).length} tools)`);
  process.stdout.write(`wrote ${path}: ${servers.join(", ")}\n`);
  const judged = checkContract(text, { files: filesBeside(file), rules, mcp: mcpLockBeside(file) }).diagnostics;
  render(judged);
  return judged.some((d) => d.severity === "error") ? 1 : 0;
}
