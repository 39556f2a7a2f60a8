/**
 * compileExpression, case by case: source -> AST (s-expression) and type, or
 * -> errors with exact offsets. Scope is SCOPE from helpers.ts unless a case
 * says otherwise; `expected` is the required result type (boolean for
 * `check` and `until`).
 */
import type { ExprScope } from "../../src/expr/index.js";
import type { ExprType } from "../../src/plan/schema.js";

export interface CompileCase {
  source: string;
  scope?: ExprScope;
  expected?: ExprType;
  ast?: string;
  type?: ExprType;
  errors?: { start: number; end: number; message: string }[];
}

export const literalCases: CompileCase[] = [
  { source: "42", ast: "42", type: "number" },
  { source: "3.25", ast: "3.25", type: "number" },
  { source: "1e3", ast: "1000", type: "number" },
  { source: "2.5E-2", ast: "0.025", type: "number" },
  { source: '"hi"', ast: '"hi"', type: "string" },
  { source: "'hi'", ast: '"hi"', type: "string" },
  { source: String.raw`"a\"b\\c\n\t\r'"`, ast: JSON.stringify("a\"b\\c\n\t\r'"), type: "string" },
  { source: String.raw`'it\'s'`, ast: JSON.stringify("it's"), type: "string" },
  { source: '"${not a template}"', ast: '"${not a template}"', type: "string" },
  { source: "true", ast: "true", type: "boolean" },
  { source: "false", ast: "false", type: "boolean" },
  { source: "null", ast: "null", type: "null" },
  { source: "  ( 7 )  ", ast: "7", type: "number" },
];

export const pathCases: CompileCase[] = [
  { source: "result.claims[0].id", ast: "result.claims[0].id", type: "any" },
  { source: "inputs.audience", ast: "inputs.audience", type: "string" },
  { source: "S04.result.x", ast: "S04.result.x", type: "any" },
  { source: "result.meta.lang", ast: "result.meta.lang", type: "string" },
  { source: 'result["meta"]["lang"]', ast: 'result["meta"]["lang"]', type: "string" },
  { source: "result.anything.goes", ast: "result.anything.goes", type: "any" },
  { source: "inputs.sources.groupA", ast: "inputs.sources.groupA", type: "any" },
  { source: "items[n + 1]", ast: "items[(+ n 1)]", type: "any" },
  { source: "blob.x[2].y", ast: "blob.x[2].y", type: "any" },
  { source: "task.version", ast: "task.version", type: "number" },
  { source: "truex", scope: { truex: { type: "number" } }, ast: "truex", type: "number" },
  { source: "nullable.x", scope: { nullable: { type: "any" } }, ast: "nullable.x", type: "any" },
  // '-' between name characters and a letter belongs to the name (unit and input names like group-a)
  { source: "group-a.result.x", scope: { "group-a": { type: "object", open: true } }, ast: "group-a.result.x", type: "any" },
  { source: "result.total-tax", ast: "result.total-tax", type: "any" },
  { source: "true-ish", scope: { "true-ish": { type: "boolean" } }, ast: "true-ish", type: "boolean" },
  { source: "n-1", ast: "(- n 1)", type: "number" },
  { source: "n - n", ast: "(- n n)", type: "number" },
  { source: "n -n", ast: "(- n n)", type: "number" },
  {
    source: "n-n > 0",
    errors: [
      {
        start: 0,
        end: 3,
        message:
          "unknown name 'n-n' (a '-' between letters is part of a name: write 'a - b' to subtract); names here: S04, attempt, blob, flag, inputs, items, n, nothing, result, run, s, task, unit",
      },
    ],
  },
  { source: "reslt.x", errors: [{ start: 0, end: 5, message: "unknown name 'reslt' — did you mean 'result'?" }] },
  { source: "Result", errors: [{ start: 0, end: 6, message: "unknown name 'Result' — did you mean 'result'?" }] },
  {
    source: "zzz",
    errors: [
      {
        start: 0,
        end: 3,
        message: "unknown name 'zzz'; names here: S04, attempt, blob, flag, inputs, items, n, nothing, result, run, s, task, unit",
      },
    ],
  },
  {
    source: "inputs.audiense",
    errors: [{ start: 7, end: 15, message: "unknown field 'audiense' of 'inputs' — did you mean 'audience'?" }],
  },
  { source: "task.owner", errors: [{ start: 5, end: 10, message: "unknown field 'owner' of 'task'; its fields are id, version" }] },
  {
    source: "result.meta.langs",
    errors: [{ start: 12, end: 17, message: "unknown field 'langs' of 'result.meta' — did you mean 'lang'?" }],
  },
  { source: 'inputs["x"]', errors: [{ start: 6, end: 11, message: "unknown field 'x' of 'inputs'; its fields are audience, sources" }] },
  {
    source: "inputs[0]",
    errors: [{ start: 6, end: 9, message: "'inputs' is an object: its index must be a field name (a string), not a number" }],
  },
  {
    source: "result.claims.first",
    errors: [
      {
        start: 14,
        end: 19,
        message: "'result.claims' is a list and has no field 'first': pick an element with [n], or use count(result.claims)",
      },
    ],
  },
  { source: 'items["a"]', errors: [{ start: 5, end: 10, message: "'items' is a list: its index must be a number, not a string" }] },
  { source: "task.id.length", errors: [{ start: 8, end: 14, message: "'task.id' is a string and has no field 'length'" }] },
  { source: "n[0]", errors: [{ start: 1, end: 4, message: "'n' is a number and has no elements" }] },
  { source: "blob[flag]", errors: [{ start: 4, end: 10, message: "an index must be a number or a string, not a boolean" }] },
  {
    source: "task.idd[reslt]",
    errors: [
      { start: 5, end: 8, message: "unknown field 'idd' of 'task' — did you mean 'id'?" },
      { start: 9, end: 14, message: "unknown name 'reslt' — did you mean 'result'?" },
    ],
  },
  { source: "items[reslt]", errors: [{ start: 6, end: 11, message: "unknown name 'reslt' — did you mean 'result'?" }] },
];

export const operatorCases: CompileCase[] = [
  // equality: any two types may be compared with null or any; other mixes are always false
  { source: "n == 1", ast: "(== n 1)", type: "boolean" },
  { source: "s != 'x'", ast: '(!= s "x")', type: "boolean" },
  { source: "result.title == null", ast: "(== result.title null)", type: "boolean" },
  { source: "blob == 3", ast: "(== blob 3)", type: "boolean" },
  { source: "items == items", ast: "(== items items)", type: "boolean" },
  { source: "s == 3", errors: [{ start: 0, end: 6, message: "comparing a string and a number is always false" }] },
  { source: "flag != 'yes'", errors: [{ start: 0, end: 13, message: "comparing a boolean and a string is always true" }] },
  // ordering: two numbers or two strings
  { source: "n < 3", ast: "(< n 3)", type: "boolean" },
  { source: "n <= 3", ast: "(<= n 3)", type: "boolean" },
  { source: "n > 3", ast: "(> n 3)", type: "boolean" },
  { source: "n >= 3", ast: "(>= n 3)", type: "boolean" },
  { source: "s < 'm'", ast: '(< s "m")', type: "boolean" },
  { source: "blob > 1", ast: "(> blob 1)", type: "boolean" },
  { source: '"a" < 3', errors: [{ start: 0, end: 7, message: "'<' compares two numbers or two strings, not a string and a number" }] },
  {
    source: "flag >= true",
    errors: [{ start: 0, end: 12, message: "'>=' compares two numbers or two strings, not a boolean and a boolean" }],
  },
  { source: "1 < 2 < 3", errors: [{ start: 0, end: 9, message: "'<' compares two numbers or two strings, not a boolean and a number" }] },
  // logic: booleans, && binds tighter than ||
  { source: "flag && n > 1", ast: "(&& flag (> n 1))", type: "boolean" },
  { source: "flag || flag && false", ast: "(|| flag (&& flag false))", type: "boolean" },
  { source: "(flag || flag) && false", ast: "(&& (|| flag flag) false)", type: "boolean" },
  { source: "blob && result.passed", ast: "(&& blob result.passed)", type: "boolean" },
  { source: "n && flag", errors: [{ start: 0, end: 1, message: "'&&' needs booleans, but its left side is a number" }] },
  { source: "flag || 's'", errors: [{ start: 8, end: 11, message: "'||' needs booleans, but its right side is a string" }] },
  { source: "!flag", ast: "(! flag)", type: "boolean" },
  { source: "!!flag", ast: "(! (! flag))", type: "boolean" },
  {
    source: "!n == 1",
    errors: [
      { start: 1, end: 2, message: "'!' needs a boolean, but this is a number" },
      { start: 0, end: 7, message: "comparing a boolean and a number is always false" },
    ],
  },
  { source: "!5", errors: [{ start: 1, end: 2, message: "'!' needs a boolean, but this is a number" }] },
  { source: "!(n + 1)", errors: [{ start: 1, end: 8, message: "'!' needs a boolean, but this is a number" }] },
  // arithmetic: * / before + -, left-associative, unary minus
  { source: "1 + 2 * 3", ast: "(+ 1 (* 2 3))", type: "number" },
  { source: "(1 + 2) * 3", ast: "(* (+ 1 2) 3)", type: "number" },
  { source: "10 - 4 - 3", ast: "(- (- 10 4) 3)", type: "number" },
  { source: "8 / 4 / 2", ast: "(/ (/ 8 4) 2)", type: "number" },
  { source: "n - -1", ast: "(- n (- 1))", type: "number" },
  { source: "-n * 2", ast: "(* (- n) 2)", type: "number" },
  { source: "s + '!'", ast: '(+ s "!")', type: "string" },
  { source: "blob + 1", ast: "(+ blob 1)", type: "number" },
  { source: "blob + blob", ast: "(+ blob blob)", type: "any" },
  { source: "s + 1", errors: [{ start: 0, end: 5, message: "'+' adds two numbers or joins two strings, not a string and a number" }] },
  { source: "n * 's'", errors: [{ start: 4, end: 7, message: "'*' needs numbers, but its right side is a string" }] },
  { source: "flag / 2", errors: [{ start: 0, end: 4, message: "'/' needs numbers, but its left side is a boolean" }] },
  { source: "-s", errors: [{ start: 1, end: 2, message: "'-' needs a number, but this is a string" }] },
  { source: "n - null", errors: [{ start: 4, end: 8, message: "'-' needs numbers, but its right side is null" }] },
  // comparison binds tighter than equality, equality tighter than &&
  { source: "n > 1 == flag && true", ast: "(&& (== (> n 1) flag) true)", type: "boolean" },
];

export const functionCases: CompileCase[] = [
  { source: "count(result.claims)", ast: "(count result.claims)", type: "number" },
  { source: "count(items) >= 1", ast: "(>= (count items) 1)", type: "boolean" },
  { source: "count(blob)", ast: "(count blob)", type: "number" },
  { source: "count(1)", errors: [{ start: 6, end: 7, message: "count() needs a list, but this is a number" }] },
  { source: "count(s)", errors: [{ start: 6, end: 7, message: "count() needs a list, but this is a string" }] },
  { source: "count()", errors: [{ start: 0, end: 7, message: "count() takes exactly 1 argument (count(list) -> number), got 0" }] },
  {
    source: "count(items, items)",
    errors: [{ start: 0, end: 19, message: "count() takes exactly 1 argument (count(list) -> number), got 2" }],
  },
  { source: "len(s)", ast: "(len s)", type: "number" },
  { source: "len(items)", ast: "(len items)", type: "number" },
  { source: "len(result.title) > 3", ast: "(> (len result.title) 3)", type: "boolean" },
  { source: "len(n)", errors: [{ start: 4, end: 5, message: "len() needs a string or a list, but this is a number" }] },
  { source: "exists(result.post_id)", ast: "(exists result.post_id)", type: "boolean" },
  { source: "exists(null)", ast: "(exists null)", type: "boolean" },
  {
    source: "exists(1, 2)",
    errors: [{ start: 0, end: 12, message: "exists() takes exactly 1 argument (exists(value) -> boolean), got 2" }],
  },
  { source: "all(result.checks)", ast: "(all result.checks)", type: "boolean" },
  { source: "all(flag, n > 1, items)", ast: "(all flag (> n 1) items)", type: "boolean" },
  { source: "any(items)", ast: "(any items)", type: "boolean" },
  { source: "any(flag, false)", ast: "(any flag false)", type: "boolean" },
  {
    source: "all()",
    errors: [{ start: 0, end: 5, message: "all() takes at least 1 argument (all(boolean | list, ...) -> boolean), got 0" }],
  },
  { source: "any(s)", errors: [{ start: 4, end: 5, message: "any() needs booleans or lists of booleans, but this is a string" }] },
  { source: "all(flag, 2)", errors: [{ start: 10, end: 11, message: "all() needs booleans or lists of booleans, but this is a number" }] },
  {
    source: "cnt(items)",
    errors: [{ start: 0, end: 3, message: "unknown function 'cnt'; the functions are count, len, exists, all, any" }],
  },
  { source: "exist(items)", errors: [{ start: 0, end: 5, message: "unknown function 'exist' — did you mean 'exists'?" }] },
  { source: "Count(items)", errors: [{ start: 0, end: 5, message: "unknown function 'Count' — did you mean 'count'?" }] },
  {
    source: "count(items).x",
    errors: [{ start: 13, end: 14, message: "a function result has no fields or elements: 'count(...)' cannot be followed by '.' or '['" }],
  },
  {
    source: "count",
    errors: [
      {
        start: 0,
        end: 5,
        message: "unknown name 'count'; names here: S04, attempt, blob, flag, inputs, items, n, nothing, result, run, s, task, unit",
      },
    ],
  },
];

export const syntaxCases: CompileCase[] = [
  { source: "", errors: [{ start: 0, end: 0, message: "empty expression" }] },
  { source: "   ", errors: [{ start: 0, end: 3, message: "empty expression" }] },
  { source: "count(items", errors: [{ start: 11, end: 11, message: "expected ')' after argument list, found the end of the expression" }] },
  { source: "count(items n", errors: [{ start: 12, end: 13, message: "expected ')' after argument list, found 'n'" }] },
  { source: "(n + 1", errors: [{ start: 6, end: 6, message: "expected ')' to close '(', found the end of the expression" }] },
  { source: "items[0", errors: [{ start: 7, end: 7, message: "expected ']' after index, found the end of the expression" }] },
  { source: "result.", errors: [{ start: 7, end: 7, message: "expected a field name after '.', found the end of the expression" }] },
  { source: "result.1", errors: [{ start: 7, end: 8, message: "expected a field name after '.', found '1'" }] },
  { source: "n ==", errors: [{ start: 4, end: 4, message: "expected an expression after '==', found the end of the expression" }] },
  { source: "n + * 2", errors: [{ start: 4, end: 5, message: "expected an expression after '+', found '*'" }] },
  { source: "n 2", errors: [{ start: 2, end: 3, message: "unexpected '2': expected an operator or the end of the expression" }] },
  { source: "n 'x'", errors: [{ start: 2, end: 5, message: "unexpected string 'x': expected an operator or the end of the expression" }] },
  { source: "s.'x'", errors: [{ start: 2, end: 5, message: "expected a field name after '.', found the string 'x'" }] },
  { source: "flag ! flag", errors: [{ start: 5, end: 6, message: "unexpected '!': it negates what follows it; use '!=' to compare" }] },
  {
    source: "result.get(1)",
    errors: [{ start: 10, end: 11, message: "unexpected '(': only the functions count, len, exists, all and any can be called" }],
  },
  { source: "count(items,)", errors: [{ start: 12, end: 13, message: "expected an expression after ',', found ')'" }] },
  { source: "items[]", errors: [{ start: 6, end: 7, message: "expected an expression after '[', found ']'" }] },
  { source: "n == == 1", errors: [{ start: 5, end: 7, message: "expected an expression after '==', found '=='" }] },
  { source: "n)", errors: [{ start: 1, end: 2, message: "unexpected ')' without a matching '('" }] },
  { source: "n]", errors: [{ start: 1, end: 2, message: "unexpected ']' without a matching '['" }] },
  { source: "n = 1", errors: [{ start: 2, end: 3, message: "unexpected character '=': use '==' to compare" }] },
  { source: "flag & flag", errors: [{ start: 5, end: 6, message: "unexpected character '&': use '&&' for 'and'" }] },
  { source: "flag | flag", errors: [{ start: 5, end: 6, message: "unexpected character '|': use '||' for 'or'" }] },
  { source: "len(s) > 0 and flag", errors: [{ start: 11, end: 14, message: "'and' is not an operator: use '&&'" }] },
  { source: "(flag or flag)", errors: [{ start: 6, end: 8, message: "'or' is not an operator: use '||'" }] },
  { source: "not flag", errors: [{ start: 0, end: 3, message: "'not' is not an operator: use '!'" }] },
  { source: "n % 2", errors: [{ start: 2, end: 3, message: "unexpected character '%': there is no '%' operator" }] },
  {
    source: "${n}",
    errors: [
      {
        start: 0,
        end: 2,
        message:
          "unexpected characters '${': write the expression itself; '${...}' marks expressions only inside templates (tool keys, compensation arguments)",
      },
      { start: 3, end: 4, message: "unexpected character '}': braces only delimit template parts: ${...}" },
    ],
  },
  {
    source: "n\u00a0> 1",
    errors: [{ start: 1, end: 2, message: "unexpected character '\\u00a0': a non-breaking space; use a plain space" }],
  },
  { source: "n\t>\r\n1", ast: "(> n 1)", type: "boolean" },
  { source: "s == 'naïve ✓' && n > 1", ast: '(&& (== s "naïve ✓") (> n 1))', type: "boolean" },
  { source: "s == 'x' ✓", errors: [{ start: 9, end: 10, message: "unexpected character '\\u2713'" }] },
  { source: "n @# 1", errors: [{ start: 2, end: 4, message: "unexpected characters '@#'" }] },
  { source: "'abc", errors: [{ start: 0, end: 4, message: "unterminated string: add the closing '" }] },
  { source: 's == "abc', errors: [{ start: 5, end: 9, message: 'unterminated string: add the closing "' }] },
  {
    source: String.raw`"a\qb"`,
    errors: [{ start: 2, end: 4, message: String.raw`unknown escape '\q' in string: the escapes are \n \t \r \\ \' \"` }],
  },
  { source: "1e999", errors: [{ start: 0, end: 5, message: "number 1e999 is too large" }] },
  // recovery: more than one syntax error is reported
  {
    source: "count(items n) + (1",
    errors: [
      { start: 12, end: 13, message: "expected ')' after argument list, found 'n'" },
      { start: 19, end: 19, message: "expected ')' to close '(', found the end of the expression" },
    ],
  },
];

export const expectedTypeCases: CompileCase[] = [
  { source: "count(result.claims) >= 1", expected: "boolean", ast: "(>= (count result.claims) 1)", type: "boolean" },
  { source: "result.claims_check.passed", expected: "boolean", ast: "result.claims_check.passed", type: "any" },
  {
    source: "count(result.claims)",
    expected: "boolean",
    errors: [{ start: 0, end: 20, message: "this must be a boolean, but it is a number" }],
  },
  { source: " (s) ", expected: "boolean", errors: [{ start: 1, end: 4, message: "this must be a boolean, but it is a string" }] },
  { source: "n + 1", expected: "number", ast: "(+ n 1)", type: "number" },
  { source: "n + 1", expected: "any", ast: "(+ n 1)", type: "number" },
];
