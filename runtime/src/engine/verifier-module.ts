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
import { loadWorkerModule, recordWorkerModule, type WorkerModuleKind } from "./worker-module.js";

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
 * A module whose default export is not `{ verifiers: { ... } }` is refused;
 * so is the handler module's own file: it is never its own verifier.
 */
const VERIFIER_MODULE: WorkerModuleKind<Pick<LoadedVerifiers, "verifiers">> = {
  what: "verifier module",
  whyNotHandler: "a unit's handler never decides its own verification; put the verifiers in a module of their own",
  fail: (m) => new VerifierModuleError(m),
  exportsOf: (mod, path) => {
    const candidate = (mod.default ?? mod) as Partial<VerifierModule> | undefined;
    const verifiers = candidate && typeof candidate === "object" ? candidate.verifiers : undefined;
    if (!verifiers || typeof verifiers !== "object" || Array.isArray(verifiers))
      throw new VerifierModuleError(
        `${path} does not export a verifier module ({ verifiers: { <name>: (ctx) => ({ passed, reason? }) } }) as its default export`,
      );
    return { verifiers };
  },
};

/** Imports the verifier module at `path` and hashes its file; anything wrong with it is a VerifierModuleError naming the file. */
export const loadVerifierModule = (path: string, handlersPath?: string): Promise<LoadedVerifiers> =>
  loadWorkerModule(VERIFIER_MODULE, path, handlersPath);

/**
 * Records the verifier module this worker uses when it differs from the one
 * the run recorded last, so the event log says which verifier code judged
 * which part of the run.
 */
export const recordVerifierModule = (store: Store, run: string, loaded: LoadedVerifiers | undefined, now: string): Promise<void> =>
  recordWorkerModule(store, run, VERIFIER_MODULE_EVENT, loaded, now);
