/**
 * The few HTTP helpers the local remote services share (node:http, no
 * framework): JSON bodies, JSON replies, a tiny router, and listening on
 * 127.0.0.1 with the chosen port reported back.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type Reply = { status: number; body: unknown; headers?: Record<string, string> };

export interface Request {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body ({} when empty). */
  body: Record<string, unknown>;
  /** Route parameters (`:id`). */
  params: Record<string, string>;
}

export interface Route {
  method: string;
  /** Path pattern such as `/bookings/:id/cancel`. */
  pattern: string;
  /** Writes are the requests the fault knobs and fencing apply to. */
  write: boolean;
  handle(req: Request): Reply;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

export function header(req: Request, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function matchRoute(
  routes: readonly Route[],
  method: string,
  path: string,
): { route: Route; params: Record<string, string> } | undefined {
  const parts = path.split("/").filter(Boolean);
  for (const route of routes) {
    if (route.method !== method) continue;
    const pattern = route.pattern.split("/").filter(Boolean);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = pattern.every((seg, i) => {
      const part = parts[i] as string;
      if (seg.startsWith(":")) {
        params[seg.slice(1)] = decodeURIComponent(part);
        return true;
      }
      return seg === part;
    });
    if (ok) return { route, params };
  }
  return undefined;
}

export async function readBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  const parsed: unknown = JSON.parse(text);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("body must be a JSON object");
  return parsed as Record<string, unknown>;
}

export function send(res: http.ServerResponse, reply: Reply): void {
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...reply.headers });
  res.end(text);
}

export async function listen(server: http.Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

/** A required non-empty string field of the JSON body; a bad one is a 400. */
export function requireString(req: Request, name: string): string {
  const value = req.body[name];
  if (typeof value !== "string" || value === "") throw new Error(`"${name}" must be a non-empty string`);
  return value;
}
