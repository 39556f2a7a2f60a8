/** Shared fixtures for the expression tests: a scope like a unit's, and a compact AST notation. */
import type { ExprNode } from "../../src/plan/schema.js";
import type { ExprScope } from "../../src/expr/index.js";

/** A scope like the one the compiler builds for a unit that needs S04 and the `audience` input. */
export const SCOPE: ExprScope = {
  task: { type: "object", fields: { id: { type: "string" }, version: { type: "number" } } },
  run: { type: "object", fields: { id: { type: "string" } } },
  unit: { type: "object", fields: { id: { type: "string" } } },
  attempt: { type: "object", fields: { id: { type: "string" }, number: { type: "number" } } },
  result: {
    type: "object",
    open: true,
    fields: {
      claims: { type: "list" },
      checks: { type: "list" },
      title: { type: "string" },
      score: { type: "number" },
      passed: { type: "boolean" },
      meta: { type: "object", fields: { lang: { type: "string" } } },
    },
  },
  inputs: { type: "object", fields: { audience: { type: "string" }, sources: { type: "object", open: true } } },
  S04: { type: "object", fields: { result: { type: "object", open: true } } },
  flag: { type: "boolean" },
  n: { type: "number" },
  s: { type: "string" },
  items: { type: "list" },
  nothing: { type: "null" },
  blob: { type: "any" },
};

/** S-expression form of an AST without spans: `(>= (count result.claims) 1)`. */
export function sexpr(node: ExprNode): string {
  switch (node.type) {
    case "literal":
      return JSON.stringify(node.value);
    case "path":
      return node.root + node.segments.map((s) => (s.kind === "prop" ? `.${s.name}` : `[${sexpr(s.index)}]`)).join("");
    case "unary":
      return `(${node.op} ${sexpr(node.operand)})`;
    case "binary":
      return `(${node.op} ${sexpr(node.left)} ${sexpr(node.right)})`;
    case "call":
      return `(${node.fn}${node.args.map((a) => ` ${sexpr(a)}`).join("")})`;
  }
}

/** The AST with spans removed, for structural comparison. */
export function withoutSpans(node: ExprNode): unknown {
  return JSON.parse(JSON.stringify(node, (key, value: unknown) => (key === "span" ? undefined : value)));
}
