/**
 * The built-in functions: one entry per function holds what the checker needs
 * (arity, accepted argument types, result type), what completion shows, and
 * what the interpreter does. Arguments are passed as thunks so `all`/`any`
 * can stop early, like `&&`/`||`.
 *
 * | call                | arguments                              | result  | semantics |
 * |---------------------|----------------------------------------|---------|-----------|
 * | `count(list)`       | a list                                 | number  | number of elements; a missing list (null) counts 0 |
 * | `len(x)`            | a string or a list                     | number  | characters (Unicode code points) of a string, elements of a list; null is 0 |
 * | `exists(x)`         | anything                               | boolean | true unless x is null (a missing path is null) |
 * | `all(x, ...)`       | one or more booleans or lists of booleans | boolean | true when every boolean is true (lists are flattened one level); an empty list gives true |
 * | `any(x, ...)`       | one or more booleans or lists of booleans | boolean | true when some boolean is true; an empty list gives false |
 *
 * `all`/`any` evaluate their arguments left to right and stop at the first
 * deciding one. A missing list (null) or a non-boolean element is an
 * evaluation error, never a silent pass: `all(result.checks)` must not succeed
 * because `checks` is absent.
 */
import type { CallFn, ExprType } from "../plan/schema.js";

export interface FunctionSpec {
  name: CallFn;
  /** For completion and hover, e.g. `count(list) -> number`. */
  signature: string;
  /** One sentence on what it does, for hover and signature help. */
  summary: string;
  /** One parameter label per position of `signature`, for signature help. */
  params: readonly string[];
  /** A call as a contract would write it. */
  example: string;
  minArgs: number;
  maxArgs: number;
  /** Types accepted for every argument (`any` is always accepted). */
  accepts: readonly ExprType[];
  /** Noun phrase for messages: "count() needs a list". */
  accepted: string;
  returns: ExprType;
  apply(args: readonly (() => unknown)[], fail: (message: string) => never): unknown;
}

/** The type name of a runtime value, in the terms of ExprType. */
export function typeOfValue(value: unknown): ExprType | "unsupported value" {
  if (value === null || value === undefined) return "null";
  if (Array.isArray(value)) return "list";
  switch (typeof value) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "object":
      return "object";
    default:
      return "unsupported value";
  }
}

function booleansOf(fn: string, args: readonly (() => unknown)[], fail: (message: string) => never): Generator<boolean> {
  return (function* () {
    for (let i = 0; i < args.length; i++) {
      const value = args[i]!();
      if (typeof value === "boolean") {
        yield value;
      } else if (Array.isArray(value)) {
        value.forEach((element: unknown, j) => {
          if (typeof element !== "boolean") {
            fail(`${fn}() needs booleans, but element ${j} of argument ${i + 1} is ${article(typeOfValue(element))}`);
          }
        });
        yield* value as boolean[];
      } else {
        const what = value === null || value === undefined ? "null (missing)" : article(typeOfValue(value));
        fail(`${fn}() needs booleans or lists of booleans, but argument ${i + 1} is ${what}`);
      }
    }
  })();
}

export function article(type: string): string {
  if (type === "null") return "null";
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

export const FUNCTIONS: Record<CallFn, FunctionSpec> = {
  count: {
    name: "count",
    signature: "count(list) -> number",
    summary: "number of elements of a list; a missing list (null) counts 0",
    params: ["list"],
    example: "count(result.claims) >= 3",
    minArgs: 1,
    maxArgs: 1,
    accepts: ["list"],
    accepted: "a list",
    returns: "number",
    apply([arg], fail) {
      const value = arg!();
      if (value === null || value === undefined) return 0;
      if (Array.isArray(value)) return value.length;
      return fail(`count() needs a list, but got ${article(typeOfValue(value))}`);
    },
  },
  len: {
    name: "len",
    signature: "len(string | list) -> number",
    summary: "characters (Unicode code points) of a string, or elements of a list; null is 0",
    params: ["string | list"],
    example: "len(result.summary) <= 2000",
    minArgs: 1,
    maxArgs: 1,
    accepts: ["string", "list"],
    accepted: "a string or a list",
    returns: "number",
    apply([arg], fail) {
      const value = arg!();
      if (value === null || value === undefined) return 0;
      if (Array.isArray(value)) return value.length;
      if (typeof value === "string") return [...value].length;
      return fail(`len() needs a string or a list, but got ${article(typeOfValue(value))}`);
    },
  },
  exists: {
    name: "exists",
    signature: "exists(value) -> boolean",
    summary: "true unless the value is null (a missing path is null)",
    params: ["value"],
    example: "exists(result.claims_check)",
    minArgs: 1,
    maxArgs: 1,
    accepts: ["any", "boolean", "number", "string", "null", "list", "object"],
    accepted: "any value",
    returns: "boolean",
    apply([arg]) {
      const value = arg!();
      return value !== null && value !== undefined;
    },
  },
  all: {
    name: "all",
    signature: "all(boolean | list, ...) -> boolean",
    summary: "true when every boolean is true (lists are flattened one level; an empty list gives true); stops at the first false",
    params: ["boolean | list", "..."],
    example: "all(result.checks_passed, exists(result.sources))",
    minArgs: 1,
    maxArgs: Infinity,
    accepts: ["boolean", "list"],
    accepted: "booleans or lists of booleans",
    returns: "boolean",
    apply(args, fail) {
      for (const b of booleansOf("all", args, fail)) if (!b) return false;
      return true;
    },
  },
  any: {
    name: "any",
    signature: "any(boolean | list, ...) -> boolean",
    summary: "true when some boolean is true (an empty list gives false); stops at the first true",
    params: ["boolean | list", "..."],
    example: "any(result.flags)",
    minArgs: 1,
    maxArgs: Infinity,
    accepts: ["boolean", "list"],
    accepted: "booleans or lists of booleans",
    returns: "boolean",
    apply(args, fail) {
      for (const b of booleansOf("any", args, fail)) if (b) return true;
      return false;
    },
  },
};

export const FUNCTION_NAMES = Object.keys(FUNCTIONS) as CallFn[];

export function isFunctionName(name: string): name is CallFn {
  return Object.hasOwn(FUNCTIONS, name);
}
