/**
 * A local remote as its own process, as the demo and the crash tests start
 * it: its records, counters and fences survive a SIGKILL and a restart.
 */
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
// The process test runs the built service, as the demo does (`npm test` builds first).
import { spawnService } from "../dist/remote/spawn.js";
import { tempDir } from "./temp-dir.js";

async function call(base: string, method: string, path: string, body?: object, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read the services' JSON replies field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const post = { title: "Resuming agents", body: "Reconcile before you continue." };

/** An HTTP/1.1 request head on a connection that stays open. */
function request(method: string, path: string, headers: Record<string, string> = {}): string {
  const lines = [`${method} ${path} HTTP/1.1`, "Host: 127.0.0.1", "Connection: keep-alive", "Content-Type: application/json"];
  return [...lines, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n");
}

/** Writes `text` on the socket and answers the first chunk of its reply, or "closed" when the connection ends first. */
function exchange(socket: Socket, text: string): Promise<string> {
  if (socket.readableEnded || socket.destroyed) return Promise.resolve("closed");
  return new Promise((resolve) => {
    const done = (answer: string) => {
      socket.off("data", onData).off("close", onClose).off("error", onClose);
      resolve(answer);
    };
    const onData = (chunk: Buffer) => done(chunk.toString("utf8"));
    const onClose = () => done("closed");
    socket.on("data", onData).on("close", onClose).on("error", onClose);
    socket.write(text);
  });
}

describe("as a separate process", () => {
  it("keeps records, counters and fences across a SIGKILL and restart", async () => {
    const dataDir = tempDir();
    const first = await spawnService("blog", { dataDir });
    const created = await call(first.url, "POST", "/posts", post, { "Idempotency-Key": "k", "X-Fencing-Token": "9" });
    first.child.kill("SIGKILL");
    await first.stop();

    const second = await spawnService("blog", { dataDir });
    try {
      expect((await call(second.url, "GET", "/posts?key=k")).body).toEqual(created.body);
      expect((await call(second.url, "POST", "/posts", post, { "Idempotency-Key": "k", "X-Fencing-Token": "8" })).status).toBe(409);
      expect((await call(second.url, "POST", "/posts", post, { "Idempotency-Key": "k", "X-Fencing-Token": "9" })).status).toBe(200);
      const stats = (await call(second.url, "GET", "/stats")).body;
      expect(stats.counters).toMatchObject({ creations: 1, duplicatesRefused: 1, fencingRefused: 1 });
      expect((await call(second.url, "GET", "/posts")).body).toHaveLength(1);
    } finally {
      await second.stop();
    }
  });

  it("a request sent on a connection left idle past Node's keep-alive still reaches the fencing check", async () => {
    // as a drill's worker stopped mid-call (SIGSTOP) sends its late write on the connection it kept: it must be
    // refused by fencing (409), not lost at the socket
    const blog = await spawnService("blog", { dataDir: tempDir() });
    const socket = connect(blog.port, "127.0.0.1");
    try {
      await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k", "X-Fencing-Token": "9" });
      expect(await exchange(socket, request("GET", "/posts?key=k"))).toMatch(/^HTTP\/1\.1 200 /);
      await new Promise((resolve) => setTimeout(resolve, 7_000)); // Node closes an idle one about 6 s after its last reply
      const body = JSON.stringify(post);
      const stale = request("POST", "/posts", { "Idempotency-Key": "k", "X-Fencing-Token": "8", "Content-Length": String(body.length) });
      expect(await exchange(socket, stale + body)).toMatch(/^HTTP\/1\.1 409 /);
      expect((await call(blog.url, "GET", "/stats")).body.counters).toMatchObject({ fencingRefused: 1 });
    } finally {
      socket.destroy();
      await blog.stop();
    }
  }, 30_000);

  it("reports a usage error without a data directory", async () => {
    await expect(spawnService("mail", { dataDir: "" })).rejects.toThrow(/--data DIR/);
  });
});
