import { describe, expect, it } from "vitest";
import { fairOrder, nextVisits, type QueuedRun, type RunQueueInput } from "../src/scheduler/run-queue.js";

const run = (id: string, over: Partial<QueuedRun> = {}): QueuedRun => ({
  run: id,
  queue: "default",
  priority: 0,
  submittedAt: `2026-01-01T00:00:0${id.replace(/\D/g, "").slice(-1) || "0"}.000Z`,
  ...over,
});
const input = (over: Partial<RunQueueInput>): RunQueueInput => ({
  ready: [],
  visiting: [],
  lastVisit: new Map(),
  concurrency: 4,
  queueLimits: {},
  ...over,
});

describe("the order runs are visited in", () => {
  it.each<[string, QueuedRun[], Array<[string, number]>, string[]]>([
    ["runs never visited go in submission order", [run("r3"), run("r1"), run("r2")], [], ["r1", "r2", "r3"]],
    ["a run never visited goes before one visited", [run("r1"), run("r2")], [["r1", 5]], ["r2", "r1"]],
    [
      "visited runs go least recently visited first",
      [run("r1"), run("r2"), run("r3")],
      [
        ["r1", 9],
        ["r2", 3],
        ["r3", 6],
      ],
      ["r2", "r3", "r1"],
    ],
    ["higher priority first, whatever was visited", [run("r1"), run("r2", { priority: 5 }), run("r3")], [["r2", 9]], ["r2", "r1", "r3"]],
    [
      "queues take turns: a tenant with many runs does not starve one with few",
      [run("a1", { queue: "a" }), run("a2", { queue: "a" }), run("a3", { queue: "a" }), run("b4", { queue: "b" })],
      [],
      ["a1", "b4", "a2", "a3"],
    ],
    [
      "the queue visited longest ago goes first",
      [run("a1", { queue: "a" }), run("a2", { queue: "a" }), run("b3", { queue: "b" })],
      [
        ["a1", 7],
        ["b3", 2],
      ],
      ["b3", "a2", "a1"],
    ],
    [
      "tenants of one queue take turns by key: one with many runs does not starve one with few",
      [
        run("t1", { queue: "q", key: "acme" }),
        run("t2", { queue: "q", key: "acme" }),
        run("t3", { queue: "q", key: "acme" }),
        run("t4", { queue: "q", key: "zeta" }),
      ],
      [],
      ["t1", "t4", "t2", "t3"],
    ],
  ])("%s", (_name, ready, visits, order) => {
    expect(fairOrder(ready, new Map(visits)).map((r) => r.run)).toEqual(order);
  });
});

describe("the visits a worker starts", () => {
  it("a queue's limit counts the runs of all its tenants", () => {
    const ready = [run("t1", { queue: "q", key: "a" }), run("t2", { queue: "q", key: "b" }), run("t3", { queue: "q", key: "c" })];
    expect(nextVisits(input({ ready, queueLimits: { q: 2 } })).map((v) => v.run)).toEqual(["t1", "t2"]);
  });

  it.each<[string, Partial<RunQueueInput>, Array<[string, number]>]>([
    [
      "free slots are shared evenly between the runs that start",
      { ready: [run("r1"), run("r2")] },
      [
        ["r1", 2],
        ["r2", 2],
      ],
    ],
    ["one run alone takes every slot", { ready: [run("r1")] }, [["r1", 4]]],
    [
      "more runs than slots: one slot each, the first in order",
      { ready: [1, 2, 3, 4, 5, 6].map((i) => run(`r${i}`)) },
      [
        ["r1", 1],
        ["r2", 1],
        ["r3", 1],
        ["r4", 1],
      ],
    ],
    [
      "a run's own limit caps its share, the rest goes to the next",
      { ready: [run("r1", { runLimit: 1 }), run("r2")] },
      [
        ["r1", 1],
        ["r2", 3],
      ],
    ],
    [
      "slots held by visits in progress are not free; their runs are not visited twice",
      { ready: [run("r1"), run("r2")], visiting: [{ run: "r1", queue: "default", slots: 3 }] },
      [["r2", 1]],
    ],
    ["no free slot: nothing starts", { ready: [run("r2")], visiting: [{ run: "r1", queue: "default", slots: 4 }] }, []],
    [
      "a queue's limit caps its runs visited at once; other queues take the slots",
      { ready: [run("a1", { queue: "a" }), run("a2", { queue: "a" }), run("b3", { queue: "b" })], queueLimits: { a: 1 } },
      [
        ["a1", 2],
        ["b3", 2],
      ],
    ],
    [
      "a queue at its limit with visits in progress starts none",
      { ready: [run("a2", { queue: "a" })], visiting: [{ run: "a1", queue: "a", slots: 1 }], queueLimits: { a: 1 } },
      [],
    ],
  ])("%s", (_name, over, starts) => {
    expect(nextVisits(input(over)).map((v) => [v.run, v.slots])).toEqual(starts);
  });

  it("every one of many runs submitted at once is visited within ceil(runs / slots) rounds", () => {
    const ready = Array.from({ length: 200 }, (_, i) =>
      run(`r${i}`, { submittedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }),
    );
    const lastVisit = new Map<string, number>();
    let rounds = 0;
    while (lastVisit.size < ready.length) {
      rounds++;
      for (const v of nextVisits(input({ ready, lastVisit, concurrency: 16 }))) lastVisit.set(v.run, rounds);
    }
    expect(rounds).toBe(Math.ceil(200 / 16));
    expect(lastVisit.get("r199")).toBe(rounds);
  });
});
