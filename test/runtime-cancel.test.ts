/**
 * Cancel is complete or says why not, with real worker
 * processes and the example booking and blog services: an effect whose
 * outcome is unknown is looked up before the run is called cancelled (and
 * blocks with the reason when it cannot be); a worker inside a compensable
 * call is fenced and its late request refused by the remote; an effect a
 * person confirmed is compensated like any other; the preview lists every
 * effect it will undo and every one it cannot, with why.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { harnessPerTest, REMOTE_CONTRACT, REMOTE_HANDLERS, runArgs } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const h = harnessPerTest();
const FLIGHT = "R/trip/a1/1";

interface Booking {
  id: string;
  status: string;
}

const status = async () =>
  JSON.parse((await h.cli(["status", "R", "--format", "json"])).stdout) as { status: string; nextSafeAction: string };
const effect = async (id: string) => {
  const s = await h.open();
  const e = (await s.listEffects("R")).find((x) => x.id === id);
  await s.close();
  return e;
};
const bookings = async () => (await h.get("booking", "/bookings")) as Booking[];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs R until the flight booking was made at the remote and its receipt lost (the effect is STARTED). */
async function crashAfterFlight(): Promise<void> {
  const r = await h.cli(runArgs("R"), { TASKSPEC_CRASH_AT: "after-effect-before-receipt@trip/book_flight" });
  expect(r.signal).toBe("SIGKILL");
  expect(await effect(FLIGHT)).toMatchObject({ state: "STARTED", tool: "book_flight" });
  expect((await bookings()).map((b) => b.status)).toEqual(["confirmed"]);
}

describe("cancel is complete or says why not", () => {
  it("an effect with an unknown outcome is looked up first, then compensated; the preview says so", async () => {
    await crashAfterFlight();
    const dry = await h.cli(["cancel", "R", "--dry-run"]);
    expect(dry.stdout).toContain(
      `undoes ${FLIGHT}: book_flight(item, traveller) with cancel_booking (looks it up with find_booking; compensated if found)`,
    );
    expect(dry.stdout).toMatch(/cannot undo R\/post\/a1\/1: create_post\(title, body\): dedup, no compensator declared/);
    const c = await h.cli(["cancel", "R", "--by", "tester"]);
    expect(c.stderr).not.toMatch(/internal error/);
    expect(c.code, c.stdout).toBe(0);
    expect(c.stdout).toContain(`compensated and verified: ${FLIGHT}`);
    expect(await effect(FLIGHT)).toMatchObject({ state: "COMPENSATED", lookupUsed: "find_booking" });
    expect((await bookings()).map((b) => b.status)).toEqual(["cancelled"]);
    expect((await status()).status).toBe("cancelled");
  });

  it("an unknown outcome that cannot be looked up blocks the cancel with the reason; the next cancel finishes it", async () => {
    await crashAfterFlight();
    await h.faults("booking", { failReadsNext: 1 });
    const c = await h.cli(["cancel", "R", "--by", "tester"]);
    expect(c.code).toBe(1);
    expect(c.stdout).toMatch(new RegExp(`NOT cancelled: ${FLIGHT} \\(book_flight\\(item, traveller\\)\\): .*lookup find_booking failed`));
    expect(c.stdout).toContain("run R is held (cancelling), not cancelled");
    const s = await status();
    expect(s.status).toBe("blocked");
    expect(s.nextSafeAction).toMatch(/finish the cancel: cancel by tester: not complete: R\/trip\/a1\/1/);
    expect((await bookings()).map((b) => b.status)).toEqual(["confirmed"]);
    const again = await h.cli(["cancel", "R", "--by", "tester"]);
    expect(again.code, again.stdout).toBe(0);
    expect((await bookings()).map((b) => b.status)).toEqual(["cancelled"]);
    expect((await status()).status).toBe("cancelled");
  });

  it("an effect a person confirmed with resolve --committed is listed and compensated like any other", async () => {
    await crashAfterFlight();
    expect((await h.cli(["resolve", "R", FLIGHT, "--committed", "--by", "ada"])).code).toBe(0);
    const dry = await h.cli(["cancel", "R", "--dry-run"]);
    expect(dry.stdout).toContain(
      `undoes ${FLIGHT}: book_flight(item, traveller) with cancel_booking (confirmed committed by ada: reads the receipt with find_booking first)`,
    );
    const c = await h.cli(["cancel", "R", "--by", "tester"]);
    expect(c.code, c.stdout).toBe(0);
    expect(c.stdout).toContain(`compensated and verified: ${FLIGHT}`);
    expect((await bookings()).map((b) => b.status)).toEqual(["cancelled"]);
    expect((await status()).status).toBe("cancelled");
  });

  it("a worker inside a compensable call is fenced: its request, landing after the cancel's lookup, is refused; nothing stands", async () => {
    await h.faults("booking", { holdWritesMs: 30_000 });
    const worker = h.cli([...runArgs("R"), "--lease-ttl", "1500ms"]);
    for (let i = 0; i < 300 && (await effect(FLIGHT))?.state !== "STARTED"; i++) await sleep(50);
    expect((await effect(FLIGHT))?.state).toBe("STARTED");
    const c = await h.cli(["cancel", "R", "--by", "tester"]);
    expect(c.stderr).not.toMatch(/internal error/);
    expect(c.code, c.stdout + c.stderr).toBe(0);
    expect(c.stdout).toContain(`waiting for the call in flight: ${FLIGHT} book_flight(item, traveller)`);
    expect(c.stdout).toMatch(
      new RegExp(`undoes ${FLIGHT}: .*\\(waits for the call in flight \\(worker \\S+, lease until \\S+\\), then looks it up`),
    );
    await worker;
    expect((await status()).status).toBe("cancelled");
    // the held request lands after the lookup carried the newer token: refused, never booked
    for (let i = 0; i < 400 && !(await h.stats("booking")).counters.fencingRefused; i++) await sleep(100);
    const stats = await h.stats("booking");
    expect(stats.counters.fencingRefused).toBe(1);
    expect(stats.counters.creations).toBeUndefined();
    expect(await bookings()).toEqual([]);
    // and the worker started nothing after the fence (the hotel was never asked for)
    const s = await h.open();
    expect((await s.listEffects("R", { unit: "trip" })).map((e) => [e.tool, e.state])).toEqual([["book_flight", "FAILED"]]);
    await s.close();
  });
});

/** The remote fixture's handlers, except that find_booking reports a cancelled booking as `torn-down`. */
function tornDownHandlers(): string {
  const path = join(h.dir, "torn-down-handlers.mjs");
  writeFileSync(
    path,
    `import full from ${JSON.stringify(REMOTE_HANDLERS)};
const real = full.tools.find_booking;
const find_booking = { call: async (args, meta) => {
  const b = await real.call(args, meta);
  return b && { ...b, status: b.status === "cancelled" ? "torn-down" : b.status };
} };
export default { ...full, tools: { ...full.tools, find_booking } };
`,
  );
  return path;
}

/** remote.task.yaml with `compensate.compensated` declared on both bookings. */
function contractSaying(condition: string): string {
  const path = join(h.dir, "remote.task.yaml");
  const from = 'compensate: { tool: cancel_booking, with: { booking_id: "${result.booking_id}" } }';
  const text = readFileSync(REMOTE_CONTRACT, "utf8");
  expect(text.split(from).length).toBe(3);
  writeFileSync(
    path,
    text.replaceAll(
      from,
      `compensate: { tool: cancel_booking, with: { booking_id: "\${result.booking_id}" }, compensated: '${condition}' }`,
    ),
  );
  return path;
}

describe("what counts as compensated is the contract's", () => {
  it("by default a record whose status is not cancelled is not compensated: the cancel blocks and says why", async () => {
    const handlers = tornDownHandlers();
    await h.cli(runArgs("R", REMOTE_CONTRACT, handlers));
    const c = await h.cli(["cancel", "R", "--by", "tester"]);
    expect(c.code).toBe(1);
    expect(c.stdout).toMatch(
      /compensation FAILED: R\/trip\/a1\/2: verification: find_booking still finds b0002, not compensated: status is "torn-down", not "cancelled" \(the default; declare compensate.compensated\)/,
    );
    expect((await status()).status).toBe("blocked");
  });

  it("a remote that says torn-down is compensated when the contract declares it so", async () => {
    const handlers = tornDownHandlers();
    const contract = contractSaying('result.status == "torn-down"');
    const r = await h.cli(runArgs("R", contract, handlers));
    expect(r.stderr).not.toMatch(/C0\d\d/);
    const c = await h.cli(["cancel", "R", "--by", "tester"]);
    expect(c.code, c.stdout + c.stderr).toBe(0);
    expect(c.stdout).toContain("compensated and verified: R/trip/a1/2");
    expect(c.stdout).toContain("compensated and verified: R/trip/a1/1");
    expect((await bookings()).map((b) => b.status)).toEqual(["cancelled", "cancelled"]);
    expect((await status()).status).toBe("cancelled");
  });
});
