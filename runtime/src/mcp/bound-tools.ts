/**
 * The worker's tools for a plan: the tools module's adapters joined with an
 * adapter per tool the plan binds to an MCP server (adapters.ts). The worker
 * calls them through the ledger like any adapter; a handler's `ctx.tool`
 * reaches them the same way, from its own process, so no handler code ever
 * holds a connection to a server. A tools module that also defines a bound
 * tool is refused: two adapters for one tool would make which one ran a
 * matter of spread order.
 */
import type { Plan } from "@taskspec/compiler";
import type { ToolAdapter } from "../handler-api.js";
import { mcpAdapters, type McpAdapterOptions } from "./adapters.js";
import { McpConfigError } from "./connect.js";

export interface BoundTools {
  tools: Record<string, ToolAdapter>;
  /** Stops every server this worker started and closes every connection (none is made before a call needs it). */
  close: () => Promise<void>;
}

export function joinBoundTools(
  plan: Pick<Plan, "servers" | "tools">,
  own: Readonly<Record<string, ToolAdapter>>,
  options: McpAdapterOptions,
): BoundTools {
  const bound = plan.tools.filter((t) => t.mcp);
  if (bound.length === 0) return { tools: { ...own }, close: async () => undefined };
  const twice = bound.filter((t) => Object.hasOwn(own, t.name)).map((t) => `'${t.name}' (bound to ${t.mcp!.server}/${t.mcp!.tool})`);
  if (twice.length > 0)
    throw new McpConfigError(
      `the tools module defines ${twice.join(", ")}, which the contract binds to an MCP server; the runtime calls bound tools itself: remove them from the tools module`,
    );
  const mcp = mcpAdapters(plan, options);
  return { tools: { ...own, ...mcp.tools }, close: () => mcp.close() };
}
