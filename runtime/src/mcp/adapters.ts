/**
 * Tool adapters for the tools a plan binds to MCP servers, called by the
 * worker through the ledger like any adapter of a tools module (so every
 * call is an effect with its key and request digest, approvals bind it,
 * secret arguments are masked). Per call:
 * 1. the server's connection is made on first use and made again after it
 *    closed (a crashed stdio server is restarted for the next call);
 * 2. the server's current definition of the tool, listed again before
 *    every call (a server may change a tool between two calls of one
 *    connection, and need not announce it), is compared with the one the
 *    plan was compiled with (its lock digest): a changed input schema,
 *    output schema or annotations refuses the call before anything is sent
 *    (`failed`, with the reason);
 * 3. the rendered key is passed in `keyArg`; a lookup is asked with the key
 *    there and answers null when the server finds nothing;
 * 4. the call runs under the attempt's signal and the server's `timeout`:
 *    an abort or the timeout sends MCP's cancellation notification (the SDK
 *    does, for a request given a signal or a timeout); a timeout, a lost
 *    connection or a crashed server throws, which the ledger records
 *    UNKNOWN and recovery resolves by lookup;
 * 5. the answer is refused past a size bound, when the server marks it an
 *    error, or when it does not match the tool's output schema or the
 *    contract's `result:` (the difference named): the effect stays in the
 *    ledger for reconciliation, no receipt is stored.
 * Requests the runtime does not serve (sampling, elicitation, roots) are
 * answered with an error by the SDK client, which declares no capability
 * and registers no handler for them.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Plan, PlanServer, PlanTool } from "@taskspec/compiler";
import { ToolError, type ToolAdapter } from "../handler-api.js";
import { connectServer, type ConnectOptions } from "./connect.js";
import { lockedTool } from "./lock.js";

/** Largest answer accepted from a server, as JSON text. */
export const MAX_MCP_RESULT_BYTES = 1024 * 1024;

export interface McpAdapters {
  /** An adapter per bound tool of the plan, by the contract's tool name. */
  tools: Record<string, ToolAdapter>;
  /** Closes every connection (a stdio server is stopped with it). */
  close: () => Promise<void>;
}

export interface McpAdapterOptions extends ConnectOptions {
  /** Per-request limit (ms) for a server whose contract entry gives none (the SDK's 60 s by default); the attempt's own timeout aborts a call sooner. */
  timeoutMs?: number;
  maxResultBytes?: number;
}

interface Connection {
  client: Client;
}

export function mcpAdapters(plan: Pick<Plan, "servers" | "tools">, options: McpAdapterOptions): McpAdapters {
  const servers = new Map((plan.servers ?? []).map((s) => [s.name, s]));
  const open = new Map<string, Promise<Connection>>();
  const connection = (server: PlanServer): Promise<Connection> => {
    let made = open.get(server.name);
    if (!made) {
      made = connectServer(server, options).then((client) => {
        const conn: Connection = { client };
        // a closed connection (the server died, the network dropped) is made again for the next call
        client.onclose = () => {
          if (open.get(server.name) === made) open.delete(server.name);
        };
        return conn;
      });
      made.catch(() => open.delete(server.name));
      open.set(server.name, made);
    }
    return made;
  };
  const tools: Record<string, ToolAdapter> = {};
  for (const tool of plan.tools) {
    if (!tool.mcp) continue;
    const server = servers.get(tool.mcp.server);
    if (!server) continue;
    const isLookup = plan.tools.some((t) => t.lookup === tool.name);
    tools[tool.name] = { call: (args, meta) => callBound(tool, isLookup, server, connection, args, meta, options) };
  }
  return {
    tools,
    close: async () => {
      const all = [...open.values()];
      open.clear();
      await Promise.all(all.map(async (c) => (await c.catch(() => undefined))?.client.close()));
    },
  };
}

async function callBound(
  tool: PlanTool,
  isLookup: boolean,
  server: PlanServer,
  connection: (server: PlanServer) => Promise<Connection>,
  args: Record<string, unknown>,
  meta: { key?: string; signal: AbortSignal },
  options: McpAdapterOptions,
): Promise<unknown> {
  const mcp = tool.mcp!;
  const conn = await connection(server);
  const live = await definitionsOf(conn);
  const digest = live.get(mcp.tool);
  if (digest === undefined)
    throw new ToolError(
      `MCP server '${server.name}' no longer has tool '${mcp.tool}' (bound by '${tool.name}'); refused, nothing was sent`,
      "failed",
    );
  if (mcp.locked && digest !== mcp.locked.digest)
    throw new ToolError(
      `MCP server '${server.name}' changed tool '${mcp.tool}' since the lock (its input schema, output schema or annotations differ: ${digest.slice(0, 12)}, locked ${mcp.locked.digest.slice(0, 12)}); refused, nothing was sent: run \`taskspec mcp lock\` and check the contract again`,
      "failed",
    );
  const sent: Record<string, unknown> = { ...args };
  if (mcp.keyArg !== undefined) {
    // a lookup is called with { key }: the server takes it in its own argument
    const key = isLookup && "key" in args ? args.key : meta.key;
    if (isLookup && mcp.keyArg !== "key") delete sent.key;
    if (key !== undefined) sent[mcp.keyArg] = key;
  }
  const timeout = server.timeoutMs ?? options.timeoutMs;
  const answer = await conn.client.callTool({ name: mcp.tool, arguments: sent }, undefined, {
    signal: meta.signal,
    ...(timeout !== undefined ? { timeout } : {}),
  });
  const size = JSON.stringify(answer).length;
  const max = options.maxResultBytes ?? MAX_MCP_RESULT_BYTES;
  if (size > max) throw new Error(`MCP tool '${mcp.tool}' answered ${size} bytes, past the bound of ${max}; not stored`);
  if (answer.isError === true) throw new Error(`MCP tool '${mcp.tool}' answered an error: ${textOf(answer.content).slice(0, 200)}`);
  const value = valueOf(answer as { structuredContent?: unknown; content?: unknown });
  if (value === null) return null;
  const mismatch = resultMismatch(tool, value);
  if (mismatch) throw new Error(`MCP tool '${mcp.tool}' answered a result that ${mismatch}; not stored`);
  return value;
}

/** The server's tool definitions' digests as it declares them now: asked per call, never kept. */
async function definitionsOf(conn: Connection): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const listed = await conn.client.listTools(cursor === undefined ? {} : { cursor });
    for (const t of listed.tools) out.set(t.name, lockedTool(t).digest);
    cursor = listed.nextCursor;
    if (cursor === undefined) break;
  }
  return out;
}

const textOf = (content: unknown): string =>
  Array.isArray(content) ? content.map((c: { type?: string; text?: string }) => (c.type === "text" ? (c.text ?? "") : "")).join("") : "";

/** The answer's value: its structured content, else its text parsed as JSON (null: nothing found), else the text. */
function valueOf(answer: { structuredContent?: unknown; content?: unknown }): unknown {
  if (answer.structuredContent !== undefined) return answer.structuredContent;
  const text = textOf(answer.content);
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

const JSON_TYPE: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number",
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === "boolean",
  array: (v) => Array.isArray(v),
  object: (v) => typeof v === "object" && v !== null && !Array.isArray(v),
  list: (v) => Array.isArray(v),
  any: () => true,
};

/** How a result differs from the tool's locked output schema and the contract's `result:`, or undefined. */
export function resultMismatch(tool: PlanTool, value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return tool.result || tool.mcp?.locked?.output ? "is not an object" : undefined;
  const record = value as Record<string, unknown>;
  for (const [source, fields] of [
    ["the output schema", tool.mcp?.locked?.output],
    ["the contract's result", tool.result],
  ] as const) {
    for (const [field, type] of Object.entries(fields ?? {})) {
      if (!(field in record)) {
        if (source === "the output schema") continue; // the schema's own `required` says what must be there
        return `lacks '${field}' (${source} declares it)`;
      }
      if (!(JSON_TYPE[type] ?? JSON_TYPE.any!)(record[field])) return `has '${field}' of another type than ${source} says (${type})`;
    }
  }
  return undefined;
}
