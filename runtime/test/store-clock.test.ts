import { describe, expect, it } from "vitest";
import { clockOffsetMs, StoreClock } from "../src/engine/store-clock.js";
import { newOwner, ownerIsDead, pidSpace } from "../src/engine/owner.js";

describe("a worker's clock is its store's", () => {
  const T = Date.parse("2026-12-07T12:00:00.000Z");
  it.each([
    ["a store on time, answered at once", T, T, T, 0],
    ["a store 60 s ahead of this host", T, T + 60_000, T, 60_000],
    ["a host 60 s ahead of its store", T + 60_000, T, T + 60_000, -60_000],
    ["the round trip's midpoint is the store's reading", T, T + 50, T + 100, 0],
  ])("%s", (_name, sent, store, received, offset) => {
    expect(clockOffsetMs(sent, new Date(store).toISOString(), received)).toBe(offset);
  });

  it("an answer that is not a time is refused, not taken for an offset", () => {
    expect(() => clockOffsetMs(T, "soon", T)).toThrow(/not a time/);
  });

  it("a host clock 60 s ahead reads the store's time after a sync, and keeps the offset between syncs", async () => {
    let host = T + 60_000;
    let store = T;
    const clock = new StoreClock({ clock: async () => new Date(store).toISOString() }, () => host);
    expect(clock.now().getTime()).toBe(T + 60_000); // before the first sync: the host's own
    await clock.sync();
    expect(clock.offsetMs).toBe(-60_000);
    expect(clock.now().toISOString()).toBe(new Date(T).toISOString());
    host += 1_000;
    store += 1_000;
    expect(clock.now().getTime()).toBe(T + 1_000);
    // the host's clock jumps: the next sync finds the store again
    host += 3_600_000;
    await clock.sync();
    expect(clock.now().getTime()).toBe(T + 1_000);
  });
});

describe("a lease owner's identity", () => {
  const [host, pid, , space] = newOwner().split(":");
  it("is unique per worker even in one process, and names this pid space", () => {
    expect(newOwner()).not.toBe(newOwner());
    expect(pid).toBe(String(process.pid));
    expect(space).toBe(pidSpace());
  });

  it.each([
    ["a gone process of this pid space is dead", `${host}:999999999:n:${pidSpace()}`, true],
    ["an earlier worker of this very process is dead", `${host}:${process.pid}:n:${pidSpace()}`, true],
    ["a live process of this pid space is alive", `${host}:1:n:${pidSpace()}`, false],
    ["the same host and pid in another pid space is never judged by pid", `${host}:${process.pid}:n:0123456789ab`, false],
    ["a gone pid in another pid space is never judged by pid", `${host}:999999999:n:0123456789ab`, false],
    ["an owner written without a pid space (host:pid:nonce) is never judged by pid", `${host}:${process.pid}:n`, false],
    ["itself is never dead", "self", false],
  ])("%s", (_name, owner, dead) => {
    expect(ownerIsDead(owner, owner === "self" ? owner : newOwner())).toBe(dead);
  });
});
