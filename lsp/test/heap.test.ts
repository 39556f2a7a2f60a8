/** The server's heap policy: a full collection once the heap has grown by half since the last one, never on the path of the work itself. */
import { describe, expect, it } from "vitest";
import { heapKeeper } from "../src/adapters/heap.js";

const MB = 1024 * 1024;
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("heap keeper", () => {
  it("collects after work once the heap has grown by half since the last collection, and not before", async () => {
    let used = 100 * MB;
    const collections: number[] = [];
    const keeper = heapKeeper(
      () => {
        collections.push(used);
        used = 120 * MB; // what survives
      },
      () => used,
    );
    keeper.afterWork();
    expect(collections).toEqual([]); // not during the work's own turn
    await turn();
    expect(collections).toEqual([100 * MB]);
    used = 170 * MB; // under 1.5 times the 120 MB that survived
    keeper.afterWork();
    await turn();
    expect(collections).toHaveLength(1);
    used = 190 * MB;
    keeper.afterWork();
    keeper.afterWork(); // folded into one
    await turn();
    expect(collections).toEqual([100 * MB, 190 * MB]);
  });

  it("leaves small heaps to V8", async () => {
    let calls = 0;
    const keeper = heapKeeper(() => calls++, () => 40 * MB);
    keeper.afterWork();
    await turn();
    expect(calls).toBe(0);
  });

  it("finds V8's collector without a command-line flag", async () => {
    // the real collector: after it, most of a large garbage allocation is gone
    let garbage: number[][] | undefined = Array.from({ length: 50 }, () => new Array(100_000).fill(1));
    garbage = undefined;
    void garbage;
    const before = process.memoryUsage().heapUsed;
    const keeper = heapKeeper(undefined, () => 1e12);
    keeper.afterWork();
    await turn();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before);
  });
});
