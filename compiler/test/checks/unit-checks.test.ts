/** Bounds (C021), verification (C050–C052), budgets (C040, C041). */
import { describe, expect, it } from "vitest";
import { compile, DEFAULT_BACKOFF, DEFAULT_UNIT_TIMEOUT_MS } from "../../src/index.js";
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

  it("holds budgets.retries, every unit's retry bound unless it has its own, to the same bound", () => {
    const text = contract({ units: one(""), budgets: "{ model_calls: 100, retries: 2000000 }" });
    const diags = only(text, "C021");
    expect(found(text, diags)).toEqual([["C021", "2000000"]]);
    expect(diags[0]!.message).toContain("budgets.retries is 2000000, more than 1000000");
    expect(compile(contract({ units: one(""), budgets: "{ model_calls: 100, retries: 1000000 }" })).diagnostics).toEqual([]);
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

  it("counts a call as at least one tool call, as the ledger charges it, whatever the tool declares", () => {
    const tools = "  fetch: { class: read, cost: { tool_calls: 0, tokens: 100 } }\n  bulk: { class: read, cost: { tool_calls: 3 } }";
    const text = contract({
      tools,
      units: "  a:\n    uses: [fetch, bulk]\n    produces: [out]\n    verify: [ok]",
      budgets: "{ tool_calls: 100 }",
    });
    const plan = compile(text).plan!;
    expect(plan.units[0]!.worstCase).toEqual({ model_calls: 0, tool_calls: 4, tokens: 100 });
    expect(plan.tools.find((t) => t.name === "fetch")!.cost).toEqual({ model_calls: 0, tool_calls: 1, tokens: 100 });
  });
});

describe("timeouts (C022) and the plan's timeoutMs", () => {
  const tools = "  fetch: { class: read }";
  const unit = (own: string | undefined, uses = true) =>
    `  a:\n${uses ? "    uses: [fetch]\n" : ""}${own ? `    timeout: ${own}\n` : ""}    produces: [out]\n    verify: [ok]`;

  it.each([
    // [case, unit timeout, task timeout, timeoutMs, timeoutSource]
    ["the unit's own wins over the task's", "90s", "10m", 90_000, "unit"],
    ["the unit's own without a task timeout", "2h", null, 7_200_000, "unit"],
    ["the task's when the unit has none", undefined, "10m", 600_000, "task"],
    ["the built-in 30m when neither has one", undefined, null, 30 * 60_000, "default"],
  ] as const)("%s", (_name, own, task, ms, source) => {
    const text = contract({ tools, units: unit(own, false), timeout: task });
    const { plan, diagnostics } = compile(text);
    expect(diagnostics).toEqual([]);
    expect(plan!.units[0]).toMatchObject({ timeoutMs: ms, timeoutSource: source });
    expect(DEFAULT_UNIT_TIMEOUT_MS).toBe(30 * 60_000);
  });

  it.each([
    // [case, uses tools, unit timeout, task timeout, warned]
    ["tools, no timeout anywhere", true, undefined, null, true],
    ["tools, its own timeout", true, "5m", null, false],
    ["tools, task.timeout", true, undefined, "5m", false],
    ["no tools, no timeout anywhere", false, undefined, null, false],
  ] as const)("C022 for %s: %s", (_name, uses, own, task, warned) => {
    const text = contract({ tools, units: unit(own, uses), timeout: task });
    const diags = compile(text).diagnostics;
    expect(found(text, diags)).toEqual(warned ? [["C022", "a"]] : []);
    if (!warned) return;
    expect(diags[0]!.severity).toBe("warning");
    expect(diags[0]!.message).toContain("calls tools (fetch) but has no 'timeout' and the task has no 'task.timeout'");
    // the fix gives the task a timeout, which covers every unit without its own
    const fixed = applyFix(text, diags[0]!.fixes![0]!);
    expect(fixed).toContain("  timeout: 10m");
    expect(compile(fixed).diagnostics).toEqual([]);
    expect(compile(fixed).plan!.units[0]!.timeoutSource).toBe("task");
  });

  it("one C022 per unit without a timeout, none for the unit with one", () => {
    const units = `${unit(undefined)}\n  b:\n    uses: [fetch]\n    produces: [x]\n  c:\n    uses: [fetch]\n    timeout: 1m\n    produces: [y]`;
    const text = contract({ tools, units, timeout: null }).replace("outputs: [out]", "outputs: [out, x, y]");
    expect(found(text)).toEqual([
      ["C022", "a"],
      ["C022", "b"],
    ]);
  });

  it.each([
    ["0s", "which would mean no timeout"],
    ["25d", "longer than the runtime can time"],
  ])("task.timeout %s is C002 (%s), like a unit's", (value, message) => {
    const text = contract({ tools, units: unit(undefined), timeout: value });
    const diags = only(text, "C002");
    expect(found(text, diags)).toEqual([["C002", value]]);
    expect(diags[0]!.message).toContain(`task.timeout is ${value}, ${message}`);
  });
});

describe("retry backoff: range checks (C002) and the plan's backoff", () => {
  it.each([
    // [case, backoff, reported value, message]
    ["an initial wait of 0", "{ initial: 0s }", "0s", "initial is 0s, no wait at all"],
    ["an initial wait past the timer", "{ initial: 25d }", "25d", "initial is 25d, longer than the runtime can time"],
    ["a cap of 0", "{ max: 0ms }", "0ms", "max is 0ms, no wait at all"],
    ["a cap below the first wait", "{ initial: 10s, max: 2s }", "2s", "max is 2s, shorter than the first wait (10s)"],
    ["a cap below the default first wait", "{ max: 500ms }", "500ms", "max is 500ms, shorter than the first wait (the default 1s)"],
    ["a factor that shrinks the wait", "{ factor: 0.5 }", "0.5", "factor is 0.5; give a number from 1"],
    ["a factor that is a cliff", "{ factor: 1000 }", "1000", "factor is 1000; give a number from 1"],
  ])("reports %s", (_name, backoff, at, message) => {
    const text = contract({ units: one(`retry:\n  max: 2\n  backoff: ${backoff}`) });
    const diags = only(text, "C002");
    expect(found(text, diags)).toEqual([["C002", at]]);
    expect(diags[0]!.message).toContain(`retry.backoff of unit 'a': ${message}`);
  });

  it("reports a jitter that is not a known kind as a schema violation", () => {
    const text = contract({ units: one("retry:\n  max: 2\n  backoff: { jitter: random }") });
    expect(found(text, only(text, "C002"))).toEqual([["C002", "random"]]);
  });

  it.each([
    // [case, retry block, plan backoff]
    ["defaults when the block has none", "retry: { max: 2 }", DEFAULT_BACKOFF],
    ["defaults without any retry block", "", DEFAULT_BACKOFF],
    [
      "every key given",
      "retry:\n  max: 2\n  backoff: { initial: 50ms, max: 2s, factor: 3, jitter: full }",
      { initialMs: 50, maxMs: 2000, factor: 3, jitter: "full" },
    ],
    [
      "a cap as long as the first wait",
      "retry:\n  max: 1\n  backoff: { initial: 2s, max: 2s, factor: 1 }",
      { ...DEFAULT_BACKOFF, initialMs: 2000, maxMs: 2000, factor: 1 },
    ],
  ])("the plan records %s", (_name, body, backoff) => {
    const { plan, diagnostics } = compile(contract({ units: one(body) }));
    expect(diagnostics).toEqual([]);
    expect(plan!.units[0]!.retry.backoff).toEqual(backoff);
  });

  it("a backoff edit is policy: the definition hash stays, impact names the key", () => {
    const before = compile(contract({ units: one("retry: { max: 2 }") })).plan!;
    const after = compile(contract({ units: one("retry:\n  max: 2\n  backoff: { initial: 5s }") })).plan!;
    expect(after.units[0]!.definitionHash).toBe(before.units[0]!.definitionHash);
    expect(after.units[0]!.retry.backoff!.initialMs).toBe(5000);
  });
});
