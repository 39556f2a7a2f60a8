/**
 * What each piece of an expression or template is coloured as: a table of
 * sources and their pieces, written `kind:text`.
 */
import { describe, expect, it } from "vitest";
import { highlight } from "../../src/expr/highlight.js";

function pieces(source: string, mode: "expression" | "template"): string[] {
  return highlight(source, mode).map((h) => `${h.kind}:${source.slice(h.start, h.end)}`);
}

describe("highlight", () => {
  it.each([
    ["count(result.sources) >= 3", ["function:count", "variable:result", "property:sources", "operator:>=", "number:3"]],
    [
      "exists(inputs.group-c) && len(result.url) > 0",
      [
        "function:exists",
        "variable:inputs",
        "property:group-c",
        "operator:&&",
        "function:len",
        "variable:result",
        "property:url",
        "operator:>",
        "number:0",
      ],
    ],
    [
      'result.status == "ok" || !true',
      ["variable:result", "property:status", "operator:==", 'string:"ok"', "operator:||", "operator:!", "keyword:true"],
    ],
    ["n-1 * -2.5e3", ["variable:n", "operator:-", "number:1", "operator:*", "operator:-", "number:2.5e3"]],
    ["a.b.c[0] != null", ["variable:a", "property:b", "property:c", "number:0", "operator:!=", "keyword:null"]],
    ["'unterminated", ["string:'unterminated"]],
    ["a = b", ["variable:a", "variable:b"]],
  ])("%s", (source, expected) => {
    expect(pieces(source, "expression")).toEqual(expected);
  });

  it.each([
    [
      "${run.id}/${unit.id}",
      ["delimiter:${", "variable:run", "property:id", "delimiter:}", "delimiter:${", "variable:unit", "property:id", "delimiter:}"],
    ],
    [
      'cancel:${result.booking_id}-${"}"}',
      ["delimiter:${", "variable:result", "property:booking_id", "delimiter:}", "delimiter:${", 'string:"}"', "delimiter:}"],
    ],
    ["plain text $${not} here", []],
    ["${unterminated", []],
  ])("template %s", (source, expected) => {
    expect(pieces(source, "template")).toEqual(expected);
  });
});
