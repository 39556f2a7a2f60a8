/**
 * A timed-out effect call is UNKNOWN, never a failure:
 * the blog takes the post at once but answers only after 5 s, the unit's
 * timeout is 2 s and it has no retries. The unit must not fail: the effect
 * is reconciled by lookup (adopted, never re-sent) and the run completes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { harnessPerTest, REMOTE_CONTRACT, REMOTE_HANDLERS } from "./runtime-harness.js";

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const h = harnessPerTest();

describe("a timeout after the effect was made", () => {
  it("makes the effect UNKNOWN and reconciles it by lookup; the unit does not fail, the post is made once", async () => {
    const contract = join(h.dir, "remote-timeout.task.yaml");
    const text = readFileSync(REMOTE_CONTRACT, "utf8");
    const edited = text.replace("  post:\n", "  post:\n    timeout: 2s\n    retry: { max: 0 }\n");
    expect(edited).not.toBe(text);
    writeFileSync(contract, edited);
    await h.faults("blog", { slowReplyMs: 5000 });
    await h.cli(["run", contract, "--handlers", REMOTE_HANDLERS, "--run", "R"]);
    await h.faults("blog", { slowReplyMs: 0 });
    await h.cli(["resume", "R"]);
    const view = JSON.parse((await h.cli(["show", "R", "post", "--format", "json"])).stdout);
    expect(view.failures).toBe(0);
    expect(view.state).toBe("succeeded");
    expect(view.effects.map((e: { state: string; lookupUsed?: string }) => e.state)).toEqual(["COMMITTED"]);
    const events = (await h.cli(["events", "R", "--format", "json"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.filter((e: { type: string; unit?: string }) => e.type === "attempt-failed" && e.unit === "post")).toEqual([]);
    expect(
      events.some((e: { type: string; data?: { outcome?: string } }) => e.type === "effect-reconciled" && e.data?.outcome === "found"),
    ).toBe(true);
    expect((await h.stats("blog")).callsPerKey["post:R:post"]).toBe(1);
  });
});
