/**
 * Who may talk to the console, as pure checks over a request's parts. A local
 * web server is reachable by every page the person's browser opens, so:
 * every request carries the access token (header, or `?token=` for the page
 * and the live stream, which cannot set headers); the Host header must name
 * this server (a DNS-rebinding page names its own host); a decision is a POST
 * of JSON whose Origin is this server's, so no cross-site form or fetch makes
 * one; a non-loopback address needs a token the person chose and keeps.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";

export const TOKEN_HEADER = "x-taskspec-token";

export function newToken(): string {
  return randomBytes(24).toString("base64url");
}

export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

export type Headers = Record<string, string | string[] | undefined>;
const one = (h: string | string[] | undefined) => (Array.isArray(h) ? h[0] : h);

/** The token a request carries: its header, else its `token` query parameter. */
export function tokenOf(url: URL, headers: Headers): string | undefined {
  return one(headers[TOKEN_HEADER]) ?? url.searchParams.get("token") ?? undefined;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);
export const isLoopback = (host: string) => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The `host:port` names this server answers to. */
export function selfHosts(host: string, port: number): Set<string> {
  const names = isLoopback(host) ? ["127.0.0.1", "localhost", "[::1]"] : [host.includes(":") ? `[${host}]` : host];
  return new Set(names.map((n) => `${n}:${port}`));
}

export type Verdict = { ok: true } | { ok: false; status: 400 | 401 | 403 | 415; why: string };

/** Every request: a Host this server is, and the token. */
export function checkRequest(req: { url: URL; headers: Headers }, token: string, hosts: ReadonlySet<string>): Verdict {
  const host = one(req.headers.host);
  if (!host || !hosts.has(host.toLowerCase()))
    return { ok: false, status: 403, why: `the Host header ${JSON.stringify(host ?? "")} is not this console's` };
  if (!tokenMatches(token, tokenOf(req.url, req.headers)))
    return { ok: false, status: 401, why: "a missing or wrong access token: open the URL `taskspec ui` printed (it has ?token=...)" };
  return { ok: true };
}

/** A decision: a JSON POST from this console's own page, never from another site. */
export function checkDecisionPost(headers: Headers, hosts: ReadonlySet<string>): Verdict {
  const origin = one(headers.origin);
  if (!origin) return { ok: false, status: 403, why: "a decision needs an Origin header (browsers send one with every POST)" };
  let originHost: string;
  try {
    const u = new URL(origin);
    originHost = u.protocol === "http:" ? u.host : "";
  } catch {
    originHost = "";
  }
  if (!hosts.has(originHost)) return { ok: false, status: 403, why: `cross-site decision refused: origin ${origin} is not this console` };
  const site = one(headers["sec-fetch-site"]);
  if (site !== undefined && site !== "same-origin")
    return { ok: false, status: 403, why: `cross-site decision refused (Sec-Fetch-Site: ${site})` };
  const type = one(headers["content-type"]) ?? "";
  if (!/^application\/json\b/.test(type))
    return { ok: false, status: 415, why: "a decision is a JSON body (Content-Type: application/json)" };
  return { ok: true };
}

/** Why `--host` cannot be served as given (undefined: it can). */
export function hostRefusal(host: string, tokenFile: string | undefined): string | undefined {
  if (isLoopback(host) || tokenFile !== undefined) return undefined;
  return `--host ${host} is not a loopback address: anyone who reaches it could act on your runs; give --token-file FILE (a token you keep), or serve 127.0.0.1 and tunnel to it`;
}
