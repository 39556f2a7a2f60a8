/**
 * Connecting to an MCP server the plan declares, with the official SDK: a
 * stdio server is started with only the environment the contract names
 * (`env`, taken from the given environment) in its folder; a Streamable HTTP
 * server gets its headers, secret values read from the given environment.
 * A variable the contract names but the environment lacks is refused before
 * anything starts, never sent empty. The SDK (and the schema library under
 * it) is loaded on the first connection, not when the runtime is: most
 * worker processes run plans that bind no server.
 */
import { resolve } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { PlanServer } from "@taskspec/compiler";

export class McpConfigError extends Error {
  override name = "McpConfigError";
}

export interface ConnectOptions {
  /** The contract's (or plan's) folder: a stdio server's `cwd` is relative to it. */
  folder: string;
  /** Where `env` names and header variables are read from (the worker's environment). */
  env: Readonly<Record<string, string | undefined>>;
  /** Who asks, as the server sees it in `initialize`. */
  clientName?: string;
}

/** The transport for a server, with what it may be given and nothing else. */
export async function transportFor(server: PlanServer, options: ConnectOptions): Promise<Transport> {
  const need = (name: string, what: string): string => {
    const value = options.env[name];
    if (value === undefined)
      throw new McpConfigError(`MCP server '${server.name}': ${what} names the environment variable ${name}, which is not set`);
    return value;
  };
  if (server.transport === "http") {
    const headers: Record<string, string> = {};
    for (const h of server.headers ?? [])
      headers[h.name] = h.env !== undefined ? `${h.prefix ?? ""}${need(h.env, `header '${h.name}'`)}` : (h.value ?? "");
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    return new StreamableHTTPClientTransport(new URL(server.url!), { requestInit: { headers } });
  }
  const env: Record<string, string> = {};
  for (const name of server.env ?? []) env[name] = need(name, "`env`");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  return new StdioClientTransport({
    command: server.command!,
    args: server.args ?? [],
    env,
    cwd: resolve(options.folder, server.cwd ?? "."),
    stderr: "pipe",
  });
}

/** A connected client; close it when done (a stdio server is stopped with it). */
export async function connectServer(server: PlanServer, options: ConnectOptions): Promise<Client> {
  const transport = await transportFor(server, options);
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client = new Client({ name: options.clientName ?? "taskspec", version: "1" }, { capabilities: {} });
  // a server's log is read and dropped: a full pipe would stall a chatty server mid-call
  if (server.transport !== "http") (transport as { stderr?: NodeJS.ReadableStream | null }).stderr?.on("data", () => undefined);
  await client.connect(transport);
  return client;
}
