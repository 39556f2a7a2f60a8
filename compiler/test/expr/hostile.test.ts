/**
 * Hostile input: every case must come back as errors (never a throw, never a
 * stack overflow). Time is bounded by the test timeout, not asserted.
 */
import { describe, expect, it } from "vitest";
import { compileExpression, compileTemplate, completeAt, evaluate } from "../../src/expr/index.js";
import { MAX_ERRORS, MAX_NESTING, MAX_SOURCE_LENGTH, MAX_TOKENS } from "../../src/expr/limits.js";
import { RECOVERY_TOKEN_LIMIT } from "../../src/expr/parser.js";
import { SCOPE } from "./helpers.js";

/** Run `f` with `frames` extra stack frames below it, like a caller deep inside the compiler. */
function deep<T>(frames: number, f: () => T): T {
  return frames === 0 ? f() : deep(frames - 1, f);
}

describe("hostile expressions", () => {
  it("an expression of 100k tokens gets one error", () => {
    const source = Array.from({ length: 50_000 }, () => "n").join("+");
    expect(source.length).toBeGreaterThan(MAX_SOURCE_LENGTH);
    expect(compileExpression(source, SCOPE).errors).toEqual([
      {
        start: 0,
        end: source.length,
        message: `expression is too long (${source.length} characters; the limit is ${MAX_SOURCE_LENGTH}): split it into several checks`,
      },
    ]);
  });

  it("too many tokens in few characters gets one error", () => {
    const source = Array.from({ length: 3_000 }, () => "n").join("+");
    expect(compileExpression(source, SCOPE).errors).toEqual([
      {
        start: 0,
        end: source.length,
        message: `expression is too long (5999 tokens; the limit is ${MAX_TOKENS}): split it into several checks`,
      },
    ]);
  });

  it.each([10_000, 5_000, 200, MAX_NESTING + 1])("%i nested parentheses get an error, not a stack overflow", (depth) => {
    const source = "(".repeat(depth) + "n" + ")".repeat(depth);
    const { errors } = compileExpression(source, SCOPE);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/too long|nested too deeply/);
  });

  it("reports the first bracket past the nesting limit", () => {
    const calls = MAX_NESTING / 2;
    const source = "count(".repeat(calls) + "items" + "[0".repeat(calls + 1);
    const offending = 6 * calls + 5 + 2 * (MAX_NESTING - calls);
    expect(compileExpression(source, SCOPE).errors).toEqual([
      { start: offending, end: offending + 1, message: `expression is nested too deeply (more than ${MAX_NESTING} levels of '(' and '[')` },
    ]);
  });

  it("the deepest allowed nesting compiles and evaluates even from a deep caller", () => {
    const source = "(".repeat(MAX_NESTING) + "n" + ")".repeat(MAX_NESTING) + " > 1";
    const result = deep(5_000, () => compileExpression(source, SCOPE, "boolean"));
    expect(result.errors).toEqual([]);
    expect(deep(5_000, () => evaluate(result.expr!.ast, { n: 2 }))).toBe(true);
  });

  it("the longest allowed operator chain compiles and evaluates from a deep caller", () => {
    const source = Array.from({ length: MAX_TOKENS / 2 }, () => "n").join(" - ");
    const result = deep(4_000, () => compileExpression(source, SCOPE));
    expect(result.errors).toEqual([]);
    expect(deep(4_000, () => evaluate(result.expr!.ast, { n: 1 }))).toBe(2 - MAX_TOKENS / 2);
  });

  it("the longest allowed prefix chain compiles and evaluates", () => {
    const source = "!".repeat(MAX_TOKENS - 1) + "flag";
    const result = compileExpression(source, SCOPE, "boolean");
    expect(result.errors).toEqual([]);
    expect(evaluate(result.expr!.ast, { flag: true })).toBe(false);
  });

  it("an error on every token: recovery up to RECOVERY_TOKEN_LIMIT tokens, the first error beyond", () => {
    const short = "n" + ".".repeat(RECOVERY_TOKEN_LIMIT - 1);
    const long = "n" + ".".repeat(1_900);
    const message = "expected a field name after '.', found '.'";
    expect(compileExpression(short, SCOPE).errors).toEqual(
      Array.from({ length: MAX_ERRORS }, (_, i) => ({ start: i + 2, end: i + 3, message })),
    );
    expect(compileExpression(long, SCOPE).errors).toEqual([{ start: 2, end: 3, message }]);
  });

  it("binary junk gets at most MAX_ERRORS errors, each inside the text", () => {
    let seed = 7;
    const bytes = Array.from({ length: 15_000 }, () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % 256);
    const source = String.fromCharCode(...bytes);
    const results = [compileExpression(source, SCOPE).errors, compileTemplate("${" + source + "}", SCOPE).errors];
    expect(results[0]!.length).toBeGreaterThan(0);
    for (const errors of results) {
      expect(errors.length).toBeLessThanOrEqual(MAX_ERRORS);
      for (const e of errors) expect(0 <= e.start && e.start <= e.end && e.end <= source.length + 3).toBe(true);
    }
    expect(Array.isArray(completeAt(source, source.length, SCOPE))).toBe(true);
  });

  it("a template of many parts is bounded by its length", () => {
    const source = "${n}".repeat(10_000);
    expect(compileTemplate(source, SCOPE).errors).toEqual([
      {
        start: 0,
        end: source.length,
        message: `template is too long (${source.length} characters; the limit is ${MAX_SOURCE_LENGTH}): shorten it`,
      },
    ]);
  });
});
