/** The contract's `servers` as the plan holds them: sorted by name, headers as a sorted list. */
import type { ServerSpec } from "../schema/contract.js";
import { durationMs } from "./duration.js";
import type { PlanHeader, PlanServer } from "./schema.js";

export function planServers(servers: Record<string, ServerSpec>): PlanServer[] {
  return Object.keys(servers)
    .sort()
    .map((name) => planServer(name, servers[name]!));
}

function planServer(name: string, server: ServerSpec): PlanServer {
  const out: PlanServer = { name, transport: server.url !== undefined ? "http" : "stdio" };
  if (server.command !== undefined) out.command = server.command;
  if (server.args !== undefined) out.args = server.args;
  if (server.env !== undefined) out.env = server.env;
  if (server.cwd !== undefined) out.cwd = server.cwd;
  if (server.url !== undefined) out.url = server.url;
  if (server.timeout !== undefined) out.timeoutMs = durationMs(server.timeout);
  if (server.headers !== undefined)
    out.headers = Object.keys(server.headers)
      .sort()
      .map((header): PlanHeader => {
        const value = server.headers![header]!;
        if (typeof value === "string") return { name: header, value };
        return { name: header, env: value.env, ...(value.prefix !== undefined ? { prefix: value.prefix } : {}) };
      });
  return out;
}
