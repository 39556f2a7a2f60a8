/**
 * A plan read back from JSON (`taskspec run plan.json`, the fault drills):
 * the compiler did not just make it, so it is checked before anything runs.
 * Parsing says where broken JSON breaks (line:col, which JSON.parse of Node 20
 * often does not); the plan is validated against `PlanSchema`; its names are
 * checked to refer to what the plan declares (a dangling name would reach the
 * runtime as a crash); and its `planHash` is recomputed the compiler's way, so
 * a plan edited after compiling (a `task.done` emptied, an approval deleted)
 * is refused instead of run.
 *
 * Its own subpath (`@taskspec/compiler/plan-check`), not the index: it
 * compiles the plan schema with ajv, which `check` and the language server
 * never need at start-up (the contract's validators are generated code).
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { planHashOf } from "./plan-hash.js";
import { PLAN_FORMAT, PlanSchema, type Plan, type VerifierUse } from "./schema.js";

export { planHashOf };

/** What is wrong with a plan file: a message, and for broken JSON where (1-based line and column). */
export interface PlanProblem {
  message: string;
  line?: number;
  column?: number;
}

export type PlanRead = { ok: true; plan: Plan } | { ok: false; problem: PlanProblem };

/** Parses and checks a plan file's text (`readPlanJson`), or says what is wrong. */
export function readPlanJson(text: string): PlanRead {
  let value: unknown;
  try {
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (err) {
    const at = jsonErrorAt(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    const { line, column } = lineColumn(text, at.offset + (text.charCodeAt(0) === 0xfeff ? 1 : 0));
    return { ok: false, problem: { message: `not valid JSON: ${at.message ?? (err as Error).message}`, line, column } };
  }
  return checkPlan(value);
}

/** Checks a parsed value: the plan schema, its internal names, its hash. */
export function checkPlan(value: unknown): PlanRead {
  if (!value || typeof value !== "object" || Array.isArray(value)) return fail("not a compiled plan (the JSON is not an object)");
  const format = (value as { format?: unknown }).format;
  if (format !== PLAN_FORMAT)
    return fail(
      format === undefined
        ? "not a compiled plan (it has no `format`)"
        : `plan format ${JSON.stringify(format)}, but this taskspec reads plan format ${PLAN_FORMAT}`,
    );
  const validate = validator();
  if (!validate(value)) return fail(`does not match the plan schema: ${schemaProblems(validate.errors ?? [])}`);
  const plan = value as Plan;
  const dangling = danglingNames(plan);
  if (dangling.length > 0)
    return fail(
      `names what it does not declare: ${dangling.slice(0, 3).join("; ")}${dangling.length > 3 ? ` (and ${dangling.length - 3} more)` : ""}`,
    );
  const computed = planHashOf(plan);
  if (computed !== plan.planHash)
    return fail(
      `its content does not match its planHash (recorded ${short(plan.planHash)}, content hashes to ${short(computed)}): ` +
        "the plan was changed after it was compiled",
    );
  return { ok: true, plan };
}

const fail = (message: string): PlanRead => ({ ok: false, problem: { message } });
const short = (hash: string): string => (/^[0-9a-f]{64}$/.test(hash) ? `${hash.slice(0, 12)}…` : JSON.stringify(hash.slice(0, 70)));

let compiled: ValidateFunction | undefined;
function validator(): ValidateFunction {
  compiled ??= new Ajv2020({ strict: false, allErrors: false }).compile(PlanSchema);
  return compiled;
}

/** At most three schema errors, `anyOf` summaries dropped when a branch's own error says more. */
function schemaProblems(errors: readonly ErrorObject[]): string {
  const specific = errors.filter((e) => e.keyword !== "anyOf");
  const shown = (specific.length > 0 ? specific : errors).slice(0, 3);
  return shown.map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`).join("; ");
}

/** Names a plan uses that it does not declare: needs, levels, edges, tools, verifiers, compensators. */
function danglingNames(plan: Plan): string[] {
  const out: string[] = [];
  const units = new Set<string>();
  for (const u of plan.units) {
    if (units.has(u.id)) out.push(`unit ${JSON.stringify(u.id)} is declared twice`);
    units.add(u.id);
  }
  const inputs = new Set(plan.inputs.map((i) => i.name));
  const tools = new Set(plan.tools.map((t) => t.name));
  const verifiers = new Set(plan.verifiers.map((v) => v.name));
  const refs = (uses: readonly VerifierUse[], where: string) => {
    for (const use of uses)
      if ("ref" in use && !verifiers.has(use.ref))
        out.push(`${where} names verifier ${JSON.stringify(use.ref)}, which is not in verifiers`);
  };
  refs(plan.task.done, "task.done");
  for (const u of plan.units) {
    for (const n of u.needs) {
      const known = n.nodeType === "unit" ? units.has(n.node) : inputs.has(n.node);
      if (!known) out.push(`unit ${u.id} needs ${n.nodeType} ${JSON.stringify(n.node)}, which the plan does not declare`);
    }
    for (const t of u.uses) if (!tools.has(t)) out.push(`unit ${u.id} uses tool ${JSON.stringify(t)}, which is not in tools`);
    refs(u.verify, `unit ${u.id} verify`);
  }
  for (const level of plan.levels)
    for (const id of level) if (!units.has(id)) out.push(`levels name unit ${JSON.stringify(id)}, which is not in units`);
  for (const e of plan.edges) {
    if (!units.has(e.to)) out.push(`an edge goes to ${JSON.stringify(e.to)}, which is not a unit`);
    if (!units.has(e.from) && !inputs.has(e.from))
      out.push(`an edge comes from ${JSON.stringify(e.from)}, which is neither a unit nor an input`);
  }
  for (const t of plan.tools) {
    if (t.lookup !== undefined && !tools.has(t.lookup))
      out.push(`tool ${t.name} names lookup ${JSON.stringify(t.lookup)}, which is not in tools`);
    if (t.compensate && !tools.has(t.compensate.tool))
      out.push(`tool ${t.name} names compensator ${JSON.stringify(t.compensate.tool)}, which is not in tools`);
  }
  for (const [tool, compensator] of Object.entries(plan.compensation))
    if (!tools.has(tool) || !tools.has(compensator)) out.push(`compensation ${tool} -> ${compensator} names a tool that is not in tools`);
  return out;
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
