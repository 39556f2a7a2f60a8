/**
 * Code verifiers (`kind: model` and `kind: human`) come from a verifier
 * module named in the run configuration (`--verifiers path.js`), separate
 * from the handler module: a unit's handler never decides its own
 * verification, and `rule` and `schema` verifiers are decided by the contract
 * alone (verify.ts never looks them up in any module). The module is loaded in
 * the worker; the run records the sha256 of its file (event
 * `verifier-module`), and `status` shows it.
 */
import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RuntimeError } from "../errors.js";
import type { VerifierHandler, VerifierModule } from "../handler-api.js";
import type { Store } from "../store/types.js";

/** A loaded verifier module: its absolute path, the sha256 of its file, its verifiers. */
export interface LoadedVerifiers {
  path: string;
  sha256: string;
  verifiers: Readonly<Record<string, VerifierHandler>>;
}

/** The event that records which verifier module a run's worker used (data: `{ path, sha256 }`, or `{ path: null }` for none). */
export const VERIFIER_MODULE_EVENT = "verifier-module";

export class VerifierModuleError extends RuntimeError {
  override readonly name = "VerifierModuleError";
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Imports the module at `path` and hashes its file. A module that cannot be
 * read or imported, or whose default export is not `{ verifiers: { ... } }`,
 * is a VerifierModuleError naming the file. `handlersPath`, when given, must
 * be another file: the handler module is never its own verifier.
 */
export async function loadVerifierModule(path: string, handlersPath?: string): Promise<LoadedVerifiers> {
  const abs = resolve(path);
  let bytes: Buffer;
  let real: string;
  try {
    real = realpathSync(abs);
    bytes = readFileSync(real);
  } catch (err) {
    throw new VerifierModuleError(`cannot read verifier module ${path}: ${message(err)}`);
  }
  if (handlersPath !== undefined && sameFile(real, handlersPath))
    throw new VerifierModuleError(
      `verifier module ${path} is the handler module: a unit's handler never decides its own verification; put the verifiers in a module of their own`,
    );
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(real).href)) as Record<string, unknown>;
  } catch (err) {
    throw new VerifierModuleError(`cannot load verifier module ${path}: ${message(err)}`);
  }
  const candidate = (mod.default ?? mod) as Partial<VerifierModule> | undefined;
  const verifiers = candidate && typeof candidate === "object" ? candidate.verifiers : undefined;
  if (!verifiers || typeof verifiers !== "object" || Array.isArray(verifiers))
    throw new VerifierModuleError(
      `${path} does not export a verifier module ({ verifiers: { <name>: (ctx) => ({ passed, reason? }) } }) as its default export`,
    );
  return { path: abs, sha256: createHash("sha256").update(bytes).digest("hex"), verifiers };
}

function sameFile(real: string, other: string): boolean {
  try {
    return realpathSync(resolve(other)) === real;
  } catch {
    return resolve(other) === real;
  }
}

/**
 * Records the verifier module this worker uses when it differs from the one
 * the run recorded last (none recorded = none used), so the event log says
 * which verifier code judged which part of the run.
 */
export async function recordVerifierModule(store: Store, run: string, loaded: LoadedVerifiers | undefined, now: string): Promise<void> {
  const last = (await store.listEvents(run, { type: VERIFIER_MODULE_EVENT })).at(-1)?.data;
  const was = { path: (last?.path as string | null | undefined) ?? null, sha256: (last?.sha256 as string | undefined) ?? null };
  const is = { path: loaded?.path ?? null, sha256: loaded?.sha256 ?? null };
  if (was.path === is.path && was.sha256 === is.sha256) return;
  await store.appendEvents(run, [
    { at: now, type: VERIFIER_MODULE_EVENT, data: loaded ? { path: is.path, sha256: is.sha256 } : { path: null } },
  ]);
}
