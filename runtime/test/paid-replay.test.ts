/**
 * Paid calls are not paid twice (engine/paid-replay.ts): which earlier
 * answers a new attempt is handed back (a table of journals), when a request
 * ends the replay, and which ends of an attempt close the journal.
 */
import { describe, expect, it } from "vitest";
import { endsReplay, nextPaidCall, paidCallHash, replaySequence, type PaidCall, type ReplayEntry } from "../src/engine/paid-replay.js";
import type { AttemptOutcome } from "../src/engine/attempt-outcome.js";

const row = (
  attempt: number,
  seq: number,
  hash: string,
  state: PaidCall["state"] = "answered",
  extra: Partial<PaidCall> = {},
): PaidCall => ({
  run: "R",
  unit: "u",
  attempt,
  seq,
  iteration: 1,
  kind: "model",
  requestHash: hash,
  state,
  ...(state === "answered" ? { reply: `reply ${hash}@a${attempt}`, replayable: true } : {}),
  at: "2026-01-01T00:00:00.000Z",
  ...extra,
});

/** The sequence as `hash@attempt` for the table. */
const shown = (s: ReplayEntry[]) => s.map((e) => `${e.requestHash}@a${e.attempt}`);

describe("replaySequence: what the next attempt is handed back", () => {
  const cases: Array<[string, PaidCall[], number, string[]]> = [
    ["nothing journalled: nothing to replay", [], 2, []],
    ["one attempt, two answered calls: both, in order", [row(1, 0, "A"), row(1, 1, "B")], 2, ["A@a1", "B@a1"]],
    ["only earlier attempts count", [row(1, 0, "A"), row(2, 0, "X")], 2, ["A@a1"]],
    ["a closed row is not replayed (a verdict ended the replay)", [row(1, 0, "A", "answered", { closedAt: "t" })], 2, []],
    [
      "a call started and never answered ends the sequence there: it was paid, its answer is unknown",
      [row(1, 0, "A"), row(1, 1, "B", "started"), row(1, 2, "C")],
      2,
      ["A@a1"],
    ],
    ["a failed call ends the sequence there", [row(1, 0, "A"), row(1, 1, "B", "failed")], 2, ["A@a1"]],
    [
      "an answer not stored (it held a secret) ends the sequence there",
      [row(1, 0, "A"), row(1, 1, "B", "answered", { reply: undefined, replayable: false })],
      2,
      ["A@a1"],
    ],
    [
      "an attempt that replayed a prefix and died adds nothing: the longer earlier sequence stands",
      [row(1, 0, "A"), row(1, 1, "B"), row(2, 0, "A", "replayed")],
      3,
      ["A@a1", "B@a1"],
    ],
    [
      "an attempt that replayed and went further: the prefix, then its own calls",
      [row(1, 0, "A"), row(2, 0, "A", "replayed"), row(2, 1, "B")],
      3,
      ["A@a1", "B@a2"],
    ],
    [
      "an attempt that went another way: what followed its prefix is dropped",
      [row(1, 0, "A"), row(1, 1, "B"), row(1, 2, "C"), row(2, 0, "A", "replayed"), row(2, 1, "D")],
      3,
      ["A@a1", "D@a2"],
    ],
    ["an attempt that differed at once replaces everything", [row(1, 0, "A"), row(1, 1, "B"), row(2, 0, "Z")], 3, ["Z@a2"]],
    [
      "an attempt whose only fresh call never answered keeps just its prefix",
      [row(1, 0, "A"), row(1, 1, "B"), row(2, 0, "A", "replayed"), row(2, 1, "B2", "started")],
      3,
      ["A@a1"],
    ],
    [
      "three attempts, each further than the last",
      [row(1, 0, "A"), row(2, 0, "A", "replayed"), row(2, 1, "B"), row(3, 0, "A", "replayed"), row(3, 1, "B", "replayed"), row(3, 2, "C")],
      4,
      ["A@a1", "B@a2", "C@a3"],
    ],
    ["rows in any order are read in order of attempt and place", [row(1, 1, "B"), row(1, 0, "A")], 2, ["A@a1", "B@a1"]],
  ];
  it.each(cases)("%s", (_name, rows, attempt, want) => {
    expect(shown(replaySequence(rows, attempt))).toEqual(want);
  });

  it("hands back the reply as stored", () => {
    expect(replaySequence([row(1, 0, "A")], 2)[0]).toEqual({
      kind: "model",
      iteration: 1,
      requestHash: "A",
      reply: "reply A@a1",
      attempt: 1,
      seq: 0,
    });
  });
});

describe("nextPaidCall: a request that differs ends the replay from there", () => {
  const seq: ReplayEntry[] = [
    { kind: "model", iteration: 1, requestHash: "A", reply: 1, attempt: 1, seq: 0 },
    { kind: "charge", iteration: 1, requestHash: "C", reply: null, attempt: 1, seq: 1 },
    { kind: "model", iteration: 1, requestHash: "B", reply: 2, attempt: 1, seq: 2 },
  ];
  /** Runs the calls in order and says what each got: replay, fresh, or fresh ending the replay. */
  const walk = (sequence: ReplayEntry[], calls: Array<[ReplayEntry["kind"], string, number?]>) => {
    let cursor = { next: 0, over: false };
    return calls.map(([kind, hash, iteration]) => {
      const d = nextPaidCall(sequence, cursor, kind, hash, iteration);
      cursor = d.cursor;
      return d.kind === "replay" ? "replay" : d.ended ? `fresh (${d.ended})` : "fresh";
    });
  };
  /** A loop's calls: A in iteration 1, B and C in iteration 2. */
  const loop: ReplayEntry[] = [
    { kind: "model", iteration: 1, requestHash: "A", reply: 1, attempt: 1, seq: 0 },
    { kind: "model", iteration: 2, requestHash: "B", reply: 2, attempt: 1, seq: 1 },
    { kind: "model", iteration: 2, requestHash: "C", reply: 3, attempt: 1, seq: 2 },
  ];
  const cases: Array<[string, ReplayEntry[], Array<[ReplayEntry["kind"], string, number?]>, string[]]> = [
    [
      "the same calls: each replayed",
      seq,
      [
        ["model", "A"],
        ["charge", "C"],
        ["model", "B"],
      ],
      ["replay", "replay", "replay"],
    ],
    [
      "more calls than recorded: fresh after the last",
      seq,
      [
        ["model", "A"],
        ["charge", "C"],
        ["model", "B"],
        ["model", "D"],
        ["model", "E"],
      ],
      ["replay", "replay", "replay", "fresh (exhausted)", "fresh"],
    ],
    [
      "a differing request ends it: a later one that would match is made afresh",
      seq,
      [
        ["model", "A"],
        ["model", "X"],
        ["model", "B"],
      ],
      ["replay", "fresh (differs)", "fresh"],
    ],
    ["the same hash of another kind differs", seq, [["charge", "A"]], ["fresh (differs)"]],
    ["nothing recorded: fresh, no replay to end", [], [["model", "A"]], ["fresh"]],
    [
      "a loop resumed after its committed iteration 1: iteration 2's calls replayed, iteration 1's passed over",
      loop,
      [
        ["model", "B", 2],
        ["model", "C", 2],
      ],
      ["replay", "replay"],
    ],
    [
      "the same request in another iteration is not the same call",
      loop,
      [
        ["model", "A", 1],
        ["model", "A", 2],
      ],
      ["replay", "fresh (differs)"],
    ],
    ["a later iteration than any recorded: fresh", loop, [["model", "B", 3]], ["fresh (exhausted)"]],
  ];
  it.each(cases)("%s", (_name, sequence, calls, want) => {
    expect(walk(sequence, calls)).toEqual(want);
  });
});

describe("endsReplay: which ends of an attempt close the journal", () => {
  const cases: Array<[AttemptOutcome["kind"], boolean | undefined, boolean]> = [
    ["succeeded", undefined, true],
    ["failed", true, true], // verifiers failed, the handler threw, a timeout, a guard: a verdict
    ["failed", false, false], // discarded uncounted
    ["approval", undefined, false], // held at the gate after preparing its request: the sending attempt replays
    ["budget", undefined, false],
    ["unknown-effect", undefined, false],
    ["corrupt-input", undefined, false],
    ["lease-lost", undefined, false],
    ["plan-changed", undefined, false],
    ["store-lost", undefined, false],
  ];
  it.each(cases)("%s (counted %s): %s", (kind, counts, want) => {
    expect(endsReplay(kind, counts)).toBe(want);
  });
});

describe("paidCallHash", () => {
  it("is the canonical request's: key order does not matter, kind and values do", () => {
    const a = paidCallHash("model", { messages: [{ role: "user", content: "hi" }], max_tokens: 5 });
    expect(paidCallHash("model", { max_tokens: 5, messages: [{ content: "hi", role: "user" }] })).toBe(a);
    expect(paidCallHash("charge", { max_tokens: 5, messages: [{ content: "hi", role: "user" }] })).not.toBe(a);
    expect(paidCallHash("model", { messages: [{ role: "user", content: "hi!" }], max_tokens: 5 })).not.toBe(a);
  });
});
