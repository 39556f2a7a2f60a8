/**
 * Inline suppressions and per-code severity (compiler/src/policy): which
 * comment covers which diagnostic, what is refused (C091), what is unused
 * (C090), and that configured severities decide whether a plan is built.
 */
import { describe, expect, it } from "vitest";
import { compile, CONFIG_SCHEMA, DiagnosticCodes, type Rules } from "../src/index.js";

/** Two units; `translate` is dead work (C080), `write` is clean. `@W` and `@T` mark the lines above each unit. */
const DEAD = `contract: 1
task:
  id: notes
  goal: "Write one short note"
  outputs: [note]
  done: [note_ok]
budgets:
  model_calls: 10
verifiers:
  note_ok: { kind: rule, check: "len(result.text) > 0" }
units:
@W
  write:
    produces: [note]
    verify: [note_ok]
@T
  translate:
    needs: { write: content }
    produces: [note-de]
    verify: [note_ok]
`;

const place = (w: string, t: string, text = DEAD) => text.replace("@W\n", w ? `${w}\n` : "").replace("@T\n", t ? `${t}\n` : "");

/** `code line` of each diagnostic (1-based lines). */
function codes(text: string, rules: Rules = {}): string[] {
  return compile(text, { rules }).diagnostics.map((d) => `${d.code} ${d.range.start.line + 1}`);
}

describe("inline suppressions", () => {
  it.each([
    ["no comment: C080 is reported", "", "", ["C080 15"]],
    ["a comment above the unit covers it", "", "  # taskspec-ignore C080: kept for the audit", []],
    ["two codes in one comment", "", "  # taskspec-ignore C052, C080: kept", ["C090 15"]],
    ["a comment above another unit covers nothing", "  # taskspec-ignore C080: wrong unit", "", ["C090 12", "C080 16"]],
    ["a blank line and another comment in between still cover the unit", "", "  # taskspec-ignore C080: kept\n\n  # note", []],
    ["no reason: C091, and C080 stays", "", "  # taskspec-ignore C080", ["C091 15", "C080 16"]],
    ["an empty reason: C091", "", "  # taskspec-ignore C080:   ", ["C091 15", "C080 16"]],
    ["an error's code: C091", "", "  # taskspec-ignore C020: cycles are fine", ["C091 15", "C080 16"]],
    ["an unknown code: C091", "", "  # taskspec-ignore C999: typo", ["C091 15", "C080 16"]],
    ["no code at all: C091", "", "  # taskspec-ignore: just because", ["C091 15", "C080 16"]],
    ["C090 cannot be suppressed", "", "  # taskspec-ignore C090: no", ["C091 15", "C080 16"]],
  ])("%s", (_name, w, t, expected) => {
    expect(codes(place(w, t))).toEqual(expected);
  });

  it("a comment at the end of the unit's key line covers the unit", () => {
    expect(codes(place("", "").replace("  translate:\n", "  translate: # taskspec-ignore C080: kept\n"))).toEqual([]);
  });

  it("a comment at the end of a line inside another unit covers only that line's entry", () => {
    expect(codes(place("", "").replace("    produces: [note]\n", "    produces: [note] # taskspec-ignore C080: no\n"))).toEqual([
      "C090 13",
      "C080 15",
    ]);
  });

  it("`# taskspec-ignore` inside a quoted scalar or a block scalar is text, not a suppression", () => {
    const quoted = place("", "").replace('goal: "Write one short note"', 'goal: "see # taskspec-ignore C080: x"');
    expect(codes(quoted)).toEqual(["C080 15"]);
    const block = place("", "").replace('goal: "Write one short note"', "goal: |\n    Notes.\n    # taskspec-ignore C080: x");
    expect(codes(block)).toEqual(["C080 17"]);
  });

  it("returns what was suppressed, with the reason and the comment's place", () => {
    const { suppressed, diagnostics, plan } = compile(place("", "  # taskspec-ignore C080: kept for the audit"));
    expect(diagnostics).toEqual([]);
    expect(plan).toBeDefined();
    expect(suppressed.map((s) => [s.diagnostic.code, s.reason, s.comment.start.line + 1])).toEqual([["C080", "kept for the audit", 15]]);
  });

  it("the unused-suppression fix deletes the comment line", () => {
    const text = place("  # taskspec-ignore C080: wrong unit", "");
    const c090 = compile(text).diagnostics.find((d) => d.code === "C090")!;
    const edit = c090.fixes![0]!.edits[0]!;
    expect(text.slice(0, edit.span.start) + edit.newText + text.slice(edit.span.end)).toBe(place("", ""));
  });

  it("no unused report when a schema error (C002) stopped the checks", () => {
    const text = place("  # taskspec-ignore C080: kept", "").replace("budgets:", "budgetz:");
    expect(codes(text).filter((c) => c.startsWith("C09"))).toEqual([]);
  });
});

describe("per-code severity (rules)", () => {
  it("off drops a warning; the plan is still built", () => {
    const r = compile(place("", ""), { rules: { C080: "off" } });
    expect(r.diagnostics).toEqual([]);
    expect(r.plan).toBeDefined();
  });

  it("error raises a warning and then no plan is built", () => {
    const r = compile(place("", ""), { rules: { C080: "error" } });
    expect(r.diagnostics.map((d) => `${d.code} ${d.severity}`)).toEqual(["C080 error"]);
    expect(r.plan).toBeUndefined();
  });

  it("an error cannot be lowered or turned off, even through the API", () => {
    const cycle = place("", "")
      .replace("    needs: { write: content }\n", "    needs: { write: content }\n")
      .replace("  write:\n    produces: [note]\n", "  write:\n    needs: { translate: note-de }\n    produces: [note]\n");
    const r = compile(cycle, { rules: { C020: "off", C080: "off" } as Rules });
    expect(r.diagnostics.map((d) => `${d.code} ${d.severity}`)).toContain("C020 error");
    expect(r.plan).toBeUndefined();
  });

  it("a suppression of a code the configuration turned off is unused, and says why", () => {
    const [d] = compile(place("", "  # taskspec-ignore C080: kept"), { rules: { C080: "off" } }).diagnostics;
    expect(d?.code).toBe("C090");
    expect(d?.message).toContain("C080 is turned off by the configuration");
  });

  it("C090 itself follows the rules: off, or an error", () => {
    const text = place("  # taskspec-ignore C080: wrong unit", "  # taskspec-ignore C080: kept");
    expect(codes(text, { C090: "off" })).toEqual([]);
    expect(compile(text, { rules: { C090: "error" } }).diagnostics.map((d) => d.severity)).toEqual(["error"]);
  });
});

describe("config.schema.json", () => {
  it("names every catalog code, and lets only warnings be off or warning", () => {
    const rules = (CONFIG_SCHEMA as { $defs: { rules: { properties: Record<string, { const?: string; $ref?: string }> } } }).$defs.rules
      .properties;
    expect(Object.keys(rules).sort()).toEqual(Object.keys(DiagnosticCodes).sort());
    for (const [code, { severity }] of Object.entries(DiagnosticCodes)) {
      expect(rules[code], code).toEqual(severity === "error" ? expect.objectContaining({ const: "error" }) : { $ref: "#/$defs/setting" });
    }
  });
});
