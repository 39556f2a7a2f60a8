/**
 * The local remotes the demo and the crash tests count effects against:
 * idempotency by key, lookup by key, fencing refusal, stats at the remote,
 * fault knobs, in-process (services-process.test.ts restarts a service process).
 */
import { afterEach, describe, expect, it } from "vitest";
import { startBlog } from "../src/remote/blog.js";
import { startBooking } from "../src/remote/booking.js";
import { startMail } from "../src/remote/mail.js";
import type { RunningService } from "../src/remote/service.js";
import { tempDir } from "./temp-dir.js";

const running: RunningService[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) await service.stop();
});

async function started(start: Promise<RunningService>): Promise<RunningService> {
  const service = await start;
  running.push(service);
  return service;
}

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

describe("blog", () => {
  it("creates one post per idempotency key and answers a repeat with the same post", async () => {
    const blog = await started(startBlog({ dataDir: tempDir() }));
    const first = await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "task:publish:v1" });
    const again = await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "task:publish:v1" });
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect((await call(blog.url, "GET", "/posts")).body).toHaveLength(1);
    const stats = (await call(blog.url, "GET", "/stats")).body;
    expect(stats.counters).toMatchObject({ creations: 1, duplicatesRefused: 1 });
    expect(stats.callsPerKey).toEqual({ "task:publish:v1": 2 });
  });

  it("creates a second post when no key is given (how a naive retry publishes twice)", async () => {
    const blog = await started(startBlog({ dataDir: tempDir() }));
    await call(blog.url, "POST", "/posts", post);
    await call(blog.url, "POST", "/posts", post);
    expect((await call(blog.url, "GET", "/posts")).body).toHaveLength(2);
  });

  it("finds a post by key, and says 404 when none exists under it", async () => {
    const blog = await started(startBlog({ dataDir: tempDir() }));
    expect((await call(blog.url, "GET", "/posts?key=k1")).status).toBe(404);
    const created = await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k1" });
    const found = await call(blog.url, "GET", "/posts?key=k1");
    expect(found).toEqual({ status: 200, body: created.body });
    expect((await call(blog.url, "GET", `/posts/${created.body.id}`)).body.title).toBe(post.title);
  });

  it("refuses a write whose fencing token is lower than one already seen for that key", async () => {
    const blog = await started(startBlog({ dataDir: tempDir() }));
    const takeover = await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k1", "X-Fencing-Token": "8" });
    const stale = await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k1", "X-Fencing-Token": "7" });
    const sameWorker = await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k1", "X-Fencing-Token": "8" });
    const otherKey = await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k2", "X-Fencing-Token": "3" });
    expect([takeover.status, stale.status, sameWorker.status, otherKey.status]).toEqual([201, 409, 200, 201]);
    expect(stale.body.error).toMatch(/stale fencing token 7/);
    const stats = (await call(blog.url, "GET", "/stats")).body;
    expect(stats.counters).toMatchObject({ creations: 2, fencingRefused: 1 });
    expect(stats.fences).toEqual({ k1: 8, k2: 3 });
  });

  it("a lookup with a fencing token raises the key's fence: the old worker's write, held until after it, is refused", async () => {
    const blog = await started(startBlog({ dataDir: tempDir(), faults: { holdWritesMs: 300 } }));
    const old = call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k1", "X-Fencing-Token": "7" });
    await new Promise((r) => setTimeout(r, 50));
    const lookup = await call(blog.url, "GET", "/posts?key=k1", undefined, { "X-Fencing-Token": "9" });
    expect(lookup.status).toBe(404);
    expect((await old).status).toBe(409);
    expect((await call(blog.url, "GET", "/posts?key=k1", undefined, { "X-Fencing-Token": "8" })).status).toBe(409);
    const stats = (await call(blog.url, "GET", "/stats")).body;
    expect(stats.counters).toMatchObject({ fencingRefused: 2, fencedLookups: 1 });
    expect(stats.counters.creations).toBeUndefined();
    expect(stats.fences).toEqual({ k1: 9 });
  });

  it("rejects a malformed body with 400 and no effect", async () => {
    const blog = await started(startBlog({ dataDir: tempDir() }));
    expect((await call(blog.url, "POST", "/posts", { title: "" }, { "Idempotency-Key": "k" })).status).toBe(400);
    expect((await call(blog.url, "GET", "/posts")).body).toEqual([]);
  });
});

describe("fault knobs", () => {
  it.each([
    { knob: "failNext", status: 503 },
    { knob: "rejectNext", status: 422 },
  ])("$knob answers $status before any effect, once", async ({ knob, status }) => {
    const blog = await started(startBlog({ dataDir: tempDir(), faults: { [knob]: 1 } }));
    expect((await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k" })).status).toBe(status);
    expect((await call(blog.url, "GET", "/posts?key=k")).status).toBe(404);
    expect((await call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k" })).status).toBe(201);
  });

  it("dropNext commits the effect and drops the connection: the caller cannot tell, the lookup can", async () => {
    const blog = await started(startBlog({ dataDir: tempDir() }));
    await call(blog.url, "POST", "/_admin/faults", { dropNext: 1 });
    await expect(call(blog.url, "POST", "/posts", post, { "Idempotency-Key": "k" })).rejects.toThrow();
    expect((await call(blog.url, "GET", "/posts?key=k")).status).toBe(200);
    expect((await call(blog.url, "GET", "/stats")).body.counters).toMatchObject({ creations: 1, responsesDropped: 1 });
  });

  it("failReadsNext makes a lookup fail", async () => {
    const blog = await started(startBlog({ dataDir: tempDir(), faults: { failReadsNext: 1 } }));
    expect((await call(blog.url, "GET", "/posts?key=k")).status).toBe(503);
    expect((await call(blog.url, "GET", "/posts?key=k")).status).toBe(404);
  });

  it("delayMs delays requests", async () => {
    const blog = await started(startBlog({ dataDir: tempDir(), faults: { delayMs: 150 } }));
    const controller = AbortSignal.timeout(50);
    await expect(fetch(`${blog.url}/posts`, { signal: controller })).rejects.toThrow();
  });

  it("refuses unknown knobs", async () => {
    const blog = await started(startBlog({ dataDir: tempDir() }));
    const res = await call(blog.url, "POST", "/_admin/faults", { dropEverything: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/unknown fault knob "dropEverything"/);
  });
});

describe("booking", () => {
  it("books once per key, finds by key, and cancels idempotently", async () => {
    const booking = await started(startBooking({ dataDir: tempDir() }));
    const flight = { kind: "flight", item: "LIS-BER 2026-12-04", traveller: "Zhou Yao" };
    const made = await call(booking.url, "POST", "/bookings", flight, { "Idempotency-Key": "trip:flight" });
    const repeat = await call(booking.url, "POST", "/bookings", flight, { "Idempotency-Key": "trip:flight" });
    expect(repeat.body.id).toBe(made.body.id);
    expect((await call(booking.url, "GET", "/bookings?key=trip:flight")).body.status).toBe("confirmed");
    const cancel1 = await call(booking.url, "POST", `/bookings/${made.body.id}/cancel`);
    const cancel2 = await call(booking.url, "POST", `/bookings/${made.body.id}/cancel`);
    expect([cancel1.body.status, cancel2.body.status]).toEqual(["cancelled", "cancelled"]);
    expect(cancel2.body.cancelledAt).toBe(cancel1.body.cancelledAt);
    expect((await call(booking.url, "GET", "/stats")).body.counters).toMatchObject({
      creations: 1,
      duplicatesRefused: 1,
      cancellations: 1,
      cancelRepeats: 1,
    });
    expect((await call(booking.url, "POST", "/bookings/b9999/cancel")).status).toBe(404);
  });

  it("refuses an unknown kind", async () => {
    const booking = await started(startBooking({ dataDir: tempDir() }));
    const res = await call(booking.url, "POST", "/bookings", { kind: "train", item: "x", traveller: "y" });
    expect(res.status).toBe(400);
  });

  it("fences cancellation per booking", async () => {
    const booking = await started(startBooking({ dataDir: tempDir() }));
    const made = await call(
      booking.url,
      "POST",
      "/bookings",
      { kind: "hotel", item: "Berlin 3n", traveller: "Z" },
      { "Idempotency-Key": "h" },
    );
    await call(booking.url, "POST", `/bookings/${made.body.id}/cancel`, undefined, { "X-Fencing-Token": "5" });
    expect((await call(booking.url, "POST", `/bookings/${made.body.id}/cancel`, undefined, { "X-Fencing-Token": "4" })).status).toBe(409);
  });
});

describe("mail", () => {
  it("sends every time it is asked, even under the same key: irreversible effects are counted, not deduplicated", async () => {
    const mail = await started(startMail({ dataDir: tempDir() }));
    const message = { to: "client@example.com", subject: "Pack", body: "Attached." };
    await call(mail.url, "POST", "/send", message, { "Idempotency-Key": "send:1" });
    await call(mail.url, "POST", "/send", message, { "Idempotency-Key": "send:1" });
    expect((await call(mail.url, "GET", "/messages?key=send:1")).body).toHaveLength(2);
    expect((await call(mail.url, "GET", "/messages?key=other")).body).toEqual([]);
    expect((await call(mail.url, "GET", "/stats")).body.counters).toMatchObject({ sends: 2 });
  });
});
