import { describe, expect, it } from "vitest";
import { judgeOwner, type OwnerFacts, type OwnerVerdict } from "../src/engine/owner-verdict.js";
import { workerIdOf } from "../src/engine/owner.js";

const T = Date.parse("2026-12-07T12:00:00.000Z");
const t = (s: number) => new Date(T + s * 1000).toISOString();
const STALE = 16_000;

/** Another host's worker, judged from a fresh snapshot read at t(0) by an asker beating since t(-60). */
const base: OwnerFacts = {
  self: false,
  sameSpace: false,
  samePid: false,
  worker: { heartbeatAt: t(-2) },
  snapshot: { at: t(0), beatingSince: t(-60), now: t(1) },
  staleMs: STALE,
};

describe("is a lease's owner dead", () => {
  it.each<[string, Partial<OwnerFacts>, OwnerVerdict["why"], boolean]>([
    ["the asker itself never is", { self: true, worker: { heartbeatAt: t(-600) } }, "self", false],
    ["an earlier engine of the asker's own process is", { sameSpace: true, samePid: true }, "earlier-worker-of-this-process", true],
    ["a gone process of the asker's pid space is, whatever its heartbeat", { sameSpace: true, pid: "gone" }, "process-gone", true],
    ["a beating worker is not", {}, "alive", false],
    ["a live pid of this space that beats is not", { sameSpace: true, pid: "alive" }, "alive", false],
    [
      "a live pid of this space that stopped beating (frozen) is",
      { sameSpace: true, pid: "alive", worker: { heartbeatAt: t(-17) } },
      "heartbeat-stale",
      true,
    ],
    ["a worker silent past the bound is", { worker: { heartbeatAt: t(-16.001) } }, "heartbeat-stale", true],
    ["a worker silent exactly the bound is not yet", { worker: { heartbeatAt: t(-16) } }, "alive", false],
    ["a worker that stopped is, at once", { worker: { heartbeatAt: t(-1), stoppedAt: t(-1) } }, "stopped", true],
    [
      "silence is counted only while the asker beats: after the asker's outage, a full bound again",
      { worker: { heartbeatAt: t(-60) }, snapshot: { at: t(0), beatingSince: t(-10), now: t(0.5) } },
      "alive",
      false,
    ],
    [
      "... and once the asker has beaten for the bound, the silent one is dead",
      { worker: { heartbeatAt: t(-60) }, snapshot: { at: t(0), beatingSince: t(-17), now: t(0.5) } },
      "heartbeat-stale",
      true,
    ],
    [
      "an asker whose own snapshot is older than the bound judges by nothing",
      { worker: { heartbeatAt: t(-60) }, snapshot: { at: t(0), beatingSince: t(-120), now: t(17) } },
      "unknown",
      false,
    ],
    ["an owner without a worker row (never registered) is judged by its lease's expiry", { worker: undefined }, "unknown", false],
    ["an asker without a snapshot judges by lease expiry only", { snapshot: undefined }, "unknown", false],
    ["a pid in another space is never probed: a gone-looking pid there means nothing", { pid: undefined }, "alive", false],
  ])("%s", (_name, change, why, dead) => {
    const facts = { ...base, ...change } as OwnerFacts;
    if ("worker" in change && change.worker === undefined) delete facts.worker;
    if ("snapshot" in change && change.snapshot === undefined) delete facts.snapshot;
    expect(judgeOwner(facts)).toEqual({ dead, why });
  });

  it("a lease owner names its process's worker row; an owner from before the rows is its own", () => {
    expect(workerIdOf("h:12:abcd.3:space")).toBe("h:12:abcd:space");
    expect(workerIdOf("h:12:abcd:space")).toBe("h:12:abcd:space");
    expect(workerIdOf("h:12:abcd")).toBe("h:12:abcd");
  });
});
