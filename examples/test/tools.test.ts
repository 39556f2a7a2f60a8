/**
 * The example tool adapters against the real local remotes: the ledger's key
 * and fencing token reach the remote, a lookup answers the receipt the call
 * would have (or null), and a stale token is refused at the remote.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolCallMeta } from "@taskspec/runtime";
import { blogTools } from "../src/handlers/blog-tools.js";
import { bookingTools } from "../src/handlers/booking-tools.js";
import { sendConfirmation } from "../src/handlers/mail-tools.js";
import { SERVICE_URL_ENV } from "../src/handlers/remote-client.js";
import { startBlog } from "../src/remote/blog.js";
import { startBooking } from "../src/remote/booking.js";
import { startMail } from "../src/remote/mail.js";
import type { RunningService } from "../src/remote/service.js";
import { tempDir } from "./temp-dir.js";

let services: RunningService[] = [];

beforeEach(async () => {
  const [blog, booking, mail] = await Promise.all([
    startBlog({ dataDir: tempDir() }),
    startBooking({ dataDir: tempDir() }),
    startMail({ dataDir: tempDir() }),
  ]);
  services = [blog, booking, mail];
  process.env[SERVICE_URL_ENV.blog] = blog.url;
  process.env[SERVICE_URL_ENV.booking] = booking.url;
  process.env[SERVICE_URL_ENV.mail] = mail.url;
});

afterEach(async () => {
  for (const service of services) await service.stop();
  for (const name of Object.values(SERVICE_URL_ENV)) delete process.env[name];
});

function meta(key: string | undefined, fencingToken: number): ToolCallMeta {
  return { runId: "r1", unitId: "publish", attemptId: "a1", fencingToken, signal: new AbortController().signal, ...(key ? { key } : {}) };
}

describe("blog tools", () => {
  it("create_post posts once per key; find_post answers exactly the same receipt (one receipt: a re-run gets it)", async () => {
    const post = { title: "T", body: "B" };
    expect(await blogTools.find_post!.call({ key: "k1" }, meta(undefined, 1))).toBeNull();
    const created = await blogTools.create_post!.call(post, meta("k1", 1));
    const again = await blogTools.create_post!.call(post, meta("k1", 2));
    expect(again).toEqual(created);
    expect(created).toMatchObject({ key: "k1", status: "live" });
    const found = await blogTools.find_post!.call({ key: "k1" }, meta(undefined, 2));
    expect(found).toEqual(created);
  });

  it("a stale worker's create_post is refused by the blog: failed, nothing happened", async () => {
    await blogTools.create_post!.call({ title: "T", body: "B" }, meta("k1", 5));
    const refused = blogTools.create_post!.call({ title: "T", body: "B" }, meta("k1", 4));
    await expect(refused).rejects.toThrow(/409: stale fencing token 4/);
    await expect(refused).rejects.toMatchObject({ outcome: "failed" });
  });

  it("a dropped response is not a failure: the outcome stays unknown", async () => {
    await fetch(`${services[0]!.url}/_admin/faults`, { method: "POST", body: JSON.stringify({ dropNext: 1 }) });
    const dropped = blogTools.create_post!.call({ title: "T", body: "B" }, meta("k2", 1));
    await expect(dropped).rejects.not.toMatchObject({ outcome: "failed" });
    expect(await blogTools.find_post!.call({ key: "k2" }, meta(undefined, 1))).toMatchObject({ key: "k2" });
  });
});

describe("booking tools", () => {
  it("searches, books with the key, finds by key, and cancels idempotently", async () => {
    const flights = (await bookingTools.search_flights!.call(
      { from: "BER", to: "LIS", date: "2026-12-07", back: "2026-12-10" },
      meta(undefined, 1),
    )) as Array<Record<string, unknown>>;
    expect(flights).toHaveLength(2);
    const booked = (await bookingTools.book_flight!.call(
      { ...flights[1], traveller: "ada@example.org" },
      meta("trip:flight", 1),
    )) as Record<string, unknown>;
    expect(booked).toMatchObject({ status: "confirmed", fare: 142 });
    expect(await bookingTools.find_booking!.call({ key: "trip:flight" }, meta(undefined, 1))).toEqual(booked);
    expect(await bookingTools.find_reservation!.call({ key: "trip:hotel" }, meta(undefined, 1))).toBeNull();
    const cancelled = await bookingTools.cancel_flight!.call({ booking_id: booked.booking_id }, meta("cancel", 1));
    expect(await bookingTools.cancel_flight!.call({ booking_id: booked.booking_id }, meta("cancel", 1))).toEqual(cancelled);
    expect(cancelled).toMatchObject({ status: "cancelled" });
  });
});

describe("mail tools", () => {
  it("send_confirmation sends every time it is called", async () => {
    const first = await sendConfirmation.call({ to: "ada@example.org", subject: "Trip", body: "..." }, meta("confirm", 1));
    const second = await sendConfirmation.call({ to: "ada@example.org", subject: "Trip", body: "..." }, meta("confirm", 1));
    expect(first).not.toEqual(second);
  });
});
