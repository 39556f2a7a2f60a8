/**
 * What the MCP lock beside a document says, for completion and hover: the
 * tools of a server the contract declares, a bound tool's arguments, and the
 * words a person needs on hovering a binding (description, annotations).
 * The lock comes with the analysis (read by the adapter that read it for the
 * diagnostics); the binding comes from the syntax tree, so answers work while
 * the contract does not compile.
 */
import type { LockedTool, McpLock, Span } from "@taskspec/compiler";
import { isMap, isScalar, type Node } from "yaml";
import type { Analysis } from "./analysis.js";

const nodeAt = (analysis: Analysis, path: string[]): unknown => analysis.parsed.doc?.getIn(path, true);

const scalarAt = (analysis: Analysis, path: string[]): string | undefined => {
  const node = nodeAt(analysis, path);
  return isScalar(node) && typeof node.value === "string" ? node.value : undefined;
};

/** The servers the contract declares under `servers`, by name. */
export function declaredServers(analysis: Analysis): string[] {
  const node = nodeAt(analysis, ["servers"]);
  if (!isMap(node)) return [];
  return node.items.flatMap((p) => (isScalar(p.key) ? [String(p.key.value)] : []));
}

/** The tools the lock lists for `server`, by name. */
export function lockedTools(analysis: Analysis, server: string | undefined): Record<string, LockedTool> {
  if (server === undefined) return {};
  return analysis.mcpLock?.()?.servers[server]?.tools ?? {};
}

/** The locked definition of the server tool the contract's tool `name` is bound to. */
export function boundTool(analysis: Analysis, name: string): { server: string; tool: string; locked?: LockedTool } | undefined {
  const server = scalarAt(analysis, ["tools", name, "mcp", "server"]);
  const tool = scalarAt(analysis, ["tools", name, "mcp", "tool"]);
  if (server === undefined || tool === undefined) return undefined;
  const locked = lockedTools(analysis, server)[tool];
  return locked ? { server, tool, locked } : { server, tool };
}

/** A locked tool's arguments: name -> its schema (an object), from the input schema's `properties`. */
export function argumentsOf(tool: LockedTool): Record<string, Record<string, unknown>> {
  const props = tool.inputSchema.properties;
  if (typeof props !== "object" || props === null || Array.isArray(props)) return {};
  const out: Record<string, Record<string, unknown>> = {};
  for (const [k, v] of Object.entries(props as Record<string, unknown>))
    out[k] = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  return out;
}

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** Markdown for a locked tool: description, annotations as the server gave them, arguments (required marked). */
export function describeLocked(server: string, name: string, tool: LockedTool, lock: McpLock | undefined): string {
  const info = lock?.servers[server];
  const out = [`**MCP tool ${name}** of server \`${server}\`${info ? ` (${info.name} ${info.version})` : ""}`, ""];
  if (tool.description) out.push(tool.description, "");
  const a = tool.annotations ?? {};
  const given = HINTS.filter((h) => typeof a[h] === "boolean").map((h) => `\`${h}: ${String(a[h])}\``);
  out.push(`- annotations: ${given.length ? given.join(", ") : "none given"}`);
  const required = new Set(Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : []);
  const args = Object.entries(argumentsOf(tool)).map(
    ([k, s]) => `${k}${required.has(k) ? " (required)" : ""}${typeof s.type === "string" ? `: ${s.type}` : ""}`,
  );
  out.push(`- arguments: ${args.length ? args.join(", ") : "none"}`);
  out.push(`- output schema: ${tool.outputSchema ? "declared" : "none"}`, "", "_from the MCP lock beside the contract_");
  return out.join("\n");
}

/** The contract tool whose `mcp.tool` value is under `offset`, with the value's span. */
export function bindingAt(analysis: Analysis, offset: number): { name: string; span: Span } | undefined {
  for (const name of analysis.parsed.model.tools.keys()) {
    const node = nodeAt(analysis, ["tools", name, "mcp", "tool"]) as Node | undefined;
    const range = isScalar(node) ? node.range : undefined;
    if (range && range[0] <= offset && offset <= range[1]) return { name, span: { start: range[0], end: range[1] } };
  }
  return undefined;
}
