/**
 * The file probe for a document (C013): a `file:` document's references are
 * resolved against its folder on disk; an unsaved (`untitled:`) buffer has no
 * folder, so its references are not checked. Likewise the MCP lock beside a
 * `file:` document (C103 to C107), read afresh on each analysis of a contract
 * with bindings, so a new lock shows at the next keystroke.
 */
import type { FileProbe, McpLockInput } from "@taskspec/compiler";
import { filesBeside, mcpLockBeside } from "@taskspec/compiler/node";
import { uriToPath } from "./workspace.js";

export function filesOf(uri: string): FileProbe | undefined {
  return uri.startsWith("file:") ? filesBeside(uriToPath(uri)) : undefined;
}

export function mcpLockOf(uri: string): (() => McpLockInput) | undefined {
  return uri.startsWith("file:") ? () => mcpLockBeside(uriToPath(uri)) : undefined;
}
