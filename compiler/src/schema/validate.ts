/**
 * Validates the contract's plain value against compiler/contract.schema.json
 * (the one schema: ajv here, completion in the LSP, links in the docs) and
 * turns ajv's errors into C002 diagnostics a person can act on: one per
 * problem, at the offending key or value, with did-you-mean where it helps.
 * The schema avoids oneOf/anyOf (branches are chosen by shape with
 * if/then/else), so there is no branch noise to collapse; `if` errors, which
 * only say that a branch failed, are dropped.
 */
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import contractSchema from "../../contract.schema.json" with { type: "json" };
import { isKnownValid } from "./accept.js";
import { validateContract } from "./validators.generated.js";
import type { Span } from "../diagnostics/types.js";
import { describePlace, keySpanAt, nodeAtPath, valueSpanAt, type PathTarget } from "../parse/path.js";
import type { AliasTable } from "../parse/yaml-nodes.js";
import type { DiagnosticSink, FixSpec } from "../source/diagnostic.js";
import { closest, didYouMean } from "../source/suggest.js";

/** The contract JSON Schema, as loaded (for consumers such as completion). */
export const CONTRACT_SCHEMA: Record<string, unknown> = contractSchema;

/** ajv's code for the schema, generated at build time (scripts/gen-validators.js; a test fails while it is stale). */
const validator = validateContract as unknown as ValidateFunction;

/** Reports C002 for each schema problem; returns the number reported. */
export function validateSchema(value: unknown, root: unknown, aliases: AliasTable, sink: DiagnosticSink): number {
  if (isKnownValid(value)) return 0;
  const validate = validator;
  if (validate(value)) return 0;
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== "if" && e.keyword !== "propertyNames");
  const typeFailed = new Set(errors.filter((e) => e.keyword === "type").map((e) => e.instancePath));
  // a misspelled required key is one problem: keep "unknown key 'chek' … did you mean 'check'?", drop "missing 'check'"
  const misspelled = new Set(
    errors
      .filter((e) => e.keyword === "additionalProperties")
      .map(
        (e) =>
          `${e.instancePath}\u0000${closest(String(e.params.additionalProperty), Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {})) ?? ""}`,
      ),
  );
  const seen = new Set<string>();
  let count = 0;
  for (const error of errors) {
    if (error.keyword !== "type" && hasFailedAncestor(error.instancePath, typeFailed)) continue;
    if (error.keyword === "required" && misspelled.has(`${error.instancePath}\u0000${String(error.params.missingProperty)}`)) continue;
    const path = parsePointer(error.instancePath);
    const target = nodeAtPath(root, path, aliases);
    const problem = describe(error, path, target, aliases);
    const id = `${problem.span.start}:${problem.span.end}:${problem.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    sink.report("C002", problem.span, problem.message, problem.fix ? { fixes: [problem.fix] } : {});
    count++;
  }
  return count;
}

interface Problem {
  span: Span;
  message: string;
  fix?: FixSpec;
}

const START: Span = { start: 0, end: 0 };

function describe(error: ErrorObject, path: (string | number)[], target: PathTarget, aliases: AliasTable): Problem {
  const place = describePlace(path);
  const last = path[path.length - 1];
  const valueSpan = valueSpanAt(target, START);
  if (error.propertyName !== undefined) {
    const keyTarget = nodeAtPath(target.node, [error.propertyName], aliases);
    return {
      span: keySpanAt(keyTarget, valueSpan),
      message: `'${error.propertyName}' in ${place} is not a valid name: use letters, digits, '_' and '-', not starting with '-'`,
    };
  }
  switch (error.keyword) {
    case "additionalProperties": {
      const key = String(error.params.additionalProperty);
      const keyTarget = nodeAtPath(target.node, [key], aliases);
      const span = keySpanAt(keyTarget, valueSpan);
      const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const suggestion = closest(key, known);
      const problem: Problem = { span, message: `unknown key '${key}' in ${place}${didYouMean(suggestion)}` };
      if (suggestion) problem.fix = { title: `Rename '${key}' to '${suggestion}'`, edits: [{ span, newText: suggestion }], safe: true };
      else if (known.length > 0) problem.message += `; allowed keys: ${known.join(", ")}`;
      return problem;
    }
    case "required":
      return {
        span: path.length === 0 ? firstKeySpan(target) : keySpanAt(target, valueSpan),
        message: `${place} is missing the required key '${String(error.params.missingProperty)}'`,
      };
    case "type":
      return { span: valueSpan, message: `${place} must be ${typeNames(error.params.type)}, not ${kindOf(error.data)}` };
    case "enum": {
      const allowed = (error.params.allowedValues as unknown[]).map(String);
      const given = String(error.data);
      const suggestion = typeof error.data === "string" ? closest(given, allowed) : undefined;
      const problem: Problem = {
        span: valueSpan,
        message:
          typeof error.data === "string"
            ? `'${clip(given)}' is not a valid value for ${place}: use one of ${allowed.join(", ")}${didYouMean(suggestion)}`
            : `${place} must be one of ${allowed.join(", ")}, not ${kindOf(error.data)}`,
      };
      if (suggestion) problem.fix = { title: `Change to '${suggestion}'`, edits: [{ span: valueSpan, newText: suggestion }], safe: false };
      return problem;
    }
    case "const":
      return {
        span: valueSpan,
        message: `${place} must be ${JSON.stringify(error.params.allowedValue)}, not ${typeof error.data === "number" ? JSON.stringify(error.data) : kindOf(error.data)}`,
      };
    case "pattern": {
      const description = (error.parentSchema as { description?: string } | undefined)?.description;
      return {
        span: valueSpan,
        message: `'${clip(String(error.data))}' is not a valid ${String(last)}${description ? `: ${description}` : ""}`,
      };
    }
    case "minimum":
      return { span: valueSpan, message: `${place} must be at least ${String(error.params.limit)}, not ${String(error.data)}` };
    default:
      return { span: valueSpan, message: `${place} ${error.message ?? "is invalid"}` };
  }
}

function firstKeySpan(target: PathTarget): Span {
  const range = target.node?.range;
  return range ? { start: range[0], end: range[0] } : START;
}

function hasFailedAncestor(instancePath: string, failed: Set<string>): boolean {
  for (let i = instancePath.lastIndexOf("/"); i >= 0; i = instancePath.lastIndexOf("/", i - 1)) {
    if (failed.has(instancePath.slice(0, i))) return true;
    if (i === 0) break;
  }
  return false;
}

function parsePointer(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => {
      const key = s.replace(/~1/g, "/").replace(/~0/g, "~");
      return /^(0|[1-9][0-9]*)$/.test(key) ? Number(key) : key;
    });
}

const TYPE_NAMES: Record<string, string> = {
  object: "a mapping",
  array: "a list",
  string: "a string",
  number: "a number",
  integer: "a whole number",
  boolean: "true or false",
  null: "empty",
};

function typeNames(type: unknown): string {
  const list = Array.isArray(type) ? type : String(type).split(",");
  return list.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(" or ");
}

/** A value quoted in a message: a message names the value, it does not carry a pasted page of it. */
function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return "empty";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "a mapping";
  if (typeof value === "string") return `the string '${clip(value)}'`;
  if (typeof value === "number") return `the number ${value}`;
  return String(value);
}
