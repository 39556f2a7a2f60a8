/**
 * Code verifiers (`kind: model` and `kind: human`) come from a verifier
 * module named in the run configuration (`--verifiers path.js`), separate
 * from the handler module: a unit's handler never decides its own
 * verification, and `rule` and `schema` verifiers are decided by the contract
 * alone (verify.ts never looks them up in any module). The module is loaded in
 * the worker; the run records the sha256 of its file (event
 * `verifier-module`), and `status` shows it.
 */
import { RuntimeError } from "../errors.js";
import type { VerifierHandler, VerifierModule } from "../handler-api.js";
import type { Store } from "../store/types.js";
import { importWorkerModule, recordWorkerModule } from "./worker-module.js";

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

/**
 * Imports the module at `path` and hashes its file. A module that cannot be
 * read or imported, or whose default export is not `{ verifiers: { ... } }`,
 * is a VerifierModuleError naming the file. `handlersPath`, when given, must
 * be another file: the handler module is never its own verifier.
 */
export async function loadVerifierModule(path: string, handlersPath?: string): Promise<LoadedVerifiers> {
  const {
    path: abs,
    sha256,
    exports: mod,
  } = await importWorkerModule(
    path,
    handlersPath,
    "verifier module",
    "a unit's handler never decides its own verification; put the verifiers in a module of their own",
    (m) => new VerifierModuleError(m),
  );
  const candidate = (mod.default ?? mod) as Partial<VerifierModule> | undefined;
  const verifiers = candidate && typeof candidate === "object" ? candidate.verifiers : undefined;
  if (!verifiers || typeof verifiers !== "object" || Array.isArray(verifiers))
    throw new VerifierModuleError(
      `${path} does not export a verifier module ({ verifiers: { <name>: (ctx) => ({ passed, reason? }) } }) as its default export`,
    );
  return { path: abs, sha256, verifiers };
}

/**
 * Records the verifier module this worker uses when it differs from the one
 * the run recorded last, so the event log says which verifier code judged
 * which part of the run.
 */
export const recordVerifierModule = (store: Store, run: string, loaded: LoadedVerifiers | undefined, now: string): Promise<void> =>
  recordWorkerModule(store, run, VERIFIER_MODULE_EVENT, loaded, now);
