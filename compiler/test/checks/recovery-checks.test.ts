/** Recovery classes: compensation (C030, C031, C032), dedup (C033), approval gates (C034), what a gate cannot replay (C038). */
import { describe, expect, it } from "vitest";
import { compile } from "../../src/index.js";
import { applyFix, contract, found, only } from "./helpers.js";

const user = (tool: string, extra = "") => `  a:\n    uses: [${tool}]\n    produces: [out]\n    verify: [ok]${extra}`;

describe("compensation (C030, C031, C032)", () => {
  it("requires a compensator on a compensable tool, and the stub fix declares one", () => {
    const text = contract({ tools: "  book: { class: compensable }", units: user("book") });
    const [d] = only(text, "C030");
    expect(text.slice(d!.span.start, d!.span.end)).toBe("book");
    const fixed = applyFix(text, d!.fixes![0]!);
    expect(fixed).toContain("compensate: { tool: undo_book, with: {} }");
    expect(fixed).toContain("undo_book: { class: idempotent }");
    expect(compile(fixed).diagnostics).toEqual([]);
  });

  it.each([
    [
      "an undeclared compensator",
      "  book: { class: compensable, compensate: { tool: cancl } }\n  cancel: { class: idempotent }",
      "cancl",
      "did you mean 'cancel'?",
    ],
    [
      "a read compensator",
      "  book: { class: compensable, compensate: { tool: cancel } }\n  cancel: { class: read }",
      "cancel",
      "must be 'idempotent' or 'dedup'",
    ],
    [
      "a lookup that is not read",
      "  book: { class: compensable, lookup: find, compensate: { tool: cancel } }\n  cancel: { class: idempotent }\n  find: { class: idempotent }",
      "find",
      "must be a 'read' tool",
    ],
    ["an undeclared lookup", "  post: { class: dedup, key: k, lookup: nope }", "nope", "is not a declared tool"],
  ])("reports %s (C031)", (_name, tools, at, message) => {
    const text = contract({ tools, units: user(tools.includes("post") ? "post" : "book") });
    const diags = only(text, "C031");
    expect(found(text, diags)).toEqual([["C031", at]]);
    expect(diags[0]!.message).toContain(message);
  });

  it("reports `${result.x}` naming an undeclared result field at the exact column (C032)", () => {
    const tools = [
      "  book:",
      "    class: compensable",
      "    result: { booking_id: string }",
      '    compensate: { tool: cancel, with: { id: "ref-${result.bookng_id}", who: "${run.id}" } }',
      "  cancel: { class: idempotent }",
    ].join("\n");
    const text = contract({ tools, units: user("book") });
    const diags = compile(text).diagnostics;
    expect(found(text, diags)).toEqual([["C032", "result.bookng_id"]]);
    expect(diags[0]!.message).toContain("did you mean 'booking_id'");
  });

  it("keeps other template errors as C060", () => {
    const tools =
      '  book: { class: compensable, compensate: { tool: cancel, with: { id: "${nope.x}" } } }\n  cancel: { class: idempotent }';
    const text = contract({ tools, units: user("book") });
    expect(found(text).map(([c, s]) => [c, s.trim()])).toEqual([["C060", "nope"]]);
  });
});

describe("dedup (C033)", () => {
  it.each([
    ["key", "  post: { class: dedup, lookup: find }\n  find: { class: read }", "'key'"],
    ["lookup", '  post: { class: dedup, key: "k" }', "'lookup'"],
    ["both", "  post: { class: dedup }", "'key' and no 'lookup'"],
  ])("reports a dedup tool without %s, at the tool", (_name, tools, message) => {
    const text = contract({ tools, units: user("post") });
    const [d] = only(text, "C033");
    expect(text.slice(d!.span.start, d!.span.end)).toBe("post");
    expect(d!.message).toContain(message);
    expect(only(applyFix(text, d!.fixes![0]!), "C033")).toEqual([]);
  });
});

describe("approval gates (C034)", () => {
  it("reports the use of an irreversible tool in a unit without approval; the fix adds the gate", () => {
    const text = contract({ tools: "  send: { class: irreversible, approval: human }", units: user("send") });
    const [d] = only(text, "C034");
    expect(text.slice(d!.span.start, d!.span.end)).toBe("send");
    expect(d!.fixes![0]!.safe).toBe(true);
    expect(compile(applyFix(text, d!.fixes![0]!)).diagnostics).toEqual([]);
  });

  it("accepts a gated unit", () => {
    const text = contract({ tools: "  send: { class: irreversible }", units: user("send", "\n    approval: rule") });
    expect(compile(text).diagnostics).toEqual([]);
  });
});

describe("a gated unit's read the sending attempt cannot replay (C038)", () => {
  const tools = "  find: { class: read }\n  send: { class: irreversible, approval: human }\n  post: { class: dedup, key: k, lookup: find }";
  it.each([
    // [the unit's uses, approval, expected [code, text under the span]]
    ["[find, send]", "human", [["C038", "find"]]],
    ["[send, find]", "rule", [["C038", "find"]]],
    // no gate in front of an irreversible call: nothing runs twice
    ["[find, post]", "human", []],
    // no read: model calls, charges and effects are replayed or reused
    ["[send]", "human", []],
    ["[post, send]", "human", []],
  ] as const)("uses %s with approval %s", (uses, approval, expected) => {
    const text = contract({ tools, units: `  a:\n    uses: ${uses}\n    approval: ${approval}\n    produces: [out]\n    verify: [ok]` });
    const diags = compile(text).diagnostics.filter((d) => d.code === "C038");
    expect(found(text, diags)).toEqual(expected);
    for (const d of diags) {
      expect(d.severity).toBe("warning");
      expect(d.message).toMatch(
        /calls read tool 'find' behind its gate in front of irreversible 'send'.*Move the read into a unit of its own that 'a' needs/,
      );
    }
  });
});

describe("keys that do not name the intent (C035, C036, C039)", () => {
  const tool = (cls: string, key: string) =>
    `  t: { class: ${cls}, key: "${key}"${cls === "dedup" || cls === "compensable" ? ", lookup: find" : ""}${
      cls === "compensable" ? ", compensate: { tool: undo }" : ""
    } }\n  find: { class: read }\n  undo: { class: idempotent }`;
  const gate = (cls: string) => (cls === "irreversible" ? "\n    approval: human" : "");

  it.each([
    // [class, key, expected [code, text under the span]]
    ["dedup", "post:${run.id}:${attempt.id}", [["C035", "attempt.id"]]],
    ["dedup", "post:${attempt.number}", [["C035", "attempt.number"]]],
    ["compensable", "book:${run.id}:${attempt.id}", [["C035", "attempt.id"]]],
    // a dedup or irreversible key from args: C039 on the unit that uses it without a bound (not C036)
    ["irreversible", "mail:${args.to}", [["C039", "t"]]],
    ["dedup", "post:${args.title}", [["C039", "t"]]],
    ["compensable", "book:${args.date}", [["C036", "args.date"]]],
    [
      "dedup",
      "${attempt.id}:${args.body}",
      [
        ["C035", "attempt.id"],
        ["C039", "t"],
      ],
    ],
    ["dedup", "post:${task.id}:${unit.id}:v${task.version}", []],
    ["dedup", "post:${run.id}:${unit.id}:${iteration}", []],
    ["dedup", "post:${inputs.slug}", []],
    // idempotent: the same end state however often it runs; read: no effect
    ["idempotent", "${run.id}/${unit.id}/${attempt.id}", []],
    ["idempotent", "${run.id}/${args.name}", []],
    ["read", "${attempt.id}:${args.q}", []],
  ] as const)("%s key %s", (cls, key, expected) => {
    const text = contract({ tools: tool(cls, key), units: user("t", gate(cls)), inputs: "  slug: { kind: decision, value: s }" });
    const diags = compile(text).diagnostics.filter((d) => ["C035", "C036", "C039"].includes(d.code));
    expect(found(text, diags)).toEqual(expected);
    for (const d of diags) expect(d.severity).toBe(d.code === "C039" ? "error" : "warning");
    expect(compile(text).diagnostics.filter((d) => !["C035", "C036", "C039", "C080"].includes(d.code))).toEqual([]);
  });

  it("names the tool, its class and why", () => {
    const text = contract({ tools: tool("dedup", "post:${attempt.id}"), units: user("t") });
    expect(only(text, "C035")[0]!.message).toBe(
      "key of dedup tool 't' reads 'attempt.id', which changes on every attempt: a retry renders a new key, so recovery cannot find the first attempt's effect and the call is made again; build the key from what names the intent (task, run, unit, inputs)",
    );
    const args = contract({ tools: tool("compensable", "book:${args.title}"), units: user("t") });
    expect(only(args, "C036")[0]!.message).toContain("reads the call's own 'args.title': a key must name the intent, not echo the request");
  });

  it("a key template may read iteration (a number, the loop iteration)", () => {
    const text = contract({ tools: tool("dedup", "post:${run.id}:i${iteration + 1}"), units: user("t") });
    expect(compile(text).diagnostics).toEqual([]);
  });
});

describe("a key the handler can vary at will needs a declared bound (C039)", () => {
  const tools = (cls: string, key: string) =>
    `  post: { class: ${cls}, key: "${key}"${cls === "dedup" ? ", lookup: find" : ""} }\n  find: { class: read }`;
  const unit = (id: string, extra = "") =>
    `  ${id}:\n    uses: [post]\n    produces: [${id === "a" ? "out" : `${id}-out`}]\n    verify: [ok]${extra}\n    approval: human`;
  const text = contract({ tools: tools("dedup", "post:${run.id}:${args.title}"), units: `${unit("a")}\n${unit("b")}`, done: "[ok]" });

  it("reports each unit that uses the tool without a bound, at its `uses` entry, naming the key's reference", () => {
    const diags = only(text, "C039");
    expect(found(text, diags)).toEqual([
      ["C039", "post"],
      ["C039", "post"],
    ]);
    expect(diags[0]!.message).toBe(
      "unit 'a' uses dedup tool 'post', whose key reads 'args.title', a value the handler chooses: it could make one post effect per value it invents, each under a new key; build the key from what names the intent (task, run, unit, inputs), or declare how many effects the unit makes at most (`effects: { post: { max: N } }`; the runtime refuses the next distinct key)",
    );
    expect(diags[0]!.severity).toBe("error");
    const related = diags[0]!.related![0]!;
    expect(text.slice(related.span.start, related.span.end)).toBe("args.title");
    expect(diags.every((d) => d.fixes?.[0]?.safe === false)).toBe(true);
  });

  it("the fix declares one effect per unit, and the contract then compiles with the bound in its plan", () => {
    let fixed = text;
    for (let d = only(fixed, "C039")[0]; d; d = only(fixed, "C039")[0]) fixed = applyFix(fixed, d.fixes![0]!);
    expect(fixed).toContain("effects: { post: { max: 1 } }");
    const { plan, diagnostics } = compile(fixed);
    expect(diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(plan!.units.find((u) => u.id === "a")!.effects).toEqual({ post: { max: 1 } });
  });

  it.each([
    ["a declared bound", "post:${run.id}:${args.title}", "\n    effects: { post: { max: 3 } }", []],
    ["a key without args", "post:${run.id}:${unit.id}", "", []],
    [
      "a bound on a tool the unit does not use (C010, and the real tool stays unbounded)",
      "post:${args.t}",
      "\n    effects: { pots: { max: 2 } }",
      ["C010", "C039"],
    ],
  ] as const)("%s", (_name, key, extra, codes) => {
    const t = contract({ tools: tools("dedup", key), units: unit("a", extra) });
    expect(
      compile(t)
        .diagnostics.filter((d) => d.severity === "error")
        .map((d) => d.code)
        .sort(),
    ).toEqual(codes);
  });

  it("is a function over plan data: a plan whose bound was removed by hand is judged the same", async () => {
    const { planKeyBoundProblems, unboundedKeyMessage } = await import("../../src/index.js");
    const bounded = compile(
      contract({ tools: tools("irreversible", "mail:${args.to}"), units: unit("a", "\n    effects: { post: { max: 2 } }") }),
    );
    expect(bounded.plan).toBeDefined();
    expect(planKeyBoundProblems(bounded.plan!)).toEqual([]);
    const edited = { ...bounded.plan!, units: bounded.plan!.units.map(({ effects: _e, ...u }) => u) };
    const problems = planKeyBoundProblems(edited);
    expect(problems.map((p) => [p.unit, p.tool, p.read])).toEqual([["a", "post", "args.to"]]);
    expect(unboundedKeyMessage(problems[0]!)).toMatch(/^unit 'a' uses irreversible tool 'post', whose key reads 'args\.to'/);
  });
});
