/**
 * The error text the store keeps (docs/runtime.md, "What the store keeps of
 * values"): argument values removed, credential-shaped text masked, control
 * characters dropped, clipped at 300 characters. store-secrets.test.ts scans
 * a whole store; this table pins each rule the docs name.
 */
import { describe, expect, it } from "vitest";
import { safeMessage, SAFE_MESSAGE_MAX } from "../src/ledger/redact.js";

const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
const TOKEN = "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";

describe("safeMessage", () => {
  it.each([
    ["a known argument value", "no mailbox for alice@example.com", ["alice@example.com"], "no mailbox for [redacted]"],
    ["password=…", "login failed: password=hunter2hunter2", [], "login failed: password=[redacted]"],
    ["Bearer …", "401 for Bearer abcdefgh12345678", [], "401 for Bearer [redacted]"],
    ["user:password@ in a URL", "cannot reach postgres://app:s3cretpw@db/app", [], "cannot reach postgres://app:[redacted]@db/app"],
    ["a JWT", `rejected ${JWT}`, [], "rejected [redacted]"],
    ["a 32+ character token", `bad key ${TOKEN}`, [], "bad key [redacted]"],
    ["control characters", "line\u0000one\u001b[31m red", [], "lineone[31m red"],
  ])("removes %s", (_what, message, known, expected) => {
    expect(safeMessage(message, known)).toBe(expected);
  });

  it(`clips a long message at ${SAFE_MESSAGE_MAX} characters`, () => {
    const out = safeMessage("x ".repeat(400));
    expect(SAFE_MESSAGE_MAX).toBe(300);
    expect(out).toBe(`${"x ".repeat(150)}…`);
  });
});
