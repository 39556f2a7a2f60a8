/**
 * A plan read back from JSON (`taskspec run plan.json`, the fault drills):
 * the compiler did not just make it, so it is checked before anything runs.
 * Parsing says where broken JSON breaks (line:col, which JSON.parse of Node 20
 * often does not); the plan is validated against `PlanSchema`, no field
 * missing, none of the wrong type, none it does not define; every error the
 * compiler would report and a plan holds enough to judge is judged again,
 * under the compiler's code (check/plan-rules.ts); and its `planHash` is
 * recomputed the compiler's way. The hash is a checksum anyone can
 * recompute, not a signature: a plan edited and hashed again (a `task.done`
 * emptied, an approval deleted) is refused by the rules, not by the hash.
 *
 * Its own subpath (`@taskspec/compiler/plan-check`), not the index: it
 * compiles the plan schema with ajv, which `check` and the language server
 * never need at start-up (the contract's validators are generated code).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { DiagnosticCode } from "./diagnostics/types.js";
import type { FileProbe } from "./check/files.js";
import { planHashOf } from "./plan/plan-hash.js";
import { checkPlan, SCHEMA_CODES } from "./check/plan-rules.js";
import { PLAN_FORMAT, PlanSchema, type Plan } from "./plan/schema.js";

export { planHashOf };
export { checkPlan, PLAN_RULES, SCHEMA_CODES, NOT_JUDGED, type PlanDiagnostic, type PlanRule } from "./check/plan-rules.js";

/**
 * What is wrong with a plan file: a message; the compiler's code when it is
 * a rule the compiler enforces; where: a JSON pointer into the plan, or for
 * broken JSON the 1-based line and column.
 */
export interface PlanProblem {
  message: string;
  code?: DiagnosticCode;
  path?: string;
  line?: number;
  column?: number;
}

export type PlanRead = { ok: true; plan: Plan } | { ok: false; problems: PlanProblem[] };

export interface PlanReadOptions {
  /** Probes schema verifiers' files beside the plan file (C013), as the compiler probes them beside the contract. */
  files?: FileProbe;
}

/** Parses and checks a plan file's text, or says everything that is wrong with it. */
export function readPlanJson(text: string, options: PlanReadOptions = {}): PlanRead {
  let value: unknown;
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  try {
    value = JSON.parse(bom ? text.slice(1) : text);
  } catch (err) {
    const at = jsonErrorAt(bom ? text.slice(1) : text);
    const { line, column } = lineColumn(text, at.offset + bom);
    return { ok: false, problems: [{ message: `not valid JSON: ${at.message ?? (err as Error).message}`, line, column }] };
  }
  return validatePlan(value, options);
}

/** Checks a parsed value: the plan schema, the compiler's rules, its hash. */
export function validatePlan(value: unknown, options: PlanReadOptions = {}): PlanRead {
  if (!value || typeof value !== "object" || Array.isArray(value)) return fail("not a compiled plan (the JSON is not an object)");
  const format = (value as { format?: unknown }).format;
  if (format !== PLAN_FORMAT)
    return fail(
      format === undefined
        ? "not a compiled plan (it has no `format`)"
        : `plan format ${JSON.stringify(format)}, but this taskspec reads plan format ${PLAN_FORMAT}`,
    );
  const validate = validator();
  if (!validate(value)) return { ok: false, problems: schemaProblems(validate.errors ?? []) };
  const plan = value as Plan;
  const problems: PlanProblem[] = [];
  const computed = planHashOf(plan);
  if (computed !== plan.planHash)
    problems.push({
      message:
        `its content does not match its planHash (recorded ${short(plan.planHash)}, content hashes to ${short(computed)}): ` +
        "the plan was changed after it was compiled",
    });
  problems.push(...checkPlan(plan, options));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, plan };
}

/** At most this many problems are written out; a count says how many more. */
export const PROBLEMS_SHOWN = 20;

/**
 * One line per problem, each naming the file and the place:
 * `plan.json:3:18: ...` for broken JSON, `plan.json#/units/2/verify: error C050: ...`
 * for a rule (the JSON pointer as a URI fragment), `plan.json: ...` otherwise.
 */
export function formatPlanProblems(file: string, problems: readonly PlanProblem[]): string[] {
  const lines = problems.slice(0, PROBLEMS_SHOWN).map((p) => {
    if (p.line !== undefined) return `${file}:${p.line}:${p.column ?? 1}: ${p.message}`;
    const where = p.path !== undefined ? `${file}#${p.path}` : file;
    return p.code ? `${where}: error ${p.code}: ${p.message}` : `${where}: ${p.message}`;
  });
  const more = problems.length - PROBLEMS_SHOWN;
  if (more > 0) lines.push(`${file}: ${more} more problem${more === 1 ? "" : "s"}`);
  return lines;
}

const fail = (message: string): PlanRead => ({ ok: false, problems: [{ message }] });
const short = (hash: string): string => (/^[0-9a-f]{64}$/.test(hash) ? `${hash.slice(0, 12)}…` : JSON.stringify(hash.slice(0, 70)));

let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  compiled ??= new Ajv2020({ strict: false, allErrors: true }).compile(closed(PlanSchema) as object);
  return compiled;
}

/**
 * The plan schema with every object closed (`additionalProperties: false`
 * where it lists its properties): a field the plan format does not define
 * (a typo, `verfy`) is refused, never silently ignored. Records keep theirs.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema))
    out[k] = k === "properties" ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closed(s)])) : closed(v);
  if (out.type === "object" && out.properties && out.additionalProperties === undefined && out.patternProperties === undefined)
    out.additionalProperties = false;
  return out;
}

/**
 * Schema errors as problems at their JSON pointer: C002 (the plan's shape),
 * or the code of the compiler rule that owns the place (SCHEMA_CODES).
 * `anyOf` summaries are dropped when a branch's own error says more; at most
 * one problem per place.
 */
function schemaProblems(errors: readonly ErrorObject[]): PlanProblem[] {
  const specific = errors.filter((e) => e.keyword !== "anyOf");
  const out = new Map<string, PlanProblem>();
  for (const e of specific.length > 0 ? specific : errors) {
    const params = e.params as { missingProperty?: string; additionalProperty?: string };
    const path =
      e.keyword === "required" && params.missingProperty !== undefined
        ? `${e.instancePath}/${params.missingProperty}`
        : e.keyword === "additionalProperties" && params.additionalProperty !== undefined
          ? `${e.instancePath}/${params.additionalProperty}`
          : e.instancePath;
    if (out.has(path)) continue;
    const message =
      e.keyword === "required"
        ? "missing, and the plan format requires it"
        : e.keyword === "additionalProperties"
          ? "not a field of the plan format"
          : (e.message ?? e.keyword);
    const code = SCHEMA_CODES.find((c) => c.at.test(path))?.code ?? "C002";
    out.set(path, { code, path, message: `does not match the plan schema: ${message}` });
  }
  return [...out.values()];
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/** Where a text that JSON.parse refused first breaks, and why (RFC 8259's grammar). */
export function jsonErrorAt(text: string): { offset: number; message?: string } {
  let i = 0;
  const MAX_DEPTH = 4096;
  class Broken extends Error {
    constructor(
      readonly offset: number,
      message: string,
    ) {
      super(message);
    }
  }
  const what = (at: number): string => (at >= text.length ? "the end of the file" : `${JSON.stringify(text[at])}`);
  const broken = (message: string): Broken => new Broken(i, `${message}, found ${what(i)}`);
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const string = () => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) throw broken("unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) throw broken("a control character inside a string (write it as an escape)");
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i++;
            throw broken("\\u must be followed by four hex digits");
          }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else {
          i++;
          throw broken("a bad escape");
        }
      } else i++;
    }
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (depth: number): void => {
    ws();
    if (depth > MAX_DEPTH) throw broken(`nesting deeper than ${MAX_DEPTH} levels`);
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') throw broken("expected a property name in double quotes");
        string();
        ws();
        if (text[i] !== ":") throw broken("expected ':' after the property name");
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return;
        }
        throw broken("expected ',' or '}'");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return;
        }
        throw broken("expected ',' or ']'");
      }
    }
    if (c === '"') return string();
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (!m || m[0] === "-") throw broken("a bad number");
      i += m[0].length;
      return;
    }
    for (const word of ["true", "false", "null"])
      if (text.startsWith(word, i)) {
        i += word.length;
        return;
      }
    throw broken("expected a value");
  };
  try {
    value(0);
    ws();
    if (i < text.length) throw broken("unexpected text after the JSON value");
  } catch (err) {
    if (err instanceof Broken) return { offset: err.offset, message: err.message };
    return { offset: i };
  }
  return { offset: i };
}
