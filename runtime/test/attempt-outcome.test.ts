/**
 * decideAttempt, the one place that decides how an attempt ended: a table of
 * refusals and handler endings and the outcome each gives.
 */
import { describe, expect, it } from "vitest";
import { CorruptArtifactError } from "../src/artifacts/storage.js";
import { BudgetBlockedError, EffectUnknownError, GuardError, PlanVersionChangedError } from "../src/errors.js";
import { decideAttempt, verdictOf, type HandlerEnd, type Manifest, type Refusals } from "../src/engine/attempt-outcome.js";

const leftover = { name: "x", path: "runs/R/u/a1/x" } as Manifest;
const guard = new GuardError("u", "charge", "ctx.charge refused: model_calls is -1: a charge is never negative");
const budget = new BudgetBlockedError("model_calls", 9, 10, 2);
const unknown = new EffectUnknownError("e1", "post is UNKNOWN");
const corrupt = new CorruptArtifactError("runs/R/p/a1/in.json", "aa", "bb");
const planChanged = new PlanVersionChangedError("R", "p1", "p2");

const decide = (end: HandlerEnd, refusals: Refusals = {}, missing: string[] = []) =>
  decideAttempt({ unitId: "u", refusals, end, leftovers: [leftover], missing });

const failed = (cls: string, message: RegExp) => ({
  kind: "failed",
  error: { class: cls, message: expect.stringMatching(message) },
  countsAsFailure: true,
  rejected: [leftover],
});

describe("decideAttempt", () => {
  const cases: Array<[string, HandlerEnd, Refusals, string[], unknown]> = [
    ["returned, everything written: verify", { kind: "returned", result: { ok: true } }, {}, [], { kind: "verify", result: { ok: true } }],
    ["returned undefined: verify null", { kind: "returned", result: undefined }, {}, [], { kind: "verify", result: null }],
    [
      "returned, an artifact missing",
      { kind: "returned", result: {} },
      {},
      ["out"],
      failed("invalid-result", /did not write its declared artifact\(s\) out/),
    ],
    [
      "lease lost beats everything",
      { kind: "threw", message: "x" },
      { leaseLost: "stale", violation: guard },
      [],
      { kind: "lease-lost", message: "stale" },
    ],
    [
      "the store went away under a ctx request: whatever the handler did, not its failure",
      { kind: "threw", message: "store unavailable" },
      { storeLost: "connection reset", violation: guard },
      [],
      { kind: "store-lost", message: "connection reset" },
    ],
    [
      "a lost lease still beats a lost store",
      { kind: "returned", result: {} },
      { leaseLost: "stale", storeLost: "connection reset" },
      [],
      { kind: "lease-lost", message: "stale" },
    ],
    [
      "a tool call refused because the run left the attempt's plan: discarded, beats the handler's own end and a guard refusal",
      { kind: "threw", message: "x" },
      { planChanged, violation: guard },
      [],
      { kind: "plan-changed", error: planChanged, rejected: [leftover] },
    ],
    [
      "a lost lease beats a plan change",
      { kind: "returned", result: {} },
      { leaseLost: "stale", planChanged },
      [],
      { kind: "lease-lost", message: "stale" },
    ],
    [
      "a guard refusal beats a normal return",
      { kind: "returned", result: { ok: true } },
      { violation: guard },
      [],
      failed("guard", /never negative/),
    ],
    [
      "a budget block",
      { kind: "threw", message: "x" },
      { budgetBlock: budget },
      [],
      { kind: "budget", error: budget, rejected: [leftover] },
    ],
    [
      "an unknown effect",
      { kind: "returned", result: {} },
      { unknown },
      [],
      { kind: "unknown-effect", effectId: "e1", message: "post is UNKNOWN", rejected: [leftover] },
    ],
    [
      "a corrupt input names its producer",
      { kind: "threw", message: "x" },
      { corrupt },
      [],
      { kind: "corrupt-input", producer: "p", path: corrupt.path, message: corrupt.message, rejected: [leftover] },
    ],
    ["no handler", { kind: "no-handler" }, {}, [], failed("handler-error", /no handler for unit u/)],
    ["garbage result", { kind: "invalid-result", problem: "result is NaN" }, {}, [], failed("invalid-result", /garbage: result is NaN/)],
    ["loop exhausted", { kind: "loop-exhausted", message: "loop stopped after max 3" }, {}, [], failed("loop-exhausted", /max 3/)],
    ["timeout", { kind: "timeout", message: "ran past its timeout of 1000 ms" }, {}, [], failed("timeout", /1000 ms/)],
    [
      "timeout with an effect in flight: UNKNOWN, not a failure",
      { kind: "timeout", message: "t", openEffect: { id: "e2", tool: "post" } },
      {},
      [],
      { kind: "unknown-effect", effectId: "e2", message: expect.stringMatching(/while post was in flight/), rejected: [leftover] },
    ],
    ["tool failed", { kind: "tool-failed", message: "tool post failed: 400" }, {}, [], failed("tool-error", /400/)],
    ["handler process died", { kind: "crashed", message: "exited with code 1" }, {}, [], failed("crashed", /code 1/)],
    [
      "result cannot leave the process",
      { kind: "unsendable", message: "could not be cloned" },
      {},
      [],
      failed("invalid-result", /garbage: could not be cloned/),
    ],
    ["threw", { kind: "threw", message: "boom" }, {}, [], failed("handler-error", /handler threw: boom/)],
  ];
  for (const [name, end, refusals, missing, want] of cases) it(name, () => expect(decide(end, refusals, missing)).toEqual(want));
});

describe("verdictOf", () => {
  it("fails on a failed verifier and stamps the results on the written artifacts", () => {
    const m = { ...leftover, verifierResults: [] } as Manifest;
    const results = [{ name: "ok", passed: false, reason: "result.ok == true is false" }] as never;
    const out = verdictOf(results, [m], () => ({}) as never, [m]);
    expect(out).toMatchObject({ kind: "failed", error: { class: "verifier-failed", message: "ok: result.ok == true is false" } });
    expect(m.verifierResults).toBe(results);
  });
  it("succeeds when every verifier passed", () => {
    const results = [{ name: "ok", passed: true }] as never;
    const out = verdictOf(results, [leftover], (artifacts) => ({ kind: "complete", artifacts }) as never, []);
    expect(out).toMatchObject({ kind: "succeeded", change: { artifacts: [{ name: "x", verifierResults: results }] } });
  });
});
