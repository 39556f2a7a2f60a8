/**
 * The pure part of "approvals bind what they release" (ledger/approval-binding.ts):
 * what a binding compares, how a prepared request differs from the call
 * rendered now, and what the person approving is shown.
 */
import { describe, expect, it } from "vitest";
import { bindingMismatch, displayRequest, heldDifferences, type CallNow } from "../src/ledger/approval-binding.js";
import { redactedRequest, requestHashOf } from "../src/ledger/redact.js";
import type { Approval } from "../src/model/facts.js";

const args = { to: "ada@example.org", subject: "Your trip" };
const call = (over: Partial<CallNow> = {}, a: Record<string, unknown> = args): CallNow => ({
  tool: "send_mail",
  key: "mail:R",
  requestHash: requestHashOf("send_mail", a),
  request: redactedRequest("send_mail", a),
  values: { inputs: { recipient: "i1" }, needs: { itinerary: "n1" }, planVersion: "p1" },
  now: "2026-06-01T00:00:00.000Z",
  ...over,
});
const approval = (over: Partial<Approval> = {}): Approval => {
  const c = call();
  return {
    id: "ap1",
    run: "R",
    unit: "notify",
    planVersion: "p1",
    artifactHashes: {},
    scope: "unit",
    expiresAt: "2030-01-01T00:00:00.000Z",
    grantedBy: "ada",
    grantedAt: "2026-01-01T00:00:00.000Z",
    binding: {
      effect: "R/notify/a1/1",
      tool: "send_mail",
      key: "mail:R",
      requestHash: c.requestHash,
      request: c.request,
      inputs: c.values.inputs,
      needs: c.values.needs,
    },
    ...over,
  };
};

describe("an approval binds the request, the gate unit's values, plan version, scope and expiry", () => {
  it("applies only to exactly what it was granted for", () => {
    expect(bindingMismatch(approval(), call())).toEqual([]);
    const other = call({}, { ...args, to: "mallory@example.net" });
    expect(bindingMismatch(approval(), other).join("; ")).toMatch(/the request changed \(sha256 \w{16} → \w{16}; it differs in to\)/);
    expect(bindingMismatch(approval(), call({ values: { ...call().values, inputs: { recipient: "i2" } } }))).toEqual([
      "input recipient changed (sha256:i1 → sha256:i2)",
    ]);
    expect(bindingMismatch(approval(), call({ values: { ...call().values, needs: {} } }))).toEqual([
      "need itinerary changed (sha256:n1 → none)",
    ]);
    expect(bindingMismatch(approval(), call({ values: { ...call().values, planVersion: "p2" } }))).toEqual([
      "the plan version changed (approved for p1, the run is at p2)",
    ]);
    expect(bindingMismatch(approval(), call({ key: "mail:S" }))).toEqual(["the key changed (mail:R → mail:S)"]);
    expect(bindingMismatch(approval(), call({ now: "2031-01-01T00:00:00.000Z" }))).toEqual([
      "approval ap1 expired at 2030-01-01T00:00:00.000Z",
    ]);
    expect(bindingMismatch(approval({ revokedAt: "2026-02-01T00:00:00.000Z" }), call())).toEqual([
      "approval ap1 was revoked at 2026-02-01T00:00:00.000Z",
    ]);
    expect(bindingMismatch(approval({ scope: "tool:other" }), call())).toEqual(["scope tool:other does not cover tool send_mail"]);
    expect(bindingMismatch(approval({ scope: "tool:send_mail" }), call())).toEqual([]);
    const { binding: _none, ...unbound } = approval();
    expect(bindingMismatch(unbound, call())).toEqual(["approval ap1 was granted before the request was prepared; it binds no request"]);
  });

  it("a prepared request differs from the call rendered now by request, key, values or plan version", () => {
    const c = call();
    const prepared = {
      tool: "send_mail",
      key: "mail:R",
      requestHash: c.requestHash,
      request: c.request,
      held: { reason: "approval" as const, display: displayRequest("send_mail", args), ...c.values },
    };
    expect(heldDifferences(prepared, c)).toEqual([]);
    expect(heldDifferences(prepared, call({}, { ...args, to: "x@y.z" }))[0]).toMatch(/differs in to/);
    expect(heldDifferences(prepared, call({ values: { ...c.values, planVersion: "p2" } }))).toEqual([
      "the plan version changed (prepared under p1, the run is at p2)",
    ]);
  });

  it("the person sees the rendered arguments; credential-shaped text is masked and named", () => {
    expect(displayRequest("send_mail", args, "mail:R")).toEqual({ tool: "send_mail", args, key: "mail:R" });
    const d = displayRequest("send_mail", {
      to: "ada@example.org",
      body: "login with password=hunter2x now",
      n: 3,
      list: ["a", { k: "v" }],
    });
    expect(d.args).toEqual({ body: "login with password=[redacted] now", list: ["a", { k: "v" }], n: 3, to: "ada@example.org" });
    expect(d.masked).toEqual(["body"]);
  });
});
