/**
 * The server's heap policy: a full collection when the server goes idle (no
 * check, no request) with 32 MB of growth since the last one, or at the end
 * of a check (before its diagnostics go out) when a heap over 160 MB has
 * grown by a quarter; never in the turns after it, where the first requests
 * of a new version would wait for it; and only in a process started with
 * --expose-gc.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IDLE_MS, heapKeeper } from "../src/adapters/heap.js";

const MB = 1024 * 1024;
/** What a collection leaves in these tests. */
const SURVIVORS = 90 * MB;

describe("heap keeper", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A keeper started at 60 MB whose heap then stands at `initial`. */
  function keeperOver(initial: number) {
    const state = { used: 60 * MB, collections: [] as number[] };
    const keeper = heapKeeper(
      () => {
        // the keeper collects twice in a row; record the collection once
        if (state.used !== SURVIVORS) state.collections.push(state.used);
        state.used = SURVIVORS;
      },
      () => state.used,
    );
    state.used = initial;
    return { state, keeper };
  }

  it("collects once the server is idle with 32 MB of growth, not while work goes on", () => {
    vi.useFakeTimers();
    const { state, keeper } = keeperOver(100 * MB);
    keeper.afterWork();
    vi.advanceTimersByTime(IDLE_MS - 1);
    keeper.afterWork(); // more work: the idle spell starts again
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(state.collections).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(state.collections).toEqual([100 * MB]);

    state.used = 120 * MB; // 30 MB over the 90 MB that survived
    keeper.afterWork();
    vi.advanceTimersByTime(IDLE_MS);
    expect(state.collections).toHaveLength(1);
    state.used = 140 * MB;
    keeper.afterWork();
    vi.advanceTimersByTime(IDLE_MS);
    expect(state.collections).toEqual([100 * MB, 140 * MB]);
  });

  it("collects at the end of the work, not in the turns after it, once a heap over 160 MB has grown by a quarter", () => {
    vi.useFakeTimers();
    const { state, keeper } = keeperOver(100 * MB);
    keeper.afterWork();
    vi.advanceTimersByTime(IDLE_MS);
    state.used = 210 * MB;
    keeper.afterWork();
    // before the work's result is sent: nothing is left for the requests that follow it
    expect(state.collections).toEqual([100 * MB, 210 * MB]);
    state.used = 100 * MB; // what the requests then add is not worth a collection
    vi.runOnlyPendingTimers();
    expect(state.collections).toHaveLength(2);
  });

  it("puts an idle collection off while requests go on, and never starts one for requests alone", () => {
    vi.useFakeTimers();
    const { state, keeper } = keeperOver(150 * MB); // worth an idle collection, not one at once
    keeper.busy();
    vi.advanceTimersByTime(10 * IDLE_MS);
    expect(state.collections).toEqual([]);
    keeper.afterWork();
    for (let i = 0; i < 5; i++) {
      vi.advanceTimersByTime(IDLE_MS - 1);
      keeper.busy(); // a lens, a hover...
    }
    expect(state.collections).toEqual([]);
    vi.advanceTimersByTime(IDLE_MS);
    expect(state.collections).toEqual([150 * MB]);
  });

  it("does not collect a heap under 160 MB while typing goes on, however it grew, only once idle", () => {
    vi.useFakeTimers();
    const { state, keeper } = keeperOver(150 * MB); // 2.5 times the 60 MB at start
    keeper.afterWork();
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(state.collections).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(state.collections).toEqual([150 * MB]);
  });

  it("leaves small heaps to V8", () => {
    vi.useFakeTimers();
    const { state, keeper } = keeperOver(40 * MB);
    keeper.afterWork();
    vi.advanceTimersByTime(10 * IDLE_MS);
    expect(state.collections).toEqual([]);
  });

  /** Runs `script` in a fresh Node process (after `npx tsc -b`: it imports the built keeper). */
  function node(execArgv: string[], script: string): string {
    const url = pathToFileURL(join(import.meta.dirname, "../dist/adapters/heap.js")).href;
    return execFileSync(
      process.execPath,
      [...execArgv, "--input-type=module", "-e", `import * as heap from ${JSON.stringify(url)};\n${script}`],
      { encoding: "utf8" },
    ).trim();
  }

  it("leaves the heap to V8 in a process started without --expose-gc, and never turns the flag on", () => {
    // the old keeper flipped --expose-gc at run time: a new context then saw `gc`
    const out = node(
      [],
      `heap.heapKeeper().afterWork(); const { runInNewContext } = await import("node:vm"); console.log(String(heap.exposedGc()), runInNewContext("typeof gc"));`,
    );
    expect(out).toBe("undefined undefined");
  });

  it("collects with V8's collector in a process started with --expose-gc", () => {
    const out = node(
      ["--expose-gc"],
      `let garbage = Array.from({ length: 50 }, () => new Array(100_000).fill(1)); garbage = undefined;
       const before = process.memoryUsage().heapUsed; let reads = 0;
       heap.heapKeeper(undefined, () => (reads++ === 0 ? 0 : 1e12)).afterWork(); // empty at start, then huge: collect now
       console.log(typeof heap.exposedGc(), process.memoryUsage().heapUsed < before);`,
    );
    expect(out).toBe("function true");
  });
});
