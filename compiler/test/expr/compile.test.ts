import { describe, expect, it } from "vitest";
import { compileExpression } from "../../src/expr/index.js";
import {
  expectedTypeCases,
  functionCases,
  literalCases,
  operatorCases,
  pathCases,
  syntaxCases,
  type CompileCase,
} from "./compile-cases.js";
import { SCOPE, sexpr } from "./helpers.js";

const tables: Record<string, CompileCase[]> = {
  literals: literalCases,
  paths: pathCases,
  operators: operatorCases,
  functions: functionCases,
  "syntax errors": syntaxCases,
  "expected result type": expectedTypeCases,
};

for (const [name, cases] of Object.entries(tables)) {
  describe(`compileExpression: ${name}`, () => {
    it.each(cases)("$source", (c) => {
      const result = compileExpression(c.source, c.scope ?? SCOPE, c.expected);
      if (c.errors) {
        expect(result.errors).toEqual(c.errors);
        expect(result.expr).toBeUndefined();
      } else {
        expect(result.errors).toEqual([]);
        expect(sexpr(result.expr!.ast)).toBe(c.ast);
        expect(result.expr!.resultType).toBe(c.type);
        expect(result.expr!.source).toBe(c.source);
      }
    });
  });
}

describe("compileExpression: spans", () => {
  it("gives every node the offsets of its own text, parentheses included", () => {
    const { expr } = compileExpression("count(result.claims) >= (1 + n)", SCOPE, "boolean");
    expect(expr!.ast).toEqual({
      type: "binary",
      op: ">=",
      span: { start: 0, end: 31 },
      left: {
        type: "call",
        fn: "count",
        span: { start: 0, end: 20 },
        args: [{ type: "path", root: "result", segments: [{ kind: "prop", name: "claims" }], span: { start: 6, end: 19 } }],
      },
      right: {
        type: "binary",
        op: "+",
        span: { start: 24, end: 31 },
        left: { type: "literal", value: 1, span: { start: 25, end: 26 } },
        right: { type: "path", root: "n", segments: [], span: { start: 29, end: 30 } },
      },
    });
  });

  it("spans unary operators from the operator to the end of the operand", () => {
    const { expr } = compileExpression("  !-n", SCOPE);
    expect(expr).toBeUndefined();
    const ok = compileExpression("  - -n", SCOPE);
    expect(ok.expr!.ast.span).toEqual({ start: 2, end: 6 });
    expect(ok.expr!.ast.type === "unary" && ok.expr!.ast.operand.span).toEqual({ start: 4, end: 6 });
  });
});

describe("compileExpression: an empty scope", () => {
  it("rejects every name without listing candidates", () => {
    expect(compileExpression("x", {}).errors).toEqual([{ start: 0, end: 1, message: "unknown name 'x'" }]);
  });

  it("does not treat inherited object keys as names", () => {
    expect(compileExpression("constructor", {}).errors).toEqual([{ start: 0, end: 11, message: "unknown name 'constructor'" }]);
    expect(compileExpression("task.toString", SCOPE).errors[0]!.message).toBe(
      "unknown field 'toString' of 'task'; its fields are id, version",
    );
  });
});
