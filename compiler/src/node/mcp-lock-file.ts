/**
 * The MCP lock beside a contract: `blog.task.yaml` -> `blog.mcp-lock.json`
 * in the same folder. Read for `check`, `compile`, `run` and the language
 * server; written by `taskspec mcp lock`.
 */
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { McpLockInput } from "../check/mcp-lock.js";
import { parseMcpLock } from "../plan/mcp-lock.js";

/** Bigger than any real lock: a larger file is refused, not read. */
const MAX_LOCK_BYTES = 16 * 1024 * 1024;

export function mcpLockPath(contractPath: string): string {
  const name = basename(contractPath).replace(/(\.task)?\.ya?ml$/, "");
  return join(dirname(contractPath), `${name}.mcp-lock.json`);
}

/** The lock beside the contract, or why there is none, for `CompileOptions.mcp`. */
export function mcpLockBeside(contractPath: string): McpLockInput {
  const path = mcpLockPath(contractPath);
  const file = basename(path);
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_LOCK_BYTES) return { file, problem: `larger than ${MAX_LOCK_BYTES} bytes` };
    text = bytes.toString("utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { file, problem: code === "ENOENT" ? "missing" : `unreadable (${code ?? "error"})` };
  }
  const read = parseMcpLock(text);
  return "lock" in read ? { file, lock: read.lock } : { file, problem: read.problem };
}
