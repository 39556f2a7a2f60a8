/** Recovery classes: compensation (C030, C031, C032), dedup (C033), approval gates (C034). */
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
