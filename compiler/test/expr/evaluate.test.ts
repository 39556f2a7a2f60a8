/**
 * evaluate(), table-driven: each case compiles its source against an open
 * scope (so names type-check) and evaluates it in ENV. `throws` is the exact
 * ExprEvalError message.
 */
import { describe, expect, it } from "vitest";
import { compileExpression, evaluate, ExprEvalError, type ExprScope } from "../../src/expr/index.js";
import type { ExprNode } from "../../src/plan/schema.js";

const ENV: Record<string, unknown> = {
  result: {
    claims: [
      { id: "c1", score: 0.9 },
      { id: "c2", score: 0.4 },
    ],
    checks: [true, true],
    mixed: [true, false],
    notes: ["x", 1],
    title: "Brief",
    count: 3,
    passed: true,
    nested: { a: { b: [10, 20] } },
    nil: null,
  },
  inputs: { audience: "product-team", "odd-name": 1 },
  S04: { result: { x: 7 } },
  n: 4,
  s: "héllo",
  flag: false,
};
const OPEN: ExprScope = Object.fromEntries(
  Object.keys(ENV)
    .concat(["missing"])
    .map((k) => [k, { type: "any" as const }]),
);

interface EvalCase {
  source: string;
  value?: unknown;
  throws?: string;
}

const cases: Record<string, EvalCase[]> = {
  literals: [
    { source: "1.5", value: 1.5 },
    { source: "'a'", value: "a" },
    { source: "true", value: true },
    { source: "null", value: null },
  ],
  paths: [
    { source: "result.claims[0].id", value: "c1" },
    { source: "result.claims[1].score", value: 0.4 },
    { source: "result.nested.a.b[1]", value: 20 },
    { source: "result['title']", value: "Brief" },
    { source: "inputs['odd-name']", value: 1 },
    { source: "inputs.audience", value: "product-team" },
    { source: "S04.result.x", value: 7 },
    { source: "result.claims[n - 3].id", value: "c2" },
    { source: "result.nested", value: { a: { b: [10, 20] } } },
    // missing paths are null, and stay null however far they go
    { source: "missing", value: null },
    { source: "result.absent", value: null },
    { source: "result.absent.deeper[3].x", value: null },
    { source: "result.nil.x", value: null },
    { source: "result.claims[5]", value: null },
    { source: "result.claims[-1]", value: null },
    { source: "result.constructor", value: null },
    { source: "result.__proto__", value: null },
    { source: "result.claims.x", throws: "cannot read field 'x' of a list in result.claims.x" },
    { source: "result.title.x", throws: "cannot read field 'x' of a string in result.title.x" },
    { source: "n[0]", throws: "cannot index a number in n[0]" },
    { source: "result.claims[0.5]", throws: "a list index must be a whole number, but 0.5 is 0.5" },
    { source: "result.claims['a']", throws: 'a list index must be a whole number, but "a" is a string' },
    { source: "result[1]", throws: "an object is indexed by a field name, but 1 is a number" },
  ],
  equality: [
    { source: "n == 4", value: true },
    { source: "n != 4", value: false },
    { source: "s == 'héllo'", value: true },
    { source: "result.absent == null", value: true },
    { source: "result.nil == null", value: true },
    { source: "result.title == null", value: false },
    { source: "result.checks == result.checks", value: true },
    { source: "result.checks == result.mixed", value: false },
    { source: "result.nested == result.nested", value: true },
    { source: "n == '4'", value: false },
  ],
  ordering: [
    { source: "n < 5", value: true },
    { source: "n <= 4", value: true },
    { source: "n > 4", value: false },
    { source: "n >= 4.5", value: false },
    { source: "'abc' < 'abd'", value: true },
    { source: "'b' >= 'a'", value: true },
    { source: "result.absent > 3", throws: "'>' compares two numbers or two strings, but got null and a number" },
    { source: "s < 3", throws: "'<' compares two numbers or two strings, but got a string and a number" },
  ],
  logic: [
    { source: "true && false", value: false },
    { source: "true || false", value: true },
    { source: "!flag", value: true },
    { source: "flag && result.absent", value: false },
    { source: "!flag || result.absent", value: true },
    { source: "exists(result.absent) && result.absent.x > 1", value: false },
    { source: "result.absent && true", throws: "'&&' needs a boolean, but result.absent is null" },
    { source: "true && n", throws: "'&&' needs a boolean, but n is a number" },
    { source: "!s", throws: "'!' needs a boolean, but s is a string" },
  ],
  arithmetic: [
    { source: "1 + 2 * 3", value: 7 },
    { source: "(1 + 2) * 3", value: 9 },
    { source: "10 - 4 - 3", value: 3 },
    { source: "8 / 4 / 2", value: 1 },
    { source: "-n", value: -4 },
    { source: "- -n", value: 4 },
    { source: "s + '!'", value: "héllo!" },
    { source: "1 / 0", throws: "division by zero in 1 / 0" },
    { source: "1e308 * 10", throws: "1e+308 * 10 has no finite value (division by zero or overflow)" },
    { source: "s + 1", throws: "'+' adds two numbers or joins two strings, but got a string and a number" },
    { source: "n - result.absent", throws: "'-' needs a number, but result.absent is null" },
    { source: "-s", throws: "'-' needs a number, but s is a string" },
  ],
  functions: [
    { source: "count(result.claims)", value: 2 },
    { source: "count(result.absent)", value: 0 },
    { source: "count(result.title)", throws: "count() needs a list, but got a string" },
    { source: "len(s)", value: 5 },
    { source: "len('😀')", value: 1 },
    { source: "len(result.checks)", value: 2 },
    { source: "len(result.absent)", value: 0 },
    { source: "len(n)", throws: "len() needs a string or a list, but got a number" },
    { source: "exists(result.title)", value: true },
    { source: "exists(result.nil)", value: false },
    { source: "exists(result.absent.x)", value: false },
    { source: "exists(flag)", value: true },
    { source: "all(result.checks)", value: true },
    { source: "all(result.mixed)", value: false },
    { source: "all(result.checks, n > 3)", value: true },
    { source: "all(result.checks, n > 5)", value: false },
    { source: "all(false, result.absent)", value: false },
    { source: "all(result.absent)", throws: "all() needs booleans or lists of booleans, but argument 1 is null (missing)" },
    { source: "all(result.notes)", throws: "all() needs booleans, but element 0 of argument 1 is a string" },
    { source: "all(true, n)", throws: "all() needs booleans or lists of booleans, but argument 2 is a number" },
    { source: "any(result.mixed)", value: true },
    { source: "any(result.mixed, result.absent)", value: true },
    { source: "any(flag, n < 0)", value: false },
    { source: "any(result.absent)", throws: "any() needs booleans or lists of booleans, but argument 1 is null (missing)" },
  ],
};

for (const [name, table] of Object.entries(cases)) {
  describe(`evaluate: ${name}`, () => {
    it.each(table)("$source", (c) => {
      const { expr, errors } = compileExpression(c.source, OPEN);
      expect(errors).toEqual([]);
      if (c.throws === undefined) {
        expect(evaluate(expr!.ast, ENV)).toEqual(c.value);
      } else {
        expect(() => evaluate(expr!.ast, ENV)).toThrow(ExprEvalError);
        expect(() => evaluate(expr!.ast, ENV)).toThrow(c.throws);
      }
    });
  });
}

describe("evaluate: errors", () => {
  it("carry the span of the failing node", () => {
    const { expr } = compileExpression("n > 1 && 1 / 0 > 1", OPEN);
    try {
      evaluate(expr!.ast, ENV);
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ExprEvalError);
      expect((e as ExprEvalError).span).toEqual({ start: 9, end: 14 });
    }
  });

  it("treat undefined values in the environment as missing", () => {
    const { expr } = compileExpression("exists(result) || result == null", OPEN);
    expect(evaluate(expr!.ast, { result: undefined })).toBe(true);
  });

  it("report values that JSON cannot hold instead of using them", () => {
    const ast: ExprNode = {
      type: "unary",
      op: "!",
      operand: { type: "path", root: "f", segments: [], span: { start: 1, end: 2 } },
      span: { start: 0, end: 2 },
    };
    expect(() => evaluate(ast, { f: () => true })).toThrow("'!' needs a boolean, but f is an unsupported value");
  });
});
