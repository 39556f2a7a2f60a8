/**
 * The artifact backends' local read cache (runtime/src/artifacts/read-cache.ts):
 * bounded in bytes, least recently used dropped first, copies in and out.
 */
import { describe, expect, it } from "vitest";
import { ReadCache } from "../src/artifacts/read-cache.js";

const blob = (n: number, fill = 1) => new Uint8Array(n).fill(fill);

describe("ReadCache", () => {
  it.each([
    {
      name: "keeps what fits",
      max: 10,
      puts: [
        ["a", 4],
        ["b", 4],
      ],
      gets: ["a", "b"],
      kept: ["a", "b"],
      size: 8,
    },
    {
      name: "drops the oldest past the bound",
      max: 10,
      puts: [
        ["a", 4],
        ["b", 4],
        ["c", 4],
      ],
      gets: [],
      kept: ["b", "c"],
      size: 8,
    },
    {
      name: "a read makes an entry the newest",
      max: 10,
      puts: [
        ["a", 4],
        ["b", 4],
        ["@a", 0],
        ["c", 4],
      ],
      gets: [],
      kept: ["a", "c"],
      size: 8,
    },
    {
      name: "never keeps a blob larger than the bound",
      max: 10,
      puts: [
        ["a", 4],
        ["big", 11],
      ],
      gets: [],
      kept: ["a"],
      size: 4,
    },
    {
      name: "a key already held is not counted twice",
      max: 10,
      puts: [
        ["a", 4],
        ["a", 4],
      ],
      gets: [],
      kept: ["a"],
      size: 4,
    },
  ] as const)("$name", ({ max, puts, kept, size }) => {
    const cache = new ReadCache(max);
    for (const [key, n] of puts) {
      if (key.startsWith("@")) cache.get(key.slice(1));
      else cache.put(key, blob(n));
    }
    for (const key of ["a", "b", "c", "big"]) expect(cache.get(key) !== undefined, key).toBe(kept.includes(key as never));
    expect(cache.size).toBe(size);
  });

  it("hands out copies: a caller changing its bytes does not change the cache", () => {
    const cache = new ReadCache(100);
    const data = blob(3, 7);
    cache.put("k", data);
    data[0] = 0;
    const out = cache.get("k")!;
    out[1] = 0;
    expect([...cache.get("k")!]).toEqual([7, 7, 7]);
  });
});
