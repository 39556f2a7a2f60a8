/**
 * The tools module (`--tools path.js`): tool adapters, lookups, compensators
 * and input readers, the code that needs the worker's rights (credentials in
 * its environment, the network). It is imported in the worker; the handler
 * module (`--handlers`) is then imported only inside handler processes (and
 * its probe, isolation/probe.ts), so nothing of its code, top level included,
 * runs with the worker's rights. The run records the sha256 of the tools
 * module's file (event `tools-module`), and `status` shows it.
 */
import { createHash } from "node:crypto";
import { readFileSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RuntimeError } from "../errors.js";
import type { InputReader, ToolAdapter, ToolsModule } from "../handler-api.js";
import type { Store } from "../store/types.js";

/** A loaded tools module: its absolute path, the sha256 of its file, its adapters and input readers. */
export interface LoadedTools {
  path: string;
  sha256: string;
  tools: Readonly<Record<string, ToolAdapter>>;
  inputs?: Readonly<Record<string, InputReader>>;
}

/** The event that records which tools module a run's worker used (data: `{ path, sha256 }`, or `{ path: null }` for none). */
export const TOOLS_MODULE_EVENT = "tools-module";

export class ToolsModuleError extends RuntimeError {
  override readonly name = "ToolsModuleError";
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function sameFile(real: string, other: string): boolean {
  try {
    return realpathSync(resolve(other)) === real;
  } catch {
    return resolve(other) === real;
  }
}

/**
 * Imports the module at `path` and hashes its file. A module that cannot be
 * read or imported, whose default export is not `{ tools, inputs? }`, or
 * that exports unit handlers (they belong to the handler module, which runs
 * isolated) is a ToolsModuleError naming the file. `handlersPath`, when
 * given, must be another file: importing the handler module here is what the
 * tools module exists to avoid.
 */
export async function loadToolsModule(path: string, handlersPath?: string): Promise<LoadedTools> {
  const abs = resolve(path);
  let bytes: Buffer;
  let real: string;
  try {
    real = realpathSync(abs);
    bytes = readFileSync(real);
  } catch (err) {
    throw new ToolsModuleError(`cannot read tools module ${path}: ${message(err)}`);
  }
  if (handlersPath !== undefined && sameFile(real, handlersPath))
    throw new ToolsModuleError(
      `tools module ${path} is the handler module: the worker would import the handler module's code; put the tools and inputs in a module of their own`,
    );
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(real).href)) as Record<string, unknown>;
  } catch (err) {
    throw new ToolsModuleError(`cannot load tools module ${path}: ${message(err)}`);
  }
  const candidate = (mod.default ?? mod) as Partial<ToolsModule> & { units?: unknown };
  if (isTable(candidate) && candidate.units !== undefined)
    throw new ToolsModuleError(
      `tools module ${path} exports units: unit handlers belong to the handler module (--handlers), which runs in a handler process; the tools module runs in the worker`,
    );
  if (!isTable(candidate) || !isTable(candidate.tools) || (candidate.inputs !== undefined && !isTable(candidate.inputs)))
    throw new ToolsModuleError(`${path} does not export a tools module ({ tools, inputs? }) as its default export`);
  return {
    path: abs,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    tools: candidate.tools,
    ...(candidate.inputs ? { inputs: candidate.inputs } : {}),
  };
}

/**
 * Records the tools module this worker uses when it differs from the one the
 * run recorded last (none recorded = none used), so the event log says which
 * adapter code made which effects.
 */
export async function recordToolsModule(store: Store, run: string, loaded: LoadedTools | undefined, now: string): Promise<void> {
  const last = (await store.listEvents(run, { type: TOOLS_MODULE_EVENT })).at(-1)?.data;
  const was = { path: (last?.path as string | null | undefined) ?? null, sha256: (last?.sha256 as string | undefined) ?? null };
  const is = { path: loaded?.path ?? null, sha256: loaded?.sha256 ?? null };
  if (last !== undefined && was.path === is.path && was.sha256 === is.sha256) return;
  if (last === undefined && loaded === undefined) return;
  await store.appendEvents(run, [
    { at: now, type: TOOLS_MODULE_EVENT, data: loaded ? { path: is.path, sha256: is.sha256 } : { path: null } },
  ]);
}
