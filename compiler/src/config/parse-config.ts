/**
 * taskspec.config.yaml text -> the configuration, or problems at the line and
 * column of the offending key or value. Pure: finding and reading the file is
 * the node adapter's job (node/config.ts). The file is validated against
 * compiler/config.schema.json, the schema that also ships for editors, so the
 * two cannot disagree about what a valid configuration is.
 */
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { parseDocument, type Document } from "yaml";
import configSchema from "../../config.schema.json" with { type: "json" };
import type { Range, Span } from "../diagnostics/types.js";
import { keySpanAt, nodeAtPath, valueSpanAt } from "../parse/path.js";
import type { Rules } from "../policy/apply.js";
import { LineIndex } from "../source/line-index.js";
import { closest, didYouMean } from "../source/suggest.js";
import { validateConfig } from "../schema/validators.generated.js";

/** What taskspec.config.yaml holds, once valid. */
export interface Config {
  rules?: Rules;
  /** Globs (relative to the file's folder) of contracts to leave alone. */
  ignore?: string[];
  /** Rules for some paths; later entries win. */
  overrides?: { files: string[]; rules: Rules }[];
}

export interface ConfigProblem {
  message: string;
  span: Span;
  /** 0-based, like diagnostics. */
  range: Range;
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: ConfigProblem[] };

export const CONFIG_SCHEMA: Record<string, unknown> = configSchema;

/** ajv's code for config.schema.json, generated at build time (scripts/gen-validators.js). */
const validator = validateConfig as unknown as ValidateFunction;

export function parseConfig(text: string): ConfigResult {
  const lines = new LineIndex(text);
  const at = (span: Span, message: string): ConfigProblem => ({ message, span, range: lines.rangeOf(span) });
  let doc: Document;
  let value: unknown;
  try {
    doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
    // an alias bomb or an alias without its anchor throws here; the library's parser can run out of stack
    if (doc.errors.length === 0) value = doc.toJS() ?? {};
  } catch (err) {
    const why = err instanceof RangeError ? "the YAML reader ran out of stack (is a '[' or '{' left open?)" : (err as Error).message;
    return { ok: false, problems: [at({ start: 0, end: 0 }, `cannot read the configuration: ${why}`)] };
  }
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((e) => at({ start: e.pos[0], end: e.pos[1] }, `YAML syntax error: ${e.message.split("\n")[0]}`)),
    };
  }
  if (validator(value)) return { ok: true, config: value as Config };
  const problems = (validator.errors ?? []).map((e) => {
    const path = e.instancePath
      .split("/")
      .slice(1)
      .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const target = nodeAtPath(doc.contents, path, new Map());
    const extra = e.keyword === "additionalProperties" ? String(e.params.additionalProperty) : undefined;
    const span = extra
      ? keySpanAt(nodeAtPath(target.node, [extra], new Map()), valueSpanAt(target, { start: 0, end: 0 }))
      : valueSpanAt(target, { start: 0, end: 0 });
    return at(span, describe(e, path, extra));
  });
  return { ok: false, problems: problems.sort((a, b) => a.span.start - b.span.start) };
}

function describe(e: ErrorObject, path: (string | number)[], extra: string | undefined): string {
  const place = path.length === 0 ? "the configuration" : `'${path.join(".")}'`;
  const inRules = path[path.length - 1] === "rules" || path[path.length - 2] === "rules";
  if (extra !== undefined) {
    if (inRules) return `'${extra}' is not a diagnostic code (see docs/diagnostics.md)`;
    const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    const guess = closest(extra, known);
    return `unknown key '${extra}' in ${place}${guess ? didYouMean(guess) : `; allowed: ${known.join(", ")}`}`;
  }
  if (e.keyword === "const" && inRules) {
    return `${String(path[path.length - 1])} is an error and stays one: only warnings can be turned off or lowered`;
  }
  if (e.keyword === "enum") return `${place} must be one of off, warning, error`;
  if (e.keyword === "type")
    return `${place} must be ${e.params.type === "array" ? "a list" : e.params.type === "object" ? "a mapping" : `a ${String(e.params.type)}`}`;
  if (e.keyword === "required") return `${place} needs '${String(e.params.missingProperty)}'`;
  return `${place} ${e.message ?? "is not valid"}`;
}
