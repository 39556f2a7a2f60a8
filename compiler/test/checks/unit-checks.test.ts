/** Bounds (C021), verification (C050–C052), budgets (C040, C041). */
import { describe, expect, it } from "vitest";
import { compile } from "../../src/index.js";
import { applyFix, contract, found, only } from "./helpers.js";

const one = (body: string) =>
  `  a:\n    produces: [out]\n    verify: [ok]\n${body
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n")}`;

describe("bounds (C021)", () => {
  it.each([
    ["a loop without max", 'loop: { until: "result.ok" }', "loop", "has no 'max'"],
    ["a loop max of 0", "loop: { max: 0 }", "0", "must be a positive integer"],
    ["a fractional loop max", "loop: { max: 2.5 }", "2.5", "must be a positive integer"],
    ["loop max unlimited", "loop: { max: unlimited }", "unlimited", "an unbounded loop can spend the whole budget"],
    ["retry max unlimited", "retry: { max: unlimited }", "unlimited", "unbounded retries repeat side effects"],
    ["retry max .inf", "retry: { max: .inf }", ".inf", "must be a whole number"],
    ["a negative retry max", "retry: { max: -1 }", "-1", "must be a whole number"],
    ["a retry without max", "retry: {}", "retry", "has no 'max'"],
  ])("reports %s", (_name, body, at, message) => {
    const text = contract({ units: one(body) });
    const diags = only(text, "C021");
    expect(found(text, diags)).toEqual([["C021", at]]);
    expect(diags[0]!.message).toContain(message);
    expect(only(applyFix(text, diags[0]!.fixes![0]!), "C021")).toEqual([]);
  });

  it("accepts retry max 0 and a positive loop max", () => {
    expect(compile(contract({ units: one("retry: { max: 0 }\nloop: { max: 3 }") })).diagnostics).toEqual([]);
  });
});

describe("verification (C050, C051, C052)", () => {
  const tools = "  write: { class: idempotent }\n  read: { class: read }";
  it("requires a verifier on a unit with side effects, not on a read-only unit", () => {
    const text = contract({ tools, units: "  a:\n    uses: [write]\n    produces: [out]\n  b:\n    uses: [read]\n    produces: [x]" });
    expect(found(text).filter(([c]) => c === "C050")).toEqual([["C050", "a"]]);
  });

  it("warns when the only verification of a side-effecting unit is soft", () => {
    const text = contract({ tools, units: "  a:\n    uses: [write]\n    produces: [out]\n    verify: [soft]" });
    const [d] = compile(text).diagnostics;
    expect([d!.code, d!.severity, text.slice(d!.span.start, d!.span.end)]).toEqual(["C052", "warning", "verify"]);
  });

  it("requires task.done, offering a hard verifier as the fix", () => {
    const base = contract({ units: one("") });
    const missing = base.replace("  done: [ok]\n", "");
    const [d] = only(missing, "C051");
    expect(missing.slice(d!.span.start, d!.span.end)).toBe("task");
    expect(compile(applyFix(missing, d!.fixes![0]!)).diagnostics).toEqual([]);
    expect(found(base.replace("done: [ok]", "done: []"))).toEqual([["C051", "[]"]]);
  });

  it("warns when task.done is only soft", () => {
    const text = contract({ units: one(""), done: "[soft]" });
    expect(found(text)).toEqual([["C052", "done"]]);
  });
});

describe("budgets (C040, C041)", () => {
  it("requires budgets", () => {
    const text = contract({ units: one(""), budgets: null });
    expect(found(text)).toEqual([["C041", "task"]]);
  });

  it("warns at the cap when the worst case exceeds it, naming the dominant units", () => {
    const units = [
      "  big:",
      "    cost: { model_calls: 10 }",
      "    loop: { max: 3 }",
      "    retry: { max: 1 }",
      "    produces: [x]",
      "    verify: [ok]",
      "  small:",
      "    needs: { big: content }",
      "    cost: { model_calls: 1 }",
      "    produces: [out]",
      "    verify: [ok]",
    ].join("\n");
    const text = contract({ units, budgets: "{ model_calls: 50, tool_calls: 10 }" });
    const result = compile(text);
    const [d] = result.diagnostics;
    expect([d!.code, d!.severity, text.slice(d!.span.start, d!.span.end)]).toEqual(["C040", "warning", "50"]);
    expect(d!.message).toContain("worst-case model_calls is 61");
    expect(d!.message).toContain("big 60 (loop 3 x 2 attempts)");
    expect(result.plan!.worstCase.exceeded).toEqual([
      { budget: "model_calls", worst: 61, cap: 50, dominant: [{ unit: "big", amount: 60 }] },
    ]);
  });

  it("counts each tool call per iteration and attempt", () => {
    const tools = "  fetch: { class: read, cost: { tokens: 100 } }";
    const text = contract({
      tools,
      units: "  a:\n    uses: [fetch]\n    loop: { max: 2 }\n    produces: [out]\n    verify: [ok]",
      budgets: "{ tool_calls: 100, retries: 2 }",
    });
    const plan = compile(text).plan!;
    expect(plan.units[0]!.worstCase).toEqual({ model_calls: 0, tool_calls: 6, tokens: 600 });
  });
});
