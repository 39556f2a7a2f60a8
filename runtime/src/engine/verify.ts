/**
 * Verifiers decide success, not handlers, and they decide as the contract
 * declares. `rule` checks run in the compiler's interpreter; `schema` checks
 * validate the unit's JSON artifacts (or its result when it wrote none) with
 * ajv against a schema file inside the contract's folder; `model` and `human`
 * verifiers are implemented by the verifier module (`--verifiers`, never the
 * handler module) and fail closed without one. Nothing a module exports can
 * replace a rule or schema verifier: they are never looked up in a module.
 */
import { realpath, readFile } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Plan, PlanVerifier, VerifierUse } from "@taskspec/compiler";
import type { VerifierContext, VerifierHandler } from "../handler-api.js";
import type { VerifierResult } from "../model/facts.js";
import { checkPasses } from "./expressions.js";
import { ownEntry } from "../model/own.js";

export interface VerifyScope {
  plan: Plan;
  /** The verifier module's code verifiers (model/human), when one was given; never consulted for rule or schema verifiers. */
  verifiers: Readonly<Record<string, VerifierHandler>> | undefined;
  /** Expression environment: task, run, unit, attempt, inputs, needs, result. */
  env: Record<string, unknown>;
  context: VerifierContext;
  /** JSON documents to validate for `schema` verifiers. */
  jsonDocuments: () => Promise<unknown[]>;
  /** Base directory for `schema:` paths (the contract's directory); schema files outside it are refused. */
  baseDir?: string;
}

interface SchemaValidator {
  validate: ValidateFunction;
  errorsText: (e: ValidateFunction["errors"]) => string;
}

/** One validator per schema file (by real path); draft 2020-12 schemas get the 2020 dialect. Each file gets its own ajv, so `$id`s never clash. */
const schemaCache = new Map<string, SchemaValidator>();

/** A refusal whose message is safe to store: it names the path and the reason, never the file's content. */
class SchemaFileProblem extends Error {}

/**
 * The schema file of verifier `v`, confined to the contract's folder at run
 * time too (the compiler's C014): symlinks are resolved (realpath) on both
 * sides, so a link inside the folder that points outside is refused.
 */
async function schemaFile(v: PlanVerifier & { schema: string }, baseDir: string | undefined): Promise<string> {
  if (!baseDir) throw new SchemaFileProblem(`schema file '${v.schema}' cannot be resolved: the run has no contract folder`);
  if (isAbsolute(v.schema)) throw new SchemaFileProblem(`schema file '${v.schema}' is outside the contract's folder (an absolute path)`);
  let root: string;
  let file: string;
  try {
    root = await realpath(baseDir);
    file = await realpath(join(baseDir, v.schema));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? "unreadable";
    throw new SchemaFileProblem(`schema file '${v.schema}' cannot be read (${code})`);
  }
  const rel = relative(root, file);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new SchemaFileProblem(`schema file '${v.schema}' resolves outside the contract's folder (through a symlink or '..'); refused`);
  return file;
}

async function schemaValidator(v: PlanVerifier & { schema: string }, baseDir: string | undefined): Promise<SchemaValidator> {
  const file = await schemaFile(v, baseDir);
  let cached = schemaCache.get(file);
  if (cached) return cached;
  let schema: { $schema?: string };
  try {
    schema = JSON.parse(await readFile(file, "utf8")) as { $schema?: string };
  } catch (err) {
    // JSON.parse's message quotes the file's text: never stored
    throw new SchemaFileProblem(
      err instanceof SyntaxError ? `schema file '${v.schema}' is not valid JSON` : `schema file '${v.schema}' cannot be read`,
    );
  }
  if (!schema || typeof schema !== "object") throw new SchemaFileProblem(`schema file '${v.schema}' is not a JSON Schema object`);
  const ajv = String(schema.$schema ?? "").includes("2020-12")
    ? new Ajv2020({ strict: false, allowUnionTypes: true })
    : new Ajv({ strict: false, allowUnionTypes: true });
  try {
    cached = { validate: ajv.compile(schema), errorsText: (e) => ajv.errorsText(e) };
  } catch {
    throw new SchemaFileProblem(`schema file '${v.schema}' is not a valid JSON Schema`);
  }
  schemaCache.set(file, cached);
  return cached;
}

export async function runVerifiers(uses: readonly VerifierUse[], scope: VerifyScope): Promise<VerifierResult[]> {
  const results: VerifierResult[] = [];
  for (const use of uses) {
    if ("check" in use) {
      results.push({ name: use.check.source, ...checkPasses(use.check, scope.env) });
      continue;
    }
    results.push({ name: use.ref, ...(await runNamed(use.ref, scope)) });
  }
  return results;
}

async function runNamed(name: string, scope: VerifyScope): Promise<{ passed: boolean; reason?: string }> {
  const v = scope.plan.verifiers.find((x) => x.name === name);
  if (!v) return { passed: false, reason: `verifier ${name} is not declared` };
  try {
    switch (v.kind) {
      case "rule":
        return v.check ? checkPasses(v.check, scope.env) : { passed: false, reason: `rule verifier ${name} has no check` };
      case "schema": {
        if (v.schema === undefined) return { passed: false, reason: `schema verifier ${name} names no schema file` };
        const { validate, errorsText } = await schemaValidator({ ...v, schema: v.schema }, scope.baseDir);
        for (const doc of await scope.jsonDocuments()) {
          if (!validate(doc)) return { passed: false, reason: `${v.schema}: ${errorsText(validate.errors)}` };
        }
        return { passed: true };
      }
      case "model":
      case "human": {
        const code = ownEntry(scope.verifiers, name);
        if (typeof code !== "function")
          return {
            passed: false,
            reason: `${v.kind} verifier ${name} has no implementation in the verifier module (--verifiers); failing closed`,
          };
        const out = await code(scope.context);
        if (!out || typeof out.passed !== "boolean") return { passed: false, reason: `verifier ${name} returned no { passed } result` };
        return out.passed === true ? { passed: true } : { passed: false, reason: out.reason ?? "the verifier said no" };
      }
      default:
        return { passed: false, reason: `verifier ${name} has unknown kind ${String((v as { kind: unknown }).kind)}; failing closed` };
    }
  } catch (err) {
    if (err instanceof SchemaFileProblem) return { passed: false, reason: err.message };
    return { passed: false, reason: `verifier ${name} threw: ${err instanceof Error ? err.message : String(err)}` };
  }
}
