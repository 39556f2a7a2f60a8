/** C002: human messages at the offending key or value, one per problem. */
import { describe, expect, it } from "vitest";
import { compile } from "../src/index.js";
import { applyFix, contract, found } from "./checks/helpers.js";

const draft = (body: string) => `  draft:\n    produces: [out]\n    verify: [ok]\n${body}`;

describe("schema (C002)", () => {
  it("names an unknown key, where it is, and the key meant", () => {
    const text = contract({ units: draft("    neds: { x: content }") });
    const [d] = compile(text).diagnostics;
    expect(d!.code).toBe("C002");
    expect(d!.message).toBe("unknown key 'neds' in unit 'draft' — did you mean 'needs'?");
    expect(text.slice(d!.span.start, d!.span.end)).toBe("neds");
    expect(applyFix(text, d!.fixes![0]!)).toContain("    needs: { x: content }");
  });

  it.each([
    ["a wrong type", "    uses: fetch", "fetch", "'uses' of unit 'draft' must be a list, not the string 'fetch'"],
    ["a bad enum value", "    approval: humna", "humna", "did you mean 'human'?"],
    ["a bad duration", "    timeout: 45 minutes", "45 minutes", "is not a valid timeout"],
    [
      "a nested unknown key",
      "    loop: { max: 2, untill: x }",
      "untill",
      "unknown key 'untill' in 'loop' of unit 'draft' — did you mean 'until'?",
    ],
    ["a bad name", "    needs: { 'a b': content }", "'a b'", "is not a valid name"],
  ])("reports %s once, at the value", (_name, body, at, message) => {
    const text = contract({ units: draft(body) });
    const diags = compile(text).diagnostics;
    expect(found(text, diags)).toEqual([["C002", at]]);
    expect(diags[0]!.message).toContain(message);
  });

  it.each([
    ["neds", draft("    neds: { x: content }"), "C002", "unknown key 'neds' in unit 'draft' — did you mean 'needs'?"],
    [
      "contents",
      `  prep:\n    produces: [p]\n    verify: [ok]\n${draft("    needs: { prep: contents }")}`,
      "C070",
      "did you mean 'content'?",
    ],
  ])("suggests the nearest name for '%s', not one merely as far as the give-up bound", (_word, units, code, message) => {
    const diags = compile(contract({ units })).diagnostics;
    expect(diags.map((d) => d.code)).toEqual([code]);
    expect(diags[0]!.message).toContain(message);
    expect(diags[0]!.message).not.toMatch(/did you mean '(cost|audience)'/);
  });

  it("gives one message for an inline check with a typo, not branch noise", () => {
    const text = contract({ units: '  draft:\n    produces: [out]\n    verify: [ok, { chek: "result.ok" }]' });
    const diags = compile(text).diagnostics;
    expect(diags.map((d) => d.message)).toEqual(["unknown key 'chek' in 'verify[1]' of unit 'draft' — did you mean 'check'?"]);
  });

  it("reports a missing required key at the parent's key, and a missing section at the top", () => {
    const text = contract({ units: draft(""), tools: "  fetch: { cost: { tokens: 1 } }" });
    expect(found(text)).toEqual([["C002", "fetch"]]);
    expect(compile(text).diagnostics[0]!.message).toBe("tool 'fetch' is missing the required key 'class'");
    const noUnits = "contract: 1\ntask: { id: t, goal: g, done: [x] }\nbudgets: {}\n";
    expect(compile(noUnits).diagnostics.map((d) => [d.code, d.message, d.range.start.line])).toEqual([
      ["C002", "the contract is missing the required key 'units'", 0],
    ]);
  });

  it("does not run semantic checks on a schema-invalid contract", () => {
    const text = contract({ units: draft("    needs: { nowhere: content }\n    uses: 3") });
    expect(found(text).map(([c]) => c)).toEqual(["C002"]);
  });

  it("refuses a non-mapping document", () => {
    expect(compile("- just\n- a list\n").diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["C002", "the contract must be a mapping, not a list"],
    ]);
  });
});
