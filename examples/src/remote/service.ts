/**
 * One local remote service: routes of a concrete service (blog, booking,
 * mail) wrapped with what every remote here shares — fault knobs, fencing by
 * `X-Fencing-Token`, per-key call counting, `GET /stats`, the admin endpoint,
 * and running as its own process (`--port 0 --data DIR` prints the chosen
 * port as one JSON line on stdout).
 */
import fs from "node:fs";
import http from "node:http";
import { pathToFileURL } from "node:url";
import { NO_FAULTS, parseFaults, takeShot, type Faults } from "./faults.js";
import { header, json, listen, matchRoute, readBody, send, type Reply, type Request, type Route } from "./http-kit.js";
import { ServiceState } from "./service-state.js";

export interface ServiceOptions {
  /** Directory of the service's own storage; created when missing. */
  dataDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  faults?: Partial<Faults>;
}

export interface RunningService {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export interface ServiceDefinition {
  name: string;
  routes(state: ServiceState): Route[];
  /** The resource a fenced write targets (the idempotency key, a booking id, ...). */
  fenceResource(req: Request): string;
  /**
   * The resource a lookup reads (the key of `?key=K`), when the route is one.
   * A lookup carrying `X-Fencing-Token` raises that resource's fence like a
   * write does: a worker that took over reconciles with its newer token, and
   * the old worker's request, landing after the lookup, is refused (409).
   */
  lookupResource?(req: Request): string | undefined;
}

/** How long an idle connection stays open: a drill case's bound (runtime/src/drill, DEFAULT_CASE_TIMEOUT_MS). */
const IDLE_CONNECTION_MS = 10 * 60_000;

export async function startService(definition: ServiceDefinition, options: ServiceOptions): Promise<RunningService> {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const state = new ServiceState(options.dataDir);
  const routes = definition.routes(state);
  const faults: Faults = { ...NO_FAULTS, ...options.faults };

  const admin: Route[] = [
    { method: "GET", pattern: "/stats", write: false, handle: () => json(200, { service: definition.name, ...state.snapshot() }) },
    { method: "GET", pattern: "/_admin/faults", write: false, handle: () => json(200, faults) },
    {
      method: "POST",
      pattern: "/_admin/faults",
      write: false,
      handle: (req) => {
        Object.assign(faults, parseFaults(req.body));
        return json(200, faults);
      },
    },
  ];

  const server = http.createServer((incoming, res) => {
    void serve(incoming, res);
  });
  // A worker stopped in the middle of a call (a drill's SIGSTOP past its lease) wakes and sends its request on
  // the connection it kept. Node closes an idle connection after 5 s, which a stop under load outlasts: the late
  // request then fails at the socket and never reaches the fencing check it is meant to meet. Idle connections
  // stay open as long as a drill case may run.
  server.keepAliveTimeout = IDLE_CONNECTION_MS;

  async function serve(incoming: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
    const method = incoming.method ?? "GET";
    const found = matchRoute(admin, method, url.pathname) ?? matchRoute(routes, method, url.pathname);
    if (!found) return send(res, json(404, { error: `no route ${method} ${url.pathname}` }));
    let body: Record<string, unknown>;
    try {
      body = await readBody(incoming);
    } catch (error) {
      return send(res, json(400, { error: (error as Error).message }));
    }
    const req: Request = { method, path: url.pathname, query: url.searchParams, headers: incoming.headers, body, params: found.params };
    const isAdmin = admin.includes(found.route);
    if (!isAdmin && faults.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.delayMs));
    if (!isAdmin && found.route.write && faults.holdWritesMs > 0) await new Promise((resolve) => setTimeout(resolve, faults.holdWritesMs));
    let reply: Reply;
    try {
      reply = isAdmin ? found.route.handle(req) : handleFaultable(found.route, req, res);
    } catch (error) {
      reply = json(400, { error: (error as Error).message });
    }
    if (!isAdmin && found.route.write && faults.slowReplyMs > 0 && !res.destroyed)
      await new Promise((resolve) => setTimeout(resolve, faults.slowReplyMs));
    if (!res.destroyed) send(res, reply);
  }

  /** Undefined when `fence` may act on `resource` (no higher token seen there), else the refusal. */
  function admit(resource: string, fence: string): Reply | undefined {
    const token = Number(fence);
    if (!Number.isFinite(token)) return json(400, { error: "X-Fencing-Token must be a number" });
    const verdict = state.admitFence(resource, token);
    if (verdict.admitted) return undefined;
    state.count("fencingRefused");
    return json(409, { error: `stale fencing token ${token}: ${verdict.highest} was already seen for this resource` });
  }

  function handleFaultable(route: Route, req: Request, res: http.ServerResponse): Reply {
    if (!route.write) {
      if (takeShot(faults, "failReadsNext")) return json(503, { error: "injected read failure" });
      const resource = definition.lookupResource?.(req);
      const fence = header(req, "X-Fencing-Token");
      if (resource !== undefined && fence !== undefined) {
        const refused = admit(resource, fence);
        if (refused) return refused;
        state.count("fencedLookups");
      }
      return route.handle(req);
    }
    const key = header(req, "Idempotency-Key");
    if (key !== undefined) state.countKey(key);
    if (takeShot(faults, "failNext")) return json(503, { error: "injected transient failure (nothing happened)" });
    if (takeShot(faults, "rejectNext")) return json(422, { error: "injected refusal (nothing happened)" });
    const fence = header(req, "X-Fencing-Token");
    if (fence !== undefined) {
      const refused = admit(definition.fenceResource(req), fence);
      if (refused) return refused;
    }
    const reply = route.handle(req);
    if (reply.status < 300 && takeShot(faults, "dropNext")) {
      // The effect is durable; the caller never learns it.
      state.count("responsesDropped");
      res.destroy();
    }
    return reply;
  }

  const port = await listen(server, options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** True when `moduleUrl` is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return pathToFileURL(fs.realpathSync(entry)).href === moduleUrl;
  } catch {
    return false;
  }
}

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/**
 * Runs a service as its own process: `--port N` (0 = free port), `--data DIR`
 * (or env TASKSPEC_REMOTE_DATA), `--faults JSON` (or env
 * TASKSPEC_REMOTE_FAULTS). Prints `{"service","port","url","pid"}` on stdout.
 * With `--exit-with-parent` it stops when its stdin closes, so a parent that
 * is killed (a demo or test timed out) leaves no service behind.
 */
export async function runAsProcess(name: string, start: (options: ServiceOptions) => Promise<RunningService>): Promise<void> {
  const dataDir = flag("data") ?? process.env.TASKSPEC_REMOTE_DATA;
  if (!dataDir) {
    process.stderr.write(`${name}: give the storage directory with --data DIR (or TASKSPEC_REMOTE_DATA)\n`);
    process.exit(2);
  }
  let faults: Partial<Faults>;
  try {
    faults = parseFaults(flag("faults") ?? process.env.TASKSPEC_REMOTE_FAULTS);
  } catch (error) {
    process.stderr.write(`${name}: ${(error as Error).message}\n`);
    process.exit(2);
  }
  const service = await start({ dataDir, port: Number(flag("port") ?? 0), faults });
  process.stdout.write(`${JSON.stringify({ service: name, port: service.port, url: service.url, pid: process.pid })}\n`);
  const shutdown = () => void service.stop().then(() => process.exit(0));
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  if (process.argv.includes("--exit-with-parent")) {
    process.stdin.on("close", shutdown);
    process.stdin.resume();
  }
}
