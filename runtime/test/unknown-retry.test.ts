/**
 * When a retry after an effect of unknown outcome counts toward `retry.max`
 * (engine/unknown-retry.ts): only when recovery found the effect absent (or
 * to be repeated) and the attempt ended uncounted because of that effect.
 */
import { describe, expect, it } from "vitest";
import { decideUnknownRetry, type UnknownRetryInput } from "../src/engine/unknown-retry.js";

const effect = { id: "R/u/a1/1", tool: "create_post", attempt: 1, error: "blog POST /posts: 503" };

describe("decideUnknownRetry", () => {
  const cases: Array<[string, UnknownRetryInput, boolean, RegExp?]> = [
    [
      "absent by lookup after the attempt ended on it: counted",
      { effect, resolution: "absent", lookup: "find_post", interruptedBy: true },
      true,
      /^the outcome of create_post was unknown \(blog POST \/posts: 503\) and lookup find_post found it absent: attempt a1 made nothing/,
    ],
    [
      "idempotent, repeated under its key after the attempt ended on it: counted",
      { effect, resolution: "absent", interruptedBy: true },
      true,
      /and it is to be repeated/,
    ],
    [
      "found committed: the retry reuses the receipt, not counted",
      { effect, resolution: "committed", lookup: "find_post", interruptedBy: true },
      false,
    ],
    ["still unknown (blocked): not counted yet", { effect, resolution: "blocked", lookup: "find_post", interruptedBy: true }, false],
    [
      "absent, but its attempt did not end on it (the worker was killed: counted as a death)",
      { effect, resolution: "absent", lookup: "find_post", interruptedBy: false },
      false,
    ],
  ];
  it.each(cases)("%s", (_name, input, counted, message) => {
    const verdict = decideUnknownRetry(input);
    expect(verdict.count).toBe(counted);
    if (verdict.count) {
      expect(verdict.error).toMatchObject({ class: "tool-error", attempt: 1 });
      expect(verdict.error.message).toMatch(message!);
    }
  });
});
