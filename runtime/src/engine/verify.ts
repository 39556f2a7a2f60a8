/**
 * Verifiers decide success, not handlers. `rule` checks run in the compiler's
 * interpreter; `schema` checks validate the unit's JSON artifacts (or its
 * result when it wrote none) with ajv; `model` and `human` verifiers need a
 * handler and fail closed without one. A handler may override any verifier by
 * name.
 */
import { readFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { Plan, VerifierUse } from "@taskspec/compiler";
import type { HandlerModule, VerifierContext } from "../handler-api.js";
import type { VerifierResult } from "../model/facts.js";
import { checkPasses } from "./expressions.js";
import { ownEntry } from "../model/own.js";

export interface VerifyScope {
  plan: Plan;
  handlers: HandlerModule;
  /** Expression environment: task, run, unit, attempt, inputs, needs, result. */
  env: Record<string, unknown>;
  context: VerifierContext;
  /** JSON documents to validate for `schema` verifiers. */
  jsonDocuments: () => Promise<unknown[]>;
  /** Base directory for `schema:` paths (the contract's directory). */
  baseDir?: string;
}

/** One validator per schema file; draft 2020-12 schemas get the 2020 dialect. Each file gets its own ajv, so `$id`s never clash. */
const schemaCache = new Map<string, { validate: ValidateFunction; errorsText: (e: ValidateFunction["errors"]) => string }>();

async function schemaValidator(path: string) {
  let v = schemaCache.get(path);
  if (!v) {
    const schema = JSON.parse(await readFile(path, "utf8")) as { $schema?: string };
    const ajv = String(schema.$schema ?? "").includes("2020-12")
      ? new Ajv2020({ strict: false, allowUnionTypes: true })
      : new Ajv({ strict: false, allowUnionTypes: true });
    v = { validate: ajv.compile(schema), errorsText: (e) => ajv.errorsText(e) };
    schemaCache.set(path, v);
  }
  return v;
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
  const custom = ownEntry(scope.handlers.verifiers, name);
  try {
    if (custom) {
      const out = await custom(scope.context);
      if (!out || typeof out.passed !== "boolean")
        return { passed: false, reason: `verifier handler ${name} returned no { passed } result` };
      return out.passed ? { passed: true } : { passed: false, reason: out.reason ?? "verifier handler said no" };
    }
    const v = scope.plan.verifiers.find((x) => x.name === name);
    if (!v) return { passed: false, reason: `verifier ${name} is not declared` };
    if (v.kind === "rule" && v.check) return checkPasses(v.check, scope.env);
    if (v.kind === "schema" && v.schema) {
      const path = isAbsolute(v.schema) || !scope.baseDir ? v.schema : join(scope.baseDir, v.schema);
      const { validate, errorsText } = await schemaValidator(path);
      for (const doc of await scope.jsonDocuments()) {
        if (!validate(doc)) return { passed: false, reason: `${v.schema}: ${errorsText(validate.errors)}` };
      }
      return { passed: true };
    }
    return { passed: false, reason: `${v.kind} verifier ${name} needs a handler in the module's \`verifiers\`; failing closed` };
  } catch (err) {
    return { passed: false, reason: `verifier ${name} threw: ${err instanceof Error ? err.message : String(err)}` };
  }
}
