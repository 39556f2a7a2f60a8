/**
 * `taskspec mcp lock`: asks each server a plan binds for its tools and
 * writes what they declare (plan/mcp-lock.ts in the compiler is the format):
 * every tool of every bound server, not only the bound ones, so a binding
 * changed later to another tool of the server is judged without a new lock.
 */
import {
  bindingsDigest,
  hashOf,
  MCP_LOCK_FORMAT,
  toolDefinitionDigest,
  type LockedServer,
  type LockedTool,
  type McpLock,
  type Plan,
  type ToolAnnotations,
} from "@taskspec/compiler";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectServer, type ConnectOptions } from "./connect.js";

/** At most this many pages of `tools/list`: a server that never stops paging is refused. */
const MAX_PAGES = 100;

export async function lockServers(plan: Pick<Plan, "servers" | "tools">, options: ConnectOptions): Promise<McpLock> {
  const servers = plan.servers ?? [];
  const bound = new Set(plan.tools.flatMap((t) => (t.mcp ? [t.mcp.server] : [])));
  const out: Record<string, LockedServer> = {};
  for (const server of servers) {
    if (!bound.has(server.name)) continue;
    const client = await connectServer(server, options);
    try {
      out[server.name] = await describeServer(client);
    } finally {
      await client.close();
    }
  }
  return { format: MCP_LOCK_FORMAT, bindings: bindingsDigest(servers, plan.tools), servers: out };
}

export async function describeServer(client: Client): Promise<LockedServer> {
  const info = client.getServerVersion();
  const tools: Record<string, LockedTool> = {};
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await client.listTools(cursor === undefined ? {} : { cursor });
    for (const tool of answer.tools) tools[tool.name] = lockedTool(tool);
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
    if (page === MAX_PAGES - 1) throw new Error(`tools/list still paging after ${MAX_PAGES} pages`);
  }
  const sorted = Object.fromEntries(
    Object.keys(tools)
      .sort()
      .map((n) => [n, tools[n]!]),
  );
  return { name: info?.name ?? "", version: info?.version ?? "", tools: sorted, digest: hashOf(sorted) };
}

/** What the lock keeps of a tool as `tools/list` answers it. */
export function lockedTool(tool: {
  description?: string | undefined;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown> | undefined;
  annotations?: ToolAnnotations | undefined;
}): LockedTool {
  const def: Omit<LockedTool, "digest"> = { inputSchema: tool.inputSchema };
  if (tool.description !== undefined) def.description = tool.description;
  if (tool.outputSchema !== undefined) def.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) def.annotations = tool.annotations;
  return { ...def, digest: toolDefinitionDigest(def) };
}
