/**
 * The error text the store keeps (docs/runtime.md, "What the store keeps of
 * values"): argument values removed, credential-shaped text masked, control
 * characters dropped, clipped at 300 characters. store-secrets.test.ts scans
 * a whole store; this table pins each rule the docs name.
 */
import { describe, expect, it } from "vitest";
import { safeErrorText, safeMessage, SAFE_MESSAGE_MAX } from "../src/ledger/redact.js";
import { describeThrown } from "../src/model/thrown.js";

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

describe("describeThrown: whatever a handler throws is read without throwing", () => {
  const getterThrows = new Error("hidden");
  Object.defineProperty(getterThrows, "message", {
    get() {
      throw new Error("no");
    },
  });
  const symbolMessage = Object.assign(new Error("x"), { message: Symbol("s") as unknown as string });
  const cases: Array<[string, unknown, { name: string; message: string | RegExp; code?: string }]> = [
    ["an Error", new TypeError("bad"), { name: "TypeError", message: "bad" }],
    ["an Error with a code", Object.assign(new Error("denied"), { code: "ERR_X" }), { name: "Error", message: "denied", code: "ERR_X" }],
    ["a string", "plain", { name: "Error", message: "plain" }],
    ["a number", 42, { name: "Error", message: "42" }],
    ["undefined", undefined, { name: "Error", message: "undefined" }],
    [
      "an object without a prototype, with a message",
      Object.assign(Object.create(null), { message: "odd" }),
      { name: "Error", message: "odd" },
    ],
    ["an object without a prototype", Object.create(null), { name: "Error", message: /^a thrown object that cannot be shown/ }],
    ["an Error whose message getter throws", getterThrows, { name: "Error", message: /^a thrown object that cannot be shown/ }],
    ["an Error whose message is a symbol", symbolMessage, { name: "Error", message: /cannot be shown/ }],
    [
      "a value whose toString throws",
      {
        toString: () => {
          throw new Error("no");
        },
      },
      { name: "Error", message: /cannot be shown/ },
    ],
  ];
  it.each(cases)("%s", (_name, thrown, want) => {
    const seen = describeThrown(thrown);
    expect(seen.name).toBe(want.name);
    if (typeof want.message === "string") expect(seen.message).toBe(want.message);
    else expect(seen.message).toMatch(want.message);
    expect(seen.code).toBe(want.code);
    expect(() => safeErrorText(thrown)).not.toThrow();
  });
});
