/** C060 lands at the exact column inside the YAML string, whatever the scalar style; scopes follow where the expression is. */
import { describe, expect, it } from "vitest";
import { compile } from "../src/index.js";
import { contract, found } from "./checks/helpers.js";

const withCheck = (scalar: string) => contract({ units: `  a:\n    produces: [out]\n    verify: [ok, { check: ${scalar} }]` });

describe("expression diagnostics map to document columns", () => {
  it.each([
    ["plain", "count(result.x) >= nope", "nope"],
    ["double-quoted", '"len(\\"ab\\") > nope"', "nope"],
    ["single-quoted", "'len(''ab'') > nope'", "nope"],
  ])("in a %s scalar", (_style, scalar, at) => {
    const text = withCheck(scalar);
    const diags = compile(text).diagnostics;
    expect(found(text, diags)).toEqual([["C060", at]]);
  });

  it("in a block scalar on a later line", () => {
    const text = contract({
      units: "  a:\n    produces: [out]\n    verify:\n      - check: |\n          result.ok &&\n            nope.x",
    });
    const [d] = compile(text).diagnostics;
    expect(text.slice(d!.span.start, d!.span.end)).toBe("nope");
    expect(d!.range.start).toEqual({ line: text.split("\n").findIndex((l) => l.includes("nope.x")), character: 12 });
  });

  it("reports a syntax error at its column", () => {
    const text = withCheck('"result.ok && && true"');
    const [d] = compile(text).diagnostics;
    expect(d!.code).toBe("C060");
    expect(text.slice(d!.span.start, d!.span.start + 2)).toBe("&&");
    expect(d!.span.start).toBe(text.indexOf("&& true"));
  });
});

describe("scopes", () => {
  it("lets unit checks and until use the unit's needs, not other units", () => {
    const units = [
      "  p:\n    produces: [x]\n    verify: [ok]",
      "  q:\n    produces: [y]\n    verify: [ok]",
      '  a:\n    needs: { p: content }\n    loop: { max: 2, until: "p.done && q.done" }\n    produces: [out]\n    verify: [ok]',
    ].join("\n");
    const text = contract({ units });
    expect(found(text).filter(([c]) => c === "C060")).toEqual([["C060", "q"]]);
  });

  it("lets key templates use task, unit and attempt but not result", () => {
    const tools = '  w: { class: idempotent, key: "${task.id}/${unit.id}/${attempt.id}/${result.x}" }';
    const text = contract({ tools, units: "  a:\n    uses: [w]\n    produces: [out]\n    verify: [ok]" });
    expect(found(text)).toEqual([["C060", "result"]]);
  });

  it("requires checks to be boolean", () => {
    const text = withCheck('"count(result.x)"');
    expect(compile(text).diagnostics.map((d) => d.code)).toEqual(["C060"]);
  });

  it("puts typed ASTs in the plan", () => {
    const plan = compile(withCheck('"count(result.x) >= 1"')).plan!;
    expect(plan.units[0]!.verify[1]).toMatchObject({
      check: { source: "count(result.x) >= 1", resultType: "boolean", ast: { type: "binary", op: ">=" } },
    });
  });
});
