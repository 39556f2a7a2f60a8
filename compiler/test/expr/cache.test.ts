/**
 * Parse results are cached by source and shared: the same source compiled
 * against different scopes is judged by each scope, and changing what one
 * call returned does not change what the next call returns.
 */
import { describe, expect, it } from "vitest";
import { compileExpression, compileTemplate, type ExprScope } from "../../src/expr/index.js";

const withA: ExprScope = { a: { type: "number" } };
const withB: ExprScope = { b: { type: "number" } };

describe("compiling a source that was compiled before", () => {
  it("checks names against the scope of each call", () => {
    expect(compileExpression("a > 1", withA, "boolean").errors).toEqual([]);
    expect(compileExpression("a > 1", withB, "boolean").errors.map((e) => e.message)).toEqual(["unknown name 'a' — did you mean 'b'?"]);
    expect(compileExpression("a > 1", withA, "boolean").errors).toEqual([]);
    expect(compileTemplate("${a}", withB).errors).toHaveLength(1);
    expect(compileTemplate("${a}", withA).template?.parts).toHaveLength(1);
  });

  it("returns errors a caller may change without affecting later calls", () => {
    const first = compileExpression("1 +", withA);
    expect(first.errors.length).toBeGreaterThan(0);
    const expected = structuredClone(first.errors);
    first.errors.length = 0;
    expect(compileExpression("1 +", withA).errors).toEqual(expected);
  });
});
