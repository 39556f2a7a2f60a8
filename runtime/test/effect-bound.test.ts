/**
 * How many distinct effects of a dedup or irreversible tool a unit may make
 * (ledger/effect-bound.ts): counted from the store's effects of the unit,
 * per iteration, across its attempts since its latest committed record.
 */
import { describe, expect, it } from "vitest";
import { boundOf, decideEffectBound, effectIdentity, type EffectBoundInput } from "../src/ledger/effect-bound.js";

type E = EffectBoundInput["effects"][number];
let seq = 0;
const effect = (key: string | undefined, over: Partial<E> = {}): E => ({
  id: `R/u/a1/${++seq}`,
  attempt: 1,
  seq,
  state: "COMMITTED",
  iteration: 1,
  ...(key !== undefined ? { key } : {}),
  requestHash: `h-${key ?? seq}`,
  argsDigest: "d",
  ...over,
});
const base = { iteration: 1, bound: 1, since: 0 };

describe("decideEffectBound", () => {
  const cases: Array<[string, EffectBoundInput, false | string[]]> = [
    ["the first key", { ...base, identity: "k1", effects: [] }, false],
    ["the same key again (a reuse or a retry of the same effect)", { ...base, identity: "k1", effects: [effect("k1")] }, false],
    ["a second key with no declared bound: refused", { ...base, identity: "k2", effects: [effect("k1")] }, ["k1"]],
    ["a second key within a declared bound of 2", { ...base, bound: 2, identity: "k2", effects: [effect("k1")] }, false],
    ["the third key past a bound of 2", { ...base, bound: 2, identity: "k3", effects: [effect("k1"), effect("k2")] }, ["k1", "k2"]],
    ["an UNKNOWN effect counts (it may have happened)", { ...base, identity: "k2", effects: [effect("k1", { state: "UNKNOWN" })] }, ["k1"]],
    [
      "a FAILED effect does not count (it surely did not happen)",
      { ...base, identity: "k2", effects: [effect("k1", { state: "FAILED" })] },
      false,
    ],
    [
      "a request held at a gate does not count (it is replaced, never sent)",
      { ...base, identity: "k2", effects: [effect("k1", { state: "PREPARED", held: { reason: "approval" } as E["held"] })] },
      false,
    ],
    [
      "another loop iteration is counted apart",
      { ...base, iteration: 2, identity: "k2", effects: [effect("k1", { iteration: 1 })] },
      false,
    ],
    [
      "an earlier attempt of the same run of the unit counts (a retry does not reset it)",
      { ...base, identity: "k2", effects: [effect("k1", { attempt: 1 })] },
      ["k1"],
    ],
    [
      "an attempt of an earlier run of the unit (before its latest record) does not",
      { ...base, since: 2, identity: "k2", effects: [effect("k1", { attempt: 2 })] },
      false,
    ],
    [
      "two calls that passed together: in the store's order the later one is beyond the bound",
      { ...base, identity: "k2", effects: [effect("k1", { state: "PREPARED", seq: 1 }), effect("k2", { state: "PREPARED", seq: 2 })] },
      ["k1"],
    ],
    [
      "...and the earlier one is not",
      { ...base, identity: "k1", effects: [effect("k1", { state: "PREPARED", seq: 1 }), effect("k2", { state: "PREPARED", seq: 2 })] },
      false,
    ],
    [
      "keyless calls count by request",
      { ...base, identity: "request:h-b", effects: [effect(undefined, { requestHash: "h-a" })] },
      ["request:h-a"],
    ],
  ];
  it.each(cases)("%s", (_name, input, refused) => {
    const verdict = decideEffectBound(input);
    expect(verdict.refused ? verdict.earlier : false).toEqual(refused);
  });

  it("an effect's identity is its key, else its request", () => {
    expect(effectIdentity({ key: "k", requestHash: "h", argsDigest: "d" })).toBe("k");
    expect(effectIdentity({ requestHash: "h", argsDigest: "d" })).toBe("request:h");
    expect(effectIdentity({ argsDigest: "d" })).toBe("request:d");
  });

  it("the bound is the declared one, else one", () => {
    expect(boundOf({ effects: { post: { max: 3 } } }, "post")).toEqual({ max: 3, declared: true });
    expect(boundOf({}, "post")).toEqual({ max: 1, declared: false });
    expect(boundOf({ effects: { other: { max: 3 } } }, "post")).toEqual({ max: 1, declared: false });
  });
});
