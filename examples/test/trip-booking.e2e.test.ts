/**
 * The trip-booking contract end to end in real processes, against the local
 * booking and mail services: a crash right after the flight was booked is
 * settled by lookup (one booking, one booking call), the confirmation goes out
 * once after approval, and cancelling the run compensates the bookings in
 * reverse commit order while the sent email is reported, not "undone".
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { spawnService, type ServiceProcess } from "../dist/remote/spawn.js";
import type { Booking } from "../src/remote/booking.js";
import { HANDLERS, SPEC } from "../src/demo/paths.js";
import { describeExit, resumeTokenIn, taskspec } from "../src/demo/taskspec-cli.js";
import { tempDir } from "./temp-dir.js";

const services: ServiceProcess[] = [];
afterEach(async () => {
  for (const service of services.splice(0)) await service.stop();
});

const getJson = async <T>(url: string): Promise<T> => (await (await fetch(url)).json()) as T;

describe("trip-booking", () => {
  it("books once after a crash, confirms once, and compensates in reverse order on cancel", async () => {
    const work = tempDir();
    const booking = await spawnService("booking", { dataDir: path.join(work, "booking") });
    const mail = await spawnService("mail", { dataDir: path.join(work, "mail") });
    services.push(booking, mail);
    const env = { TASKSPEC_BOOKING_URL: booking.url, TASKSPEC_MAIL_URL: mail.url };
    const store = `sqlite:${path.join(work, "store.db")}`;

    const crashed = await taskspec(
      ["run", SPEC("trip-booking"), "--handlers", HANDLERS("trip-booking"), "--store", store, "--run", "trip-1"],
      {
        ...env,
        TASKSPEC_CRASH_AT: "after-effect-before-receipt@flight/book_flight",
      },
    );
    expect(describeExit(crashed), crashed.stderr).toBe("killed by SIGKILL");

    const gate = await taskspec(["resume", "trip-1", "--store", store], env);
    expect(gate.stdout).toMatch(/blocked confirm: approval/);
    expect((await taskspec(["approve", "trip-1", "confirm", "--token", resumeTokenIn(gate, "confirm"), "--store", store], env)).code).toBe(
      0,
    );
    const done = await taskspec(["resume", "trip-1", "--store", store], env);
    expect(done.code, done.stdout + done.stderr).toBe(0);

    const stats = await getJson<{ counters: Record<string, number>; callsPerKey: Record<string, number> }>(`${booking.url}/stats`);
    expect(stats.counters).toMatchObject({ creations: 2 });
    expect(stats.callsPerKey).toEqual({ "trip:trip-booking:trip-1:flight": 1, "trip:trip-booking:trip-1:hotel": 1 });
    expect(stats.counters.lookups).toBeGreaterThanOrEqual(1);
    expect((await getJson<{ counters: Record<string, number> }>(`${mail.url}/stats`)).counters).toEqual({ sends: 1 });

    const cancel = await taskspec(["cancel", "trip-1", "--store", store], env);
    expect(cancel.code, cancel.stdout + cancel.stderr).toBe(0);
    expect(cancel.stdout).toMatch(/cannot undo .*send_confirmation/);
    const bookings = await getJson<Booking[]>(`${booking.url}/bookings`);
    expect(bookings.map((b) => [b.kind, b.status])).toEqual([
      ["flight", "cancelled"],
      ["hotel", "cancelled"],
    ]);
    const [flight, hotel] = bookings as [Booking, Booking];
    expect(hotel.cancelledAt! < flight.cancelledAt!).toBe(true);
    expect((await getJson<{ counters: Record<string, number> }>(`${mail.url}/stats`)).counters).toEqual({ sends: 1 });
  }, 300_000);
});
