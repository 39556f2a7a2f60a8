/**
 * The MCP lock: what the servers a contract binds declared when
 * `taskspec mcp lock` last asked them (each server's name and version, its
 * tools' input and output schemas and annotations, digests), written beside
 * the contract and committed with it, so `taskspec check` judges bindings
 * offline. `bindings` is the digest of the contract's servers and bindings
 * the lock was made for: when they change, the lock is stale (C107).
 *
 * The plan keeps of a locked tool only what the checks and the runtime need
 * (PlanLocked): the digest of its definition (the runtime compares the
 * server's live definition with it before calling), its annotations, its
 * argument names and its output fields.
 */
import { hashOf } from "./canonical.js";
import type { PlanLocked, PlanServer } from "./schema.js";

export const MCP_LOCK_FORMAT = 1 as const;

/** MCP's behaviour hints on a tool (`ToolAnnotations`); absent means the server said nothing. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface LockedTool {
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** toolDefinitionDigest of the three above. */
  digest: string;
}

export interface LockedServer {
  /** The server's own name and version (`serverInfo` of its initialize answer). */
  name: string;
  version: string;
  tools: Record<string, LockedTool>;
  /** sha256 of the canonical JSON of `tools`. */
  digest: string;
}

export interface McpLock {
  format: typeof MCP_LOCK_FORMAT;
  /** bindingsDigest of the contract the lock was made for. */
  bindings: string;
  servers: Record<string, LockedServer>;
}

/** What a lock says of one bound tool's definition, hashed: a change of its schemas or annotations changes it. */
export function toolDefinitionDigest(tool: Pick<LockedTool, "inputSchema" | "outputSchema" | "annotations">): string {
  return hashOf({ inputSchema: tool.inputSchema, outputSchema: tool.outputSchema ?? null, annotations: tool.annotations ?? null });
}

/**
 * The declarations of the servers a lock answers for (those some tool is bound to), as the plan holds
 * them: a change of one (another command, URL, argument) makes the lock stale. Which tool of a server a
 * binding names is not in it: the lock lists every tool of each server, so a binding moved to another
 * tool is judged against the same lock.
 */
export function bindingsDigest(
  servers: readonly PlanServer[],
  tools: readonly { name: string; mcp?: { server: string } | undefined }[],
): string {
  const bound = new Set(tools.flatMap((t) => (t.mcp ? [t.mcp.server] : [])));
  // a request timeout changes nothing a server declares: changing it leaves the lock current
  return hashOf(
    servers
      .filter((s) => bound.has(s.name))
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map(({ timeoutMs: _timeout, ...declared }) => declared),
  );
}

/** What the plan keeps of a locked tool. */
export function lockedSummary(tool: LockedTool): PlanLocked {
  const out: PlanLocked = { digest: tool.digest };
  const a = tool.annotations ?? {};
  for (const hint of ["readOnlyHint", "destructiveHint", "idempotentHint"] as const) if (typeof a[hint] === "boolean") out[hint] = a[hint];
  const args = propertiesOf(tool.inputSchema);
  if (args) out.args = Object.fromEntries(Object.entries(args).map(([name, s]) => [name, jsonType(s)]));
  const fields = tool.outputSchema ? propertiesOf(tool.outputSchema) : undefined;
  if (fields) out.output = Object.fromEntries(Object.entries(fields).map(([name, s]) => [name, jsonType(s)]));
  return out;
}

function propertiesOf(schema: Record<string, unknown>): Record<string, unknown> | undefined {
  const p = schema.properties;
  return p && typeof p === "object" && !Array.isArray(p) ? (p as Record<string, unknown>) : undefined;
}

/** A property schema's JSON type, or `any` when it names none or several. */
function jsonType(schema: unknown): string {
  const t = schema && typeof schema === "object" ? (schema as { type?: unknown }).type : undefined;
  return typeof t === "string" ? t : "any";
}

/** A lock file's text read back: the lock, or what is wrong with it (the caller reports it as C107). */
export function parseMcpLock(text: string): { lock: McpLock } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { problem: `not JSON: ${(err as Error).message}` };
  }
  const v = value as Partial<McpLock> | null;
  if (!v || typeof v !== "object" || v.format !== MCP_LOCK_FORMAT) return { problem: `not an MCP lock of format ${MCP_LOCK_FORMAT}` };
  if (typeof v.bindings !== "string" || !v.servers || typeof v.servers !== "object")
    return { problem: "no `bindings` digest or `servers`" };
  for (const [name, server] of Object.entries(v.servers)) {
    if (!server || typeof server !== "object" || !server.tools || typeof server.tools !== "object")
      return { problem: `server '${name}' has no \`tools\`` };
    for (const [tool, def] of Object.entries(server.tools)) {
      if (!def || typeof def !== "object" || !def.inputSchema || typeof def.inputSchema !== "object")
        return { problem: `tool '${tool}' of server '${name}' has no \`inputSchema\`` };
      if (def.digest !== toolDefinitionDigest(def))
        return { problem: `tool '${tool}' of server '${name}' does not hash to its digest (edited by hand?)` };
    }
  }
  return { lock: v as McpLock };
}
