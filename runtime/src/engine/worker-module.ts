/**
 * A module the worker itself imports, with the worker's rights: the tools
 * module (`--tools`) and the verifier module (`--verifiers`). Both are read,
 * hashed, refused when they are the handler module's file (whose code must
 * never run in the worker), imported, and recorded in the run's events when
 * the one in use changes. What each must export is its kind's `exportsOf`
 * (tools-module.ts, verifier-module.ts).
 */
import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Store } from "../store/types.js";

export const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

function sameFile(real: string, other: string): boolean {
  try {
    return realpathSync(resolve(other)) === real;
  } catch {
    return resolve(other) === real;
  }
}

/** A module the worker loads: its file (absolute path as given, not the symlink's target) and the sha256 of its bytes. */
export interface WorkerModuleFile {
  path: string;
  sha256: string;
}

/** One kind of worker module: how messages name it, and what it must export. */
export interface WorkerModuleKind<T> {
  /** Names it in messages ("tools module"). */
  what: string;
  /** Why the handler module may not be it. */
  whyNotHandler: string;
  /** The loader's own error class. */
  fail: (message: string) => Error;
  /** Its part of the module's exports; throws `fail(...)` naming `path` when they are not what it needs. */
  exportsOf: (exports: Record<string, unknown>, path: string) => T;
}

/**
 * Reads, hashes and imports the module at `path`, then takes the kind's part
 * of its exports. `handlersPath`, when given, must be another file.
 */
export async function loadWorkerModule<T>(
  kind: WorkerModuleKind<T>,
  path: string,
  handlersPath: string | undefined,
): Promise<WorkerModuleFile & T> {
  const { what, whyNotHandler, fail } = kind;
  const abs = resolve(path);
  let bytes: Buffer;
  let real: string;
  try {
    real = realpathSync(abs);
    bytes = readFileSync(real);
  } catch (err) {
    throw fail(`cannot read ${what} ${path}: ${errorText(err)}`);
  }
  if (handlersPath !== undefined && sameFile(real, handlersPath)) throw fail(`${what} ${path} is the handler module: ${whyNotHandler}`);
  let exports: Record<string, unknown>;
  try {
    exports = (await import(pathToFileURL(real).href)) as Record<string, unknown>;
  } catch (err) {
    throw fail(`cannot load ${what} ${path}: ${errorText(err)}`);
  }
  return { path: abs, sha256: createHash("sha256").update(bytes).digest("hex"), ...kind.exportsOf(exports, path) };
}

/**
 * Records (event `type`, data `{ path, sha256 }` or `{ path: null }`) the
 * module this worker uses when it differs from the one the run recorded last;
 * none recorded counts as none used.
 */
export async function recordWorkerModule(
  store: Store,
  run: string,
  type: string,
  loaded: { path: string; sha256: string } | undefined,
  now: string,
): Promise<void> {
  const last = (await store.listEvents(run, { type })).at(-1)?.data;
  const was = { path: (last?.path as string | null | undefined) ?? null, sha256: (last?.sha256 as string | undefined) ?? null };
  const is = { path: loaded?.path ?? null, sha256: loaded?.sha256 ?? null };
  if (was.path === is.path && was.sha256 === is.sha256) return;
  await store.appendEvents(run, [{ at: now, type, data: loaded ? { path: is.path, sha256: is.sha256 } : { path: null } }]);
}
