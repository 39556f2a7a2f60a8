/**
 * completeAt / completeTemplateAt: `|` in each source marks the cursor.
 * Roots are listed alphabetically, then the functions.
 */
import { describe, expect, it } from "vitest";
import { completeAt, completeTemplateAt } from "../../src/expr/index.js";
import type { ExprScope } from "../../src/expr/index.js";

const SCOPE: ExprScope = {
  task: { type: "object", fields: { id: { type: "string" }, version: { type: "number" } } },
  result: {
    type: "object",
    open: true,
    fields: { claims: { type: "list" }, meta: { type: "object", fields: { lang: { type: "string" } } }, passed: { type: "boolean" } },
  },
  inputs: { type: "object", open: true },
  n: { type: "number" },
  "group-a": { type: "object", fields: { result: { type: "object", fields: { files: { type: "list" } } } } },
};
const ROOTS_AND_FUNCTIONS = ["group-a", "inputs", "n", "result", "task", "count", "len", "exists", "all", "any"];

function at(marked: string): [string, number] {
  const offset = marked.indexOf("|");
  return [marked.slice(0, offset) + marked.slice(offset + 1), offset];
}

describe("completeAt", () => {
  it.each([
    { marked: "|", labels: ROOTS_AND_FUNCTIONS },
    { marked: "res|", labels: ROOTS_AND_FUNCTIONS },
    { marked: "|result", labels: ROOTS_AND_FUNCTIONS },
    { marked: "count(|", labels: ROOTS_AND_FUNCTIONS },
    { marked: "n > 1 && |", labels: ROOTS_AND_FUNCTIONS },
    { marked: "!|", labels: ROOTS_AND_FUNCTIONS },
    { marked: "all(n > 1, |)", labels: ROOTS_AND_FUNCTIONS },
    { marked: "result.claims[|", labels: ROOTS_AND_FUNCTIONS },
    { marked: "nu|", labels: ROOTS_AND_FUNCTIONS },
    { marked: "result.|", labels: ["claims", "meta", "passed"] },
    { marked: "result.cl|", labels: ["claims", "meta", "passed"] },
    { marked: "result.|claims", labels: ["claims", "meta", "passed"] },
    { marked: "n > 1 && result.meta.|", labels: ["lang"] },
    { marked: "result['meta'].|", labels: ["lang"] },
    { marked: "task.|", labels: ["id", "version"] },
    { marked: "count(result.| ", labels: ["claims", "meta", "passed"] },
    { marked: "result . meta . |", labels: ["lang"] },
    { marked: "group-a.|", labels: ["result"] },
    { marked: "group-a.result.|", labels: ["files"] },
    { marked: "group-|", labels: ROOTS_AND_FUNCTIONS },
    // nothing is known about these fields
    { marked: "inputs.|", labels: [] },
    { marked: "result.other.|", labels: [] },
    { marked: "result.claims[0].|", labels: [] },
    { marked: "unknown.|", labels: [] },
    { marked: "task.id.|", labels: [] },
    { marked: "count(x).|", labels: [] },
    { marked: "1.|", labels: [] },
    // after a complete operand only an operator can follow; inside a string nothing
    { marked: "n |", labels: [] },
    { marked: "count(n) |", labels: [] },
    { marked: "'abc|", labels: [] },
    { marked: "'abc'|", labels: [] },
    { marked: "12|", labels: [] },
  ])("$marked", ({ marked, labels }) => {
    const [source, offset] = at(marked);
    expect(completeAt(source, offset, SCOPE).map((c) => c.label)).toEqual(labels);
  });

  it("gives each name its type", () => {
    expect(completeAt("", 0, SCOPE)).toEqual([
      { label: "group-a", type: "object" },
      { label: "inputs", type: "object" },
      { label: "n", type: "number" },
      { label: "result", type: "object" },
      { label: "task", type: "object" },
      { label: "count", type: "number" },
      { label: "len", type: "number" },
      { label: "exists", type: "boolean" },
      { label: "all", type: "boolean" },
      { label: "any", type: "boolean" },
    ]);
    expect(completeAt("task.", 5, SCOPE)).toEqual([
      { label: "id", type: "string" },
      { label: "version", type: "number" },
    ]);
  });

  it("offers only names that can be written in an expression", () => {
    const scope: ExprScope = {
      ok: { type: "object", fields: { "a b": { type: "any" }, "x-y": { type: "any" }, true: { type: "any" } } },
      "04-x": { type: "any" },
      null: { type: "any" },
    };
    expect(completeAt("", 0, scope).map((c) => c.label)).toEqual(["ok", "count", "len", "exists", "all", "any"]);
    expect(completeAt("ok.", 3, scope).map((c) => c.label)).toEqual(["x-y"]);
  });

  it("clamps an offset outside the text", () => {
    expect(completeAt("task.", 99, SCOPE).map((c) => c.label)).toEqual(["id", "version"]);
    expect(completeAt("task.", -3, SCOPE).map((c) => c.label)).toEqual(ROOTS_AND_FUNCTIONS);
  });
});

describe("completeTemplateAt", () => {
  it.each([
    { marked: "key:${task.|}", labels: ["id", "version"] },
    { marked: "key:${task.|", labels: ["id", "version"] },
    { marked: "key:${|}", labels: ROOTS_AND_FUNCTIONS },
    { marked: "${task.id}:${result.meta.|}", labels: ["lang"] },
    { marked: "key:|${task.id}", labels: [] },
    { marked: "key:$|{task.id}", labels: [] },
    { marked: "${task.id}|", labels: [] },
    { marked: "$${task.|}", labels: [] },
    { marked: "plain |text", labels: [] },
  ])("$marked", ({ marked, labels }) => {
    const [source, offset] = at(marked);
    expect(completeTemplateAt(source, offset, SCOPE).map((c) => c.label)).toEqual(labels);
  });
});
