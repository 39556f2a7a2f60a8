/**
 * A local remote as its own process, as the demo and the crash tests start
 * it: its records, counters and fences survive a SIGKILL and a restart.
 */
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

  it("reports a usage error without a data directory", async () => {
    await expect(spawnService("mail", { dataDir: "" })).rejects.toThrow(/--data DIR/);
  });
});
