/**
 * Every recovery class against real local services, with real worker
 * processes killed at named crash points (SIGKILL) and resumed in fresh ones.
 * What happened is checked at the remotes (their own counters), not only in
 * our store. Handlers run in the default isolation, a process per attempt.
 */
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { harnessPerTest, runArgs } from "./runtime-harness.js";

// Real processes and services on a shared 2-core machine: generous per-test time.
vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const h = harnessPerTest();

const effectsOf = async (unit: string) => {
  const s = await h.open();
  const list = await s.listEffects("R", { unit });
  await s.close();
  return list;
};

describe("dedup (create_post, lookup find_post)", () => {
  it("crash after the remote created the post, before the receipt: lookup adopts it; never posted twice", async () => {
    const first = await h.cli(runArgs("R"), { TASKSPEC_CRASH_AT: "after-effect-before-receipt@post/create_post" });
    expect(first.signal).toBe("SIGKILL");
    expect((await effectsOf("post")).map((e) => e.state)).toEqual(["STARTED"]);
    await h.cli(["resume", "R"]);
    const [e] = await effectsOf("post");
    expect(e).toMatchObject({ state: "COMMITTED", lookupUsed: "find_post", key: "post:R:post" });
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
    expect(await h.get("blog", "/posts?key=post:R:post")).toMatchObject({ id: e?.remoteId });
    expect(h.invocations().filter((l) => l.startsWith("post "))).toEqual(["post a1", "post a2"]);
    // the killed worker and the one that resumed both ran handlers in the default isolation, a process per attempt
    const s = await h.open();
    const modes = (await s.listEvents("R", { type: "isolation" })).map((ev) => ev.data?.mode);
    await s.close();
    expect(modes.length).toBeGreaterThanOrEqual(2);
    expect(new Set(modes)).toEqual(new Set(["process"]));
  });

  it("crash before the call: lookup confirms absence, then exactly one create", async () => {
    expect((await h.cli(runArgs("R"), { TASKSPEC_CRASH_AT: "before-effect@post/create_post" })).signal).toBe("SIGKILL");
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBeUndefined();
    await h.cli(["resume", "R"]);
    const effects = await effectsOf("post");
    expect(effects.map((e) => [e.state, e.error ?? ""])).toEqual([
      ["FAILED", "confirmed absent by lookup"],
      ["COMMITTED", ""],
    ]);
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
  });

  it("the remote commits but the connection drops (UNKNOWN in a live worker): looked up, not re-sent", async () => {
    await h.faults("blog", { dropNext: 1 });
    await h.cli(runArgs("R"));
    const effects = await effectsOf("post");
    expect(effects[0]).toMatchObject({ state: "COMMITTED", lookupUsed: "find_post" });
    expect(effects).toHaveLength(1);
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
  });

  it("the lookup itself fails: the unit blocks (unknown effect); the create is never repeated; a later resume settles it", async () => {
    expect((await h.cli(runArgs("R"), { TASKSPEC_CRASH_AT: "after-effect-before-receipt@post/create_post" })).signal).toBe("SIGKILL");
    await h.faults("blog", { failReadsNext: 3 });
    const blocked = await h.cli(["resume", "R"]);
    expect(blocked.code).toBe(3);
    const status = JSON.parse((await h.cli(["status", "R", "--format", "json"])).stdout);
    expect(status.unknownEffects).toHaveLength(1);
    expect(status.status).toBe("blocked"); // a person must act (resolve), not "resumable"
    expect(status.units.find((u: { unit: string }) => u.unit === "post").state).toBe("blocked");
    expect(status.nextSafeAction).toMatch(/UNKNOWN/);
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
    await h.faults("blog", { failReadsNext: 0 });
    await h.cli(["resume", "R"]);
    expect((await effectsOf("post"))[0]?.state).toBe("COMMITTED");
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
  });
});

describe("crash points around recovery itself", () => {
  it("during-reconciliation: the next resume looks up again and still never re-sends", async () => {
    expect((await h.cli(runArgs("R"), { TASKSPEC_CRASH_AT: "after-effect-before-receipt@post/create_post" })).signal).toBe("SIGKILL");
    expect((await h.cli(["resume", "R"], { TASKSPEC_CRASH_AT: "during-reconciliation@post" })).signal).toBe("SIGKILL");
    expect((await effectsOf("post"))[0]?.state).toBe("STARTED");
    await h.cli(["resume", "R"]);
    expect((await effectsOf("post"))[0]).toMatchObject({ state: "COMMITTED", lookupUsed: "find_post" });
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
  });

  it("during-approval-wait: the gate and its token survive; approve and resume finish the run", async () => {
    const first = await h.cli(runArgs("R"), { TASKSPEC_CRASH_AT: "during-approval-wait" });
    expect(first.signal).toBe("SIGKILL");
    const status = JSON.parse((await h.cli(["status", "R", "--format", "json"])).stdout);
    expect(status.approvals.pending).toEqual([{ unit: "mail", tokenExpiresAt: expect.any(String) }]);
    // the worker died before it printed the token: an operator identity of the store approves instead
    const keyFile = join(h.dir, "ada.key");
    expect((await h.cli(["store", "init-operator", "ada", "--key-file", keyFile])).code).toBe(0);
    const approved = await h.cli(["approve", "R", "mail", "--operator-key-file", keyFile]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(/approved mail of R: ap_\S+ by ada,/);
    expect((await h.cli(["resume", "R"])).stdout).toMatch(/run R: done/);
    expect((await h.stats("mail")).counters.sends).toBe(1);
  });
});

describe("idempotent (publish_note, no lookup)", () => {
  it("crash after the effect: retried under the same key; the remote deduplicates", async () => {
    expect((await h.cli(runArgs("R"), { TASKSPEC_CRASH_AT: "after-effect-before-receipt@note/publish_note" })).signal).toBe("SIGKILL");
    await h.cli(["resume", "R"]);
    const effects = await effectsOf("note");
    expect(effects.map((e) => e.state)).toEqual(["FAILED", "COMMITTED"]);
    expect(effects.every((e) => e.key === "note:R")).toBe(true);
    const stats = await h.stats("blog");
    expect(stats.callsPerKey["note:R"]).toBe(2);
    expect(stats.counters.duplicatesRefused).toBe(1);
  });
});

describe("irreversible (send_mail, approval, no lookup)", () => {
  it("needs a current approval; an UNKNOWN send blocks for a person and is never repeated", async () => {
    const first = await h.cli(runArgs("R"));
    expect(first.stdout).toMatch(/approval requested for mail: resume token (rt_\S+)/);
    const token = /resume token (rt_\S+)/.exec(first.stdout)![1]!;
    expect((await h.cli(["approve", "R", "mail", "--token", token])).code).toBe(0);
    expect((await h.cli(["approve", "R", "mail", "--token", token])).stderr).toMatch(/already used/);
    expect((await h.cli(["resume", "R"], { TASKSPEC_CRASH_AT: "after-effect-before-receipt@mail/send_mail" })).signal).toBe("SIGKILL");
    expect((await h.stats("mail")).counters.sends).toBe(1);
    const blocked = await h.cli(["resume", "R"]);
    expect(blocked.code).toBe(3);
    expect(blocked.stdout).toMatch(/unknown-effect/);
    await h.cli(["resume", "R"]);
    expect((await h.stats("mail")).counters.sends).toBe(1);
    const [effect] = await effectsOf("mail");
    expect(effect?.state).toBe("UNKNOWN");
    const resolved = await h.cli(["resolve", "R", effect!.id, "--committed"]);
    expect(resolved.code).toBe(0);
    const done = await h.cli(["resume", "R"]);
    expect(done.stdout).toMatch(/run R: done/);
    expect((await h.stats("mail")).counters.sends).toBe(1);
  });
});

describe("compensable (book_flight, book_hotel; cancel_booking)", () => {
  it("cancel compensates in reverse commit order with the data recorded at commit, verified at the remote", async () => {
    await h.cli(runArgs("R"));
    const effects = await effectsOf("trip");
    expect(effects.map((e) => [e.tool, e.compensation?.tool])).toEqual([
      ["book_flight", "cancel_booking"],
      ["book_hotel", "cancel_booking"],
    ]);
    const preview = await h.cli(["cancel", "R", "--dry-run"]);
    expect(preview.stdout.indexOf("book_hotel")).toBeLessThan(preview.stdout.indexOf("book_flight"));
    const cancel = await h.cli(["cancel", "R"]);
    expect(cancel.code).toBe(0);
    const s = await h.open();
    const events = (await s.listEvents("R", { type: "compensation-verified" })).map((e) => String(e.data?.effect));
    expect(events).toEqual([effects[1]!.id, effects[0]!.id]);
    expect((await s.getRun("R"))?.status).toBe("cancelled");
    await s.close();
    const bookings = (await h.get("booking", "/bookings")) as Array<{ status: string }>;
    expect(bookings.map((b) => b.status)).toEqual(["cancelled", "cancelled"]);
  });

  it("a crash during compensation: cancel again finishes it; nothing is cancelled twice by mistake", async () => {
    await h.cli(runArgs("R"));
    expect((await h.cli(["cancel", "R"], { TASKSPEC_CRASH_AT: "during-compensation" })).signal).toBe("SIGKILL");
    expect((await h.cli(["cancel", "R"])).code).toBe(0);
    const bookings = (await h.get("booking", "/bookings")) as Array<{ status: string }>;
    expect(bookings.map((b) => b.status)).toEqual(["cancelled", "cancelled"]);
  });

  it("a compensation that fails blocks the run (no loop); an explicit cancel retries once", async () => {
    await h.cli(runArgs("R"));
    await h.faults("booking", { failNext: 5 });
    const failed = await h.cli(["cancel", "R"]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/compensation FAILED/);
    const status = JSON.parse((await h.cli(["status", "R", "--format", "json"])).stdout);
    expect(status.blocked[0].reason).toBe("compensation-failed");
    expect((await h.stats("booking")).counters.cancellations ?? 0).toBe(0);
    await h.faults("booking", { failNext: 0 });
    expect((await h.cli(["cancel", "R"])).code).toBe(0);
  });

  it("crash after booking the flight: the flight is adopted by lookup, the hotel booked once", async () => {
    expect((await h.cli(runArgs("R"), { TASKSPEC_CRASH_AT: "after-effect-before-receipt@trip/book_flight" })).signal).toBe("SIGKILL");
    await h.cli(["resume", "R"]);
    const stats = await h.stats("booking");
    expect(stats.callsPerKey["flight:R"]).toBe(1);
    expect(stats.callsPerKey["hotel:R"]).toBe(1);
    expect(stats.counters.creations).toBe(2);
  });
});
