/**
 * The console's HTTP server: the page (its script and styles inlined, read
 * from the package's `console/` folder, no build at run time), a JSON API over
 * the same runtime functions the CLI prints (`status --format json`, `show`,
 * `events`, `handoff`), server-sent events for the live parts, and decisions
 * as previewed, basis-checked POSTs. Every request passes security.ts first.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomBytes } from "node:crypto";
import { toDot } from "@taskspec/compiler";
import { renderSvg } from "@taskspec/compiler/svg";
import {
  bundleRun,
  handoffMarkdown,
  handoffOf,
  planOfRun,
  NotFoundError,
  OperatorKeyError,
  RUN_STATES,
  runsWindow,
  RuntimeError,
  StalePreviewError,
  unitViewOf,
  type Store,
} from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { statusJson, statusParts } from "../commands/status.js";
import { SVG_LIMITS } from "../commands/graph.js";
import { readableText, withArtifacts } from "../commands/run-support.js";
import { BadDecision, decisionOf, type Acting } from "./decisions.js";
import { checkDecisionPost, checkRequest, selfHosts } from "./security.js";
import { storeNow } from "../commands/store-clock.js";

export interface ConsoleOptions {
  store: Store;
  /** The `--store` given, which also names where artifacts are kept (commands/run-support.ts `withArtifacts`). */
  storeFlag: string | undefined;
  host: string;
  port: number;
  token: string;
  acting: Acting;
  /** How often the live streams look for new events (ms). */
  pollMs?: number;
}

const ASSETS = new URL("../../console/", import.meta.url);
const asset = (name: string) => readFileSync(new URL(name, ASSETS), "utf8");

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export async function startConsole(o: ConsoleOptions): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const page = asset("index.html").replace("/*STYLE*/", asset("app.css"));
  const script = asset("app.js");
  const pollMs = o.pollMs ?? 250;
  const locks = new Map<string, Promise<unknown>>();
  const svgs = new Map<string, Promise<string>>();
  const streams = new Set<ServerResponse>();
  const where = { store: o.store, storeFlag: o.storeFlag };
  let hosts = new Set<string>();

  /** Decisions on one run go one at a time, so two people on this console never both pass the basis check. */
  const serial = <T>(run: string, fn: () => Promise<T>): Promise<T> => {
    const next = (locks.get(run) ?? Promise.resolve()).then(fn, fn);
    locks.set(
      run,
      next.catch(() => undefined),
    );
    return next;
  };

  const routes: Array<[string, RegExp, (m: string[], url: URL, req: IncomingMessage, res: ServerResponse) => Promise<unknown>]> = [
    [
      "GET",
      /^\/$/,
      async (_m, _url, _req, res) => {
        const nonce = randomBytes(16).toString("base64");
        res.writeHead(200, {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
        });
        res.end(page.replace("<!--SCRIPT-->", `<script nonce="${nonce}">${script}</script>`));
      },
    ],
    [
      "GET",
      /^\/api\/runs$/,
      async (_m, url) => {
        const state = url.searchParams.get("state") ?? undefined;
        if (state && !(RUN_STATES as readonly string[]).includes(state))
          throw new HttpError(400, `state must be one of ${RUN_STATES.join(", ")}`);
        return runsWindow(
          o.store,
          {
            ...(state ? { state } : {}),
            ...(url.searchParams.get("search") ? { search: url.searchParams.get("search")! } : {}),
            offset: intParam(url, "offset", 0, 0, Number.MAX_SAFE_INTEGER),
            limit: intParam(url, "limit", 50, 1, 500),
          },
          await storeNow(o.store),
        );
      },
    ],
    ["GET", /^\/api\/runs\/([^/]+)\/status$/, async ([run]) => statusJson(await statusParts(o.store, run!, o.storeFlag))],
    [
      "GET",
      /^\/api\/runs\/([^/]+)\/events$/,
      async ([run], url) => {
        await mustExist(run!);
        // the timeline pages back from the newest with a window the store reads, never the whole log
        if (url.searchParams.get("tail") !== null) {
          const before = url.searchParams.get("before");
          return o.store.eventsWindow(run!, {
            limit: intParam(url, "tail", 200, 1, 2000),
            ...(before !== null ? { beforeSeq: intParam(url, "before", 0, 0, Number.MAX_SAFE_INTEGER) } : {}),
          });
        }
        const after = url.searchParams.get("after");
        const events = await o.store.listEvents(
          run!,
          after !== null ? { afterSeq: intParam(url, "after", 0, 0, Number.MAX_SAFE_INTEGER) } : {},
        );
        return { events: events.slice(0, intParam(url, "limit", 200, 1, 2000)) };
      },
    ],
    [
      "GET",
      /^\/api\/runs\/([^/]+)\/units\/([^/]+)$/,
      async ([run, unit]) => {
        const view = await unitViewOf(o.store, run!, unit!);
        // the unit as the run's plan defines it, beside what ran
        return { ...view, definition: (await planOfRun(o.store, run!)).units.find((u) => u.id === unit) };
      },
    ],
    [
      "GET",
      /^\/api\/runs\/([^/]+)\/graph\.svg$/,
      async ([run], _url, _req, res) => {
        const plan = await planOfRun(o.store, run!);
        if (plan.units.length > SVG_LIMITS.units || plan.edges.length > SVG_LIMITS.edges)
          throw new HttpError(413, `the plan has ${plan.units.length} units and ${plan.edges.length} edges: too large to lay out as SVG`);
        const key = (await o.store.getRun(run!))!.planVersion;
        if (!svgs.has(key)) svgs.set(key, renderSvg(toDot(plan)));
        res.writeHead(200, { "content-type": "image/svg+xml; charset=utf-8" });
        res.end(await svgs.get(key)!);
      },
    ],
    [
      "GET",
      /^\/api\/runs\/([^/]+)\/handoff\.(json|md)$/,
      async ([run, ext], _url, _req, res) => {
        const r = await mustExist(run!);
        const h = await withArtifacts(o.storeFlag, r.origin.artifactRoot, (storage) => handoffOf(o.store, storage, run!));
        res.writeHead(200, {
          "content-type": ext === "json" ? "application/json; charset=utf-8" : "text/markdown; charset=utf-8",
          "content-disposition": `attachment; filename="handoff-${run!.replace(/[^\w.-]/g, "_")}.${ext}"`,
        });
        res.end(ext === "json" ? `${JSON.stringify(h, null, 2)}\n` : handoffMarkdown(h));
      },
    ],
    [
      "GET",
      /^\/api\/runs\/([^/]+)\/bundle\.json$/,
      async ([run], _url, _req, res) => {
        const r = await mustExist(run!);
        const bundle = await withArtifacts(o.storeFlag, r.origin.artifactRoot, (storage) =>
          bundleRun(o.store, storage, run!, { now: new Date().toISOString(), contractText: readableText }),
        );
        res.writeHead(200, {
          "content-type": "application/json; charset=utf-8",
          "content-disposition": `attachment; filename="run-${run!.replace(/[^\w.-]/g, "_")}.bundle.json"`,
        });
        res.end(`${JSON.stringify(bundle)}\n`);
      },
    ],
    ["GET", /^\/api\/runs\/([^/]+)\/stream$/, async ([run], url, req, res) => streamEvents(run!, url, req, res)],
    ["GET", /^\/api\/stream\/runs$/, async (_m, _url, req, res) => streamRuns(req, res)],
    [
      "POST",
      /^\/api\/runs\/([^/]+)\/preview$/,
      async ([run], _url, req) => {
        const body = await jsonBody(req);
        const { decision, args } = decisionOf(body.action, body.args);
        return decision.preview(o.store, run!, args, await storeNow(o.store), where);
      },
    ],
    [
      "POST",
      /^\/api\/runs\/([^/]+)\/decide$/,
      async ([run], _url, req) => {
        const body = await jsonBody(req);
        const { decision, args } = decisionOf(body.action, body.args);
        if (typeof body.basis !== "string") throw new BadDecision(`"basis" is required: decide on the preview you saw`);
        // only what the diff reads is taken from the client; the basis alone decides
        const seen = isPreview(body.seen)
          ? { action: body.seen.action, reuse: body.seen.reuse, invalidate: body.seen.invalidate, notes: body.seen.notes }
          : undefined;
        return serial(run!, async () => {
          const now = await storeNow(o.store);
          try {
            const done = await decision.decide(
              o.store,
              run!,
              args,
              o.acting,
              now,
              { basis: body.basis as string, ...(seen ? { seen } : {}) },
              where,
            );
            return { decided: body.action, result: done };
          } catch (err) {
            if (err instanceof StalePreviewError) {
              const fresh = await decision.preview(o.store, run!, args, now, where).catch(() => undefined);
              throw new HttpError(409, err.message, { changed: err.changed, ...(fresh ? { fresh } : {}) });
            }
            throw err;
          }
        });
      },
    ],
  ];

  async function mustExist(run: string) {
    const r = await o.store.getRun(run);
    if (!r) throw new NotFoundError(`no run ${run} in this store`);
    return r;
  }

  async function streamEvents(run: string, url: URL, req: IncomingMessage, res: ServerResponse) {
    await mustExist(run);
    let after = intParam(url, "after", 0, 0, Number.MAX_SAFE_INTEGER);
    const headerAfter = Number(req.headers["last-event-id"]);
    if (Number.isSafeInteger(headerAfter) && headerAfter > after) after = headerAfter;
    openStream(res);
    let busy = false;
    const tick = async () => {
      if (busy) return;
      busy = true;
      try {
        const events = await o.store.listEvents(run, { afterSeq: after });
        for (const e of events) {
          after = Math.max(after, e.seq ?? after);
          res.write(`id: ${e.seq}\nevent: run-event\ndata: ${JSON.stringify(e)}\n\n`);
        }
      } catch (err) {
        res.write(`event: problem\ndata: ${JSON.stringify({ error: (err as Error).message })}\n\n`);
      } finally {
        busy = false;
      }
    };
    await tick();
    keepPolling(req, res, tick);
  }

  async function streamRuns(req: IncomingMessage, res: ServerResponse) {
    openStream(res);
    let last = "";
    const tick = async () => {
      const runs = await o.store.listRuns();
      const stamp = `${runs.length}:${runs.reduce((m, r) => (r.updatedAt > m ? r.updatedAt : m), "")}`;
      if (stamp !== last) res.write(`event: runs-changed\ndata: ${JSON.stringify({ runs: runs.length })}\n\n`);
      last = stamp;
    };
    await tick();
    keepPolling(req, res, tick, 1000);
  }

  function openStream(res: ServerResponse) {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
    res.write(": taskspec console stream\n\n");
    streams.add(res);
  }

  function keepPolling(req: IncomingMessage, res: ServerResponse, tick: () => Promise<void>, ms = pollMs) {
    const timer = setInterval(() => void tick().catch(() => undefined), ms);
    const beat = setInterval(() => res.write(": keep-alive\n\n"), 15_000);
    const stop = () => {
      clearInterval(timer);
      clearInterval(beat);
      streams.delete(res);
    };
    req.on("close", stop);
    res.on("close", stop);
  }

  const server = createServer((req, res) => {
    void handle(req, res);
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    res.setHeader("cache-control", "no-store");
    res.setHeader("referrer-policy", "no-referrer");
    res.setHeader("x-content-type-options", "nosniff");
    res.setHeader("x-frame-options", "DENY");
    const url = new URL(req.url ?? "/", "http://console.invalid");
    try {
      const access = checkRequest({ url, headers: req.headers }, o.token, hosts);
      if (!access.ok) throw new HttpError(access.status, access.why);
      if (req.method === "POST") {
        const post = checkDecisionPost(req.headers, hosts);
        if (!post.ok) throw new HttpError(post.status, post.why);
      }
      const path = url.pathname;
      for (const [method, pattern, fn] of routes) {
        const m = pattern.exec(path);
        if (!m) continue;
        if (req.method !== method) throw new HttpError(405, `${req.method} is not allowed on ${path}`);
        const out = await fn(m.slice(1).map(decodeURIComponent), url, req, res);
        if (out !== undefined && !res.headersSent) sendJson(res, 200, out);
        return;
      }
      throw new HttpError(404, `no such page: ${path}`);
    } catch (err) {
      if (res.headersSent) return void res.end();
      const [status, body] = errorOf(err);
      sendJson(res, status, body);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  hosts = selfHosts(o.host, port);
  const shown = o.host.includes(":") ? `[${o.host}]` : o.host;
  return {
    server,
    url: `http://${shown}:${port}/?token=${o.token}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of streams) s.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function errorOf(err: unknown): [number, Record<string, unknown>] {
  if (err instanceof HttpError) return [err.status, { error: err.message, ...err.body }];
  if (err instanceof BadDecision) return [400, { error: `malformed decision: ${err.message}; nothing was changed` }];
  if (err instanceof NotFoundError) return [404, { error: err.message }];
  if (err instanceof UserError) return [err.exitCode === 2 ? 404 : 409, { error: err.message }];
  if (err instanceof OperatorKeyError) return [403, { error: err.message }];
  if (err instanceof RuntimeError) return [409, { error: err.message }];
  return [500, { error: `internal error: ${err instanceof Error ? err.message : String(err)}` }];
}

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(body));
}

function intParam(url: URL, name: string, dflt: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === "") return dflt;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new HttpError(400, `${name} must be a whole number from ${min} to ${max}`);
  return n;
}

const MAX_BODY = 64 * 1024;

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError(413, `a decision body is at most ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new BadDecision("the body is not JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new BadDecision("the body must be a JSON object");
  return body as Record<string, unknown>;
}

function isPreview(v: unknown): v is import("@taskspec/runtime").operator.Preview {
  if (typeof v !== "object" || v === null) return false;
  const p = v as Record<string, unknown>;
  return (
    typeof p.action === "string" &&
    Array.isArray(p.reuse) &&
    p.reuse.every((x) => typeof x === "string") &&
    Array.isArray(p.invalidate) &&
    p.invalidate.every((i) => typeof i === "object" && i !== null && typeof (i as { unit?: unknown }).unit === "string") &&
    Array.isArray(p.notes) &&
    p.notes.every((x) => typeof x === "string")
  );
}
