/**
 * The console server (`taskspec ui`) the run panel shows, started by the
 * extension on 127.0.0.1 on a free port with a fresh token, one per store.
 * The token stays in the extension host: every request the panel makes comes
 * through here and gets it as a header, so it is never in the webview, a URL
 * or a setting. Decisions are POSTed with the console's own Origin, as its
 * page would send them.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { spawnTaskspec } from "../taskspec-cli.js";

export interface ConsoleAnswer {
  status: number;
  contentType: string;
  body: string;
}

const START_TIMEOUT_MS = 60_000;
const TOKEN_HEADER = "x-taskspec-token";

export class ConsoleProcess {
  private child: ChildProcessWithoutNullStreams | undefined;
  private started: Promise<{ base: URL; token: string }> | undefined;

  constructor(
    readonly store: string,
    private readonly cwd: string | undefined,
  ) {}

  /** Starts the server once; later calls wait for the same start. */
  ready(): Promise<{ base: URL; token: string }> {
    this.started ??= this.start().catch((err: unknown) => {
      this.started = undefined;
      throw err;
    });
    return this.started;
  }

  private start(): Promise<{ base: URL; token: string }> {
    const child = spawnTaskspec(["ui", "--store", this.store, "--port", "0"], this.cwd);
    this.child = child;
    return new Promise((resolve, reject) => {
      let out = "";
      let err = "";
      const timer = setTimeout(() => fail(new Error(`taskspec ui printed no URL within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      const fail = (e: Error) => {
        clearTimeout(timer);
        child.kill();
        reject(e);
      };
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        const m = /taskspec console: (http:\/\/\S+)/.exec(out);
        if (!m) return;
        clearTimeout(timer);
        const url = new URL(m[1]!);
        const token = url.searchParams.get("token") ?? "";
        resolve({ base: new URL(url.origin), token });
      });
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      child.on("error", (e) => fail(e));
      child.on("exit", (code) => {
        this.started = undefined;
        fail(new Error(`taskspec ui --store ${this.store} exited (${code}): ${err.trim() || out.trim()}`));
      });
    });
  }

  /** A GET or a JSON POST to one of the console's own paths. */
  async request(method: "GET" | "POST", path: string, body?: string): Promise<ConsoleAnswer> {
    const res = await this.open(method, path, body);
    const chunks: Buffer[] = [];
    for await (const chunk of res) chunks.push(chunk as Buffer);
    return {
      status: res.statusCode ?? 0,
      contentType: String(res.headers["content-type"] ?? ""),
      body: Buffer.concat(chunks).toString("utf8"),
    };
  }

  /** A live stream: its chunks as they come; the returned function closes it. */
  async stream(
    path: string,
    onChunk: (text: string) => void,
    onEnd: (why: string) => void,
    headers: Record<string, string> = {},
  ): Promise<() => void> {
    const res = await this.open("GET", path, undefined, headers);
    if (res.statusCode !== 200) {
      res.resume();
      throw new Error(`${path}: HTTP ${res.statusCode}`);
    }
    res.setEncoding("utf8");
    res.on("data", (d: string) => onChunk(d));
    res.on("end", () => onEnd("closed"));
    res.on("error", (e) => onEnd(e.message));
    return () => res.destroy();
  }

  private async open(method: "GET" | "POST", path: string, body?: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
    const { base, token } = await this.ready();
    // Only the console's own pages and API, with the page's token parameter (empty in the webview) dropped.
    const url = new URL(path, base);
    if (url.origin !== base.origin) throw new Error(`not a console path: ${path}`);
    url.searchParams.delete("token");
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method,
          headers: {
            ...headers,
            [TOKEN_HEADER]: token,
            ...(method === "POST" ? { origin: base.origin, "content-type": "application/json" } : {}),
          },
        },
        resolve,
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  dispose(): void {
    this.child?.kill();
    this.child = undefined;
    this.started = undefined;
  }
}
