/**
 * What the ledger keeps of values the contract marks `secret` or `safe`
 * (runtime/src/ledger/redact.ts, approval-binding.ts `displayRequest`).
 */
import { describe, expect, it } from "vitest";
import { displayRequest } from "../src/ledger/approval-binding.js";
import {
  intentOf,
  maskSecrets,
  maskSecretsIn,
  minimalReceipt,
  redactedRequest,
  safeMessage,
  secretArgValues,
  secretInputValues,
  secretResultValues,
} from "../src/ledger/redact.js";
import type { PlanTool } from "@taskspec/compiler";

const tool = {
  name: "mail",
  class: "idempotent",
  result: { id: "string", token: "string", status: "string" },
  secretArgs: ["password"],
  safeArgs: ["to"],
  secretResult: ["token"],
  cost: { model_calls: 0, tool_calls: 1, tokens: 0 },
  recovery: { onRetry: "retry-same-key", onUnknown: "retry-same-key", onAbort: "nothing", summary: "" },
} as PlanTool;
const args = { to: "ops@example.com", password: "PLANTED-pw-0001", body: "hello PLANTED-body" };

describe("secret and safe arguments", () => {
  it("the intent shows names, and the value of a safe argument only", () => {
    expect(intentOf("mail", args)).toBe("mail(to, password, body)");
    expect(intentOf("mail", args, tool)).toBe("mail(to=ops@example.com, password, body)");
    // a secret marking wins; a safe value is clipped and masked like a message
    expect(intentOf("mail", { to: "ab ".repeat(40) }, tool)).toBe(`mail(to=${"ab ".repeat(20)}…)`);
    expect(intentOf("mail", { to: "password=hunter2xyz" }, tool)).toBe("mail(to=password=[redacted])");
    expect(intentOf("mail", { to: "ops@example.com" }, { ...tool, secretArgs: ["to"] })).toBe("mail(to)");
  });

  it("a secret argument has no digest in the redacted request", () => {
    const r = redactedRequest("mail", args, tool);
    expect(r.args.password).toBe("***");
    expect(r.args.to).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(redactedRequest("mail", args).args.password).toMatch(/^sha256:/);
  });

  it("a held request shows a secret argument as *** and masks known secrets in the others", () => {
    const d = displayRequest("mail", args, "k1", tool, ["PLANTED-body"]);
    expect(d.args).toEqual({ body: "hello ***", password: "***", to: "ops@example.com" });
    expect(d.masked).toEqual(["body", "password"]);
  });

  it("the values a call adds to the attempt's secrets", () => {
    expect(secretArgValues(args, tool)).toEqual(["PLANTED-pw-0001"]);
    expect(secretArgValues({ password: { nested: ["PLANTED-a", 1234567] } }, tool)).toEqual(["PLANTED-a", "1234567"]);
    expect(secretResultValues({ id: "m1", token: "PLANTED-tok" }, tool)).toEqual(["PLANTED-tok"]);
    expect(secretResultValues("not an object", tool)).toEqual([]);
    const plan = { inputs: [{ name: "pw", secret: true as const }, { name: "open" }] };
    expect(secretInputValues(plan, { pw: "PLANTED-in", open: "visible" })).toEqual(["PLANTED-in"]);
  });
});

describe("secret result fields", () => {
  it("a receipt keeps the declared fields but the secret ones, and id", () => {
    expect(minimalReceipt(tool, { id: "m1", token: "PLANTED-tok", status: "sent", cookie: "c" })).toEqual({ id: "m1", status: "sent" });
  });
});

describe("masking known secrets", () => {
  it("in text, longest first, leaving values too short to scrub", () => {
    expect(maskSecrets("a PLANTED-long-1 and PLANTED-long", ["PLANTED-long", "PLANTED-long-1", "ab"])).toBe("a *** and ***");
    expect(maskSecrets("ab ab", ["ab"])).toBe("ab ab");
  });

  it("in a JSON value: strings, keys and numbers", () => {
    expect(maskSecretsIn({ a: "x PLANTED-v y", list: [{ "PLANTED-v": 1 }, 98765], n: 98765 }, ["PLANTED-v", "98765"])).toEqual({
      a: "x *** y",
      list: [{ "***": 1 }, "***"],
      n: "***",
    });
    const v = { a: 1 };
    expect(maskSecretsIn(v, [])).toBe(v);
  });

  it("in a stored message: secrets as ***, argument values as [redacted]", () => {
    expect(safeMessage("login PLANTED-s1 for bob.smith failed", ["bob.smith"], ["PLANTED-s1"])).toBe("login *** for [redacted] failed");
  });
});
