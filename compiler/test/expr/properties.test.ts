/**
 * Properties: no input makes the compiler or completion throw; errors stay
 * inside the text; printing any AST and parsing it back gives the same AST;
 * evaluation of any compiled expression over any JSON either returns a value
 * or throws ExprEvalError (never another exception).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compileExpression,
  compileTemplate,
  completeAt,
  completeTemplateAt,
  evaluate,
  ExprEvalError,
  formatExpression,
  namesIn,
  pathsIn,
  renderTemplate,
  type ExprScope,
} from "../../src/expr/index.js";
import { parseExpression } from "../../src/expr/syntax.js";
import { Value } from "@sinclair/typebox/value";
import { CompiledExpr, CompiledTemplate, ExprNode, type CallFn } from "../../src/plan/schema.js";
import { SCOPE, withoutSpans } from "./helpers.js";

const PIECES = [
  "result",
  "task",
  "inputs",
  "n",
  "s",
  "flag",
  "items",
  "count",
  "len",
  "exists",
  "all",
  "any",
  "x",
  ".",
  ",",
  "(",
  ")",
  "[",
  "]",
  "==",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "&&",
  "||",
  "!",
  "+",
  "-",
  "*",
  "/",
  "0",
  "1.5",
  "1e3",
  "'a'",
  '"b"',
  "'",
  '"',
  "\\",
  "true",
  "false",
  "null",
  "${",
  "$${",
  "}",
  "=",
  "&",
  "|",
  "@",
  "#",
  "\u0000",
  "\u00ff",
  "中",
  " ",
  "\n",
];
const soup = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((pieces) => pieces.join(""));
const anyText = fc.oneof(soup, fc.string({ unit: "binary", maxLength: 60 }));

function errorsInside(errors: { start: number; end: number }[], length: number): boolean {
  return errors.every((e) => 0 <= e.start && e.start <= e.end && e.end <= length);
}

describe("properties: robustness", () => {
  it("compileExpression never throws and keeps errors inside the text", () => {
    fc.assert(
      fc.property(anyText, fc.constantFrom(undefined, "boolean" as const), (source, expected) => {
        const result = compileExpression(source, SCOPE, expected);
        expect(errorsInside(result.errors, source.length)).toBe(true);
        expect(result.expr === undefined).toBe(result.errors.length > 0);
      }),
      { numRuns: 2_000 },
    );
  });

  it("compileTemplate never throws and keeps errors inside the text", () => {
    fc.assert(
      fc.property(anyText, (source) => {
        const result = compileTemplate(source, SCOPE);
        expect(errorsInside(result.errors, source.length)).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it("completion never throws at any offset", () => {
    fc.assert(
      fc.property(soup, (source) => {
        for (let offset = 0; offset <= source.length; offset++) {
          completeAt(source, offset, SCOPE);
          completeTemplateAt(source, offset, SCOPE);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// Names that lex as identifiers (not keywords), and numbers the parser can produce (no sign, finite, no -0).
const NAMES = ["result", "task", "a", "b_2", "S04", "count", "x", "group-a"];
const name = fc.constantFrom(...NAMES);
const span = { start: 0, end: 0 };
const numberValue = fc.oneof(fc.nat(), fc.double({ min: 0, max: 1e300, noNaN: true })).map((v) => (v === 0 ? 0 : v));

const { expr: astArbitrary } = fc.letrec<{ expr: ExprNode }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc
      .oneof(numberValue, fc.string({ unit: "binary", maxLength: 8 }), fc.boolean(), fc.constant(null))
      .map((value): ExprNode => ({ type: "literal", value, span })),
    fc
      .tuple(
        name,
        fc.array(
          fc.oneof(
            name.map((n) => ({ kind: "prop" as const, name: n })),
            tie("expr").map((index) => ({ kind: "index" as const, index })),
          ),
          { maxLength: 3 },
        ),
      )
      .map(([root, segments]): ExprNode => ({ type: "path", root, segments, span })),
    fc
      .tuple(fc.constantFrom("!" as const, "-" as const), tie("expr"))
      .map(([op, operand]): ExprNode => ({ type: "unary", op, operand, span })),
    fc
      .tuple(fc.constantFrom("==", "!=", "<", "<=", ">", ">=", "&&", "||", "+", "-", "*", "/" as const), tie("expr"), tie("expr"))
      .map(([op, left, right]): ExprNode => ({ type: "binary", op, left, right, span }) as ExprNode),
    fc
      .tuple(fc.constantFrom<CallFn>("count", "len", "exists", "all", "any"), fc.array(tie("expr"), { maxLength: 3 }))
      .map(([fn, args]): ExprNode => ({ type: "call", fn, args, span })),
  ),
}));

describe("properties: printing", () => {
  it("print then parse gives the same AST", () => {
    fc.assert(
      fc.property(astArbitrary, (ast) => {
        const text = formatExpression(ast);
        const parsed = parseExpression(text);
        expect(parsed.errors).toEqual([]);
        expect(withoutSpans(parsed.ast!)).toEqual(withoutSpans(ast));
      }),
      { numRuns: 2_000 },
    );
  });

  it("spans of a parsed AST lie inside the text and nest", () => {
    fc.assert(
      fc.property(astArbitrary, (ast) => {
        const text = formatExpression(ast);
        const check = (node: ExprNode, outer: { start: number; end: number }): void => {
          expect(outer.start <= node.span.start && node.span.start < node.span.end && node.span.end <= outer.end).toBe(true);
          const children =
            node.type === "unary"
              ? [node.operand]
              : node.type === "binary"
                ? [node.left, node.right]
                : node.type === "call"
                  ? node.args
                  : node.type === "path"
                    ? node.segments.flatMap((s) => (s.kind === "index" ? [s.index] : []))
                    : [];
          for (const child of children) check(child, node.span);
        };
        check(parseExpression(text).ast!, { start: 0, end: text.length });
      }),
      { numRuns: 500 },
    );
  });
});

const OPEN: ExprScope = Object.fromEntries(NAMES.map((n) => [n, { type: "any" as const }]));
const env = fc.dictionary(name, fc.jsonValue({ maxDepth: 3 }));

describe("properties: evaluation", () => {
  it("evaluate returns a value or throws ExprEvalError, for any AST that compiles and any JSON", () => {
    fc.assert(
      fc.property(astArbitrary, env, (ast, values) => {
        const { expr } = compileExpression(formatExpression(ast), OPEN);
        fc.pre(expr !== undefined);
        try {
          evaluate(expr!.ast, values);
        } catch (e) {
          expect(e).toBeInstanceOf(ExprEvalError);
        }
      }),
      { numRuns: 2_000 },
    );
  });

  it("namesIn lists exactly the roots that appear", () => {
    fc.assert(
      fc.property(astArbitrary, (ast) => {
        const text = formatExpression(ast);
        const names = namesIn(ast);
        expect(new Set(names).size).toBe(names.length);
        for (const n of names) expect(text).toContain(n);
        const roots = new Set<string>();
        JSON.stringify(ast, (key, value: unknown) => (key === "root" && typeof value === "string" && roots.add(value), value));
        expect(new Set(names)).toEqual(roots);
      }),
      { numRuns: 500 },
    );
  });

  it("pathsIn lists every path node once, in the order they appear in the text", () => {
    fc.assert(
      fc.property(astArbitrary, (ast) => {
        const all: unknown[] = [];
        JSON.stringify(ast, (_key, value: { type?: string }) => (value?.type === "path" && all.push(value), value));
        const paths = pathsIn(ast);
        expect(paths).toHaveLength(all.length);
        expect(new Set(paths)).toEqual(new Set(all));
        const { expr } = compileExpression(formatExpression(ast), OPEN);
        fc.pre(expr !== undefined);
        const starts = pathsIn(expr!.ast).map((p) => p.span.start);
        expect(starts).toEqual([...starts].sort((a, b) => a - b));
      }),
      { numRuns: 500 },
    );
  });
});

describe("properties: plan schema", () => {
  it("every compiled expression and template validates against the plan's JSON Schema types", () => {
    fc.assert(
      fc.property(astArbitrary, (ast) => {
        const text = formatExpression(ast);
        const { expr } = compileExpression(text, OPEN);
        fc.pre(expr !== undefined);
        expect(Value.Check(CompiledExpr, [ExprNode], expr)).toBe(true);
        const { template } = compileTemplate(`k:\${${text}}:$\${x}`, OPEN);
        if (template) expect(Value.Check(CompiledTemplate, [ExprNode], template)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe("properties: templates", () => {
  const text = fc.string({ unit: fc.constantFrom("$", "{", "}", "a", "'", '"', "\\", " "), maxLength: 30 });

  /** Literal text in a template: every `${` as `$${`; the `$`s just before a part inside a part, `${"$"}`. */
  const escape = (t: string, partFollows: boolean) => {
    const escaped = t.replaceAll("${", () => "$${");
    const dollars = partFollows ? /\$*$/.exec(escaped)![0] : "";
    return dollars ? `${escaped.slice(0, -dollars.length)}\${"${dollars}"}` : escaped;
  };

  it("any text written with every '${' as '$${' renders as itself", () => {
    fc.assert(
      fc.property(text, (t) => {
        const { template, errors } = compileTemplate(escape(t, false), OPEN);
        expect(errors).toEqual([]);
        expect(renderTemplate(template!, {})).toBe(t);
      }),
      { numRuns: 1_000 },
    );
  });

  it("string literals with braces and quotes inside a part render as their value", () => {
    fc.assert(
      fc.property(text, text, fc.string({ maxLength: 10 }), (before, after, value) => {
        const literal: ExprNode = { type: "literal", value, span };
        const source = `${escape(before, true)}\${${formatExpression(literal)}}${escape(after, false)}`;
        const { template, errors } = compileTemplate(source, OPEN);
        expect(errors).toEqual([]);
        expect(renderTemplate(template!, {})).toBe(before + value + after);
      }),
      { numRuns: 1_000 },
    );
  });
});
