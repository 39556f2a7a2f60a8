import { describe, expect, it } from "vitest";
import { compileTemplate, ExprEvalError, renderTemplate } from "../../src/expr/index.js";
import { SCOPE, sexpr } from "./helpers.js";

const ENV = {
  task: { id: "publish-post", version: 5 },
  unit: { id: "publish" },
  run: { id: "R1" },
  attempt: { id: "a2", number: 2 },
  result: { booking_id: "B-9", passed: true, claims: [] },
};

describe("compileTemplate", () => {
  it.each([
    { source: "task:${task.id}:${unit.id}:v${task.version}", parts: ['"task:"', "task.id", '":"', "unit.id", '":v"', "task.version"] },
    { source: "${run.id}/${unit.id}/${attempt.id}", parts: ["run.id", '"/"', "unit.id", '"/"', "attempt.id"] },
    { source: "${result.booking_id}", parts: ["result.booking_id"] },
    { source: "plain text", parts: ['"plain text"'] },
    { source: "", parts: [] },
    { source: "cost: $5 and $$ stay", parts: ['"cost: $5 and $$ stay"'] },
    { source: "literal $${task.id} here", parts: ['"literal ${task.id} here"'] },
    // `$${` is read left to right: the first `$` is text, then `$${` is the escape
    { source: "$$${task.id}", parts: ['"$${task.id}"'] },
    { source: '${"$"}${task.id}', parts: ['"$"', "task.id"] },
    { source: "${ '}' + unit.id }", parts: ['(+ "}" unit.id)'] },
    { source: '${"a\\"}" + unit.id}!', parts: ['(+ "a\\"}" unit.id)', '"!"'] },
    { source: "${attempt.number + 1}", parts: ["(+ attempt.number 1)"] },
    { source: "${result.passed}", parts: ["result.passed"] },
    { source: "{not a part}", parts: ['"{not a part}"'] },
  ])("$source", ({ source, parts }) => {
    const { template, errors } = compileTemplate(source, SCOPE);
    expect(errors).toEqual([]);
    expect(template!.source).toBe(source);
    expect(template!.parts.map((p) => ("text" in p ? JSON.stringify(p.text) : sexpr(p.expr)))).toEqual(parts);
  });

  it("gives expression spans relative to the template source", () => {
    const { template } = compileTemplate("key:${task.id}", SCOPE);
    const part = template!.parts[1]!;
    expect("expr" in part && part.expr.span).toEqual({ start: 6, end: 13 });
  });

  it.each([
    { source: "k:${task.idd}", errors: [{ start: 9, end: 12, message: "unknown field 'idd' of 'task' — did you mean 'id'?" }] },
    { source: "k:${reslt.booking_id}", errors: [{ start: 4, end: 9, message: "unknown name 'reslt' — did you mean 'result'?" }] },
    { source: "k:${task.id", errors: [{ start: 2, end: 11, message: "unterminated '${': add '}' after the expression" }] },
    {
      source: "k:${}",
      errors: [{ start: 2, end: 5, message: "empty template part '${}': put an expression inside, or write '$${' for a literal '${'" }],
    },
    {
      source: "k:${  }",
      errors: [{ start: 2, end: 7, message: "empty template part '${}': put an expression inside, or write '$${' for a literal '${'" }],
    },
    {
      source: "${task.id +}",
      errors: [{ start: 11, end: 11, message: "expected an expression after '+', found the end of the expression" }],
    },
    {
      source: "${result.claims}",
      errors: [{ start: 2, end: 15, message: "a template part must be a string, number or boolean, but result.claims is a list" }],
    },
    { source: "${null}", errors: [{ start: 2, end: 6, message: "a template part must be a string, number or boolean, but null is null" }] },
    {
      source: "${result.meta}",
      errors: [{ start: 2, end: 13, message: "a template part must be a string, number or boolean, but result.meta is an object" }],
    },
    {
      source: "${alpha}-${beta}",
      errors: [
        {
          start: 2,
          end: 7,
          message: "unknown name 'alpha'; names here: S04, attempt, blob, flag, inputs, items, n, nothing, result, run, s, task, unit",
        },
        {
          start: 11,
          end: 15,
          message: "unknown name 'beta'; names here: S04, attempt, blob, flag, inputs, items, n, nothing, result, run, s, task, unit",
        },
      ],
    },
  ])("rejects $source", ({ source, errors }) => {
    const result = compileTemplate(source, SCOPE);
    expect(result.errors).toEqual(errors);
    expect(result.template).toBeUndefined();
  });
});

describe("renderTemplate", () => {
  it.each([
    { source: "task:${task.id}:${unit.id}:v${task.version}", text: "task:publish-post:publish:v5" },
    { source: "${run.id}/${unit.id}/${attempt.id}", text: "R1/publish/a2" },
    { source: "${result.booking_id}", text: "B-9" },
    { source: "n${attempt.number / 4}-${result.passed}", text: "n0.5-true" },
    { source: "literal $${x}", text: "literal ${x}" },
    { source: "", text: "" },
  ])("$source -> $text", ({ source, text }) => {
    const { template } = compileTemplate(source, SCOPE);
    expect(renderTemplate(template!, ENV)).toBe(text);
  });

  it.each([
    { env: { result: {} }, message: "template part ${result.booking_id} is null (missing); a template needs a string, number or boolean" },
    {
      env: { result: { booking_id: ["x"] } },
      message: "template part ${result.booking_id} is a list; a template needs a string, number or boolean",
    },
  ])("refuses to write a hole into a key: $message", ({ env, message }) => {
    const { template } = compileTemplate("cancel:${result.booking_id}", SCOPE);
    expect(() => renderTemplate(template!, env)).toThrow(ExprEvalError);
    expect(() => renderTemplate(template!, env)).toThrow(message);
  });
});
