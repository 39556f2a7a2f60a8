/** Retry backoff: the wait before each extra attempt, exponential, capped and jittered. */
import { describe, expect, it } from "vitest";
import { DEFAULT_BACKOFF, type Backoff } from "@taskspec/compiler";
import { retryDelayMs, retryNotBefore } from "../src/scheduler/backoff.js";

const b = (over: Partial<Backoff> = {}): Backoff => ({ initialMs: 100, maxMs: 1000, factor: 2, jitter: "none", ...over });

describe("retryDelayMs: the wait after the k-th counted failure", () => {
  it.each([
    // [case, backoff, failures, random, delay]
    ["first failure waits initial", b(), 1, 0.5, 100],
    ["second doubles", b(), 2, 0.5, 200],
    ["third doubles again", b(), 3, 0.5, 400],
    ["capped at max", b(), 5, 0.5, 1000],
    ["far past the cap stays at the cap (no overflow)", b(), 5000, 0.5, 1000],
    ["factor 1 is a constant wait", b({ factor: 1 }), 4, 0.5, 100],
    ["a factor of 3", b({ factor: 3 }), 3, 0.5, 900],
    ["equal jitter keeps half: draw 0", b({ jitter: "equal" }), 2, 0, 100],
    ["equal jitter: draw just under 1", b({ jitter: "equal" }), 2, 0.999999, 200],
    ["equal jitter: mid draw", b({ jitter: "equal" }), 2, 0.5, 150],
    ["full jitter: draw 0 waits nothing", b({ jitter: "full" }), 3, 0, 0],
    ["full jitter: mid draw", b({ jitter: "full" }), 3, 0.25, 100],
    ["the defaults: 1 s, equal jitter", { ...DEFAULT_BACKOFF }, 1, 0, 500],
    ["the defaults cap at 5 min", { ...DEFAULT_BACKOFF }, 20, 0.999999, 300_000],
  ] as const)("%s", (_name, backoff, failures, random, delay) => {
    expect(retryDelayMs(backoff, failures, random)).toBe(delay);
  });

  it("equal jitter never shrinks the wait from one failure to the next (before the cap)", () => {
    for (let k = 1; k < 4; k++)
      expect(retryDelayMs(b({ jitter: "equal" }), k + 1, 0)).toBeGreaterThanOrEqual(retryDelayMs(b({ jitter: "equal" }), k, 0.999999));
  });
});

describe("retryNotBefore: when the next attempt may start", () => {
  const unit = { retry: { max: 2, backoff: b() } };
  it("adds the delay to now while attempts are left", () => {
    expect(retryNotBefore(unit, 1, "2026-01-01T00:00:00.000Z", 0)).toEqual({ notBefore: "2026-01-01T00:00:00.100Z", delayMs: 100 });
    expect(retryNotBefore(unit, 2, "2026-01-01T00:00:00.000Z", 0)).toEqual({ notBefore: "2026-01-01T00:00:00.200Z", delayMs: 200 });
  });
  it("schedules nothing once the failures pass retry.max (the unit fails instead)", () => {
    expect(retryNotBefore(unit, 3, "2026-01-01T00:00:00.000Z", 0)).toBeUndefined();
  });
  it("a plan from an older compiler (no backoff) gets the default", () => {
    expect(retryNotBefore({ retry: { max: 1 } }, 1, "2026-01-01T00:00:00.000Z", 0)!.delayMs).toBe(500);
  });
});
