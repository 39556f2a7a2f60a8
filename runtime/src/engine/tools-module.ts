/**
 * The tools module (`--tools path.js`): tool adapters, lookups, compensators
 * and input readers, the code that needs the worker's rights (credentials in
 * its environment, the network). It is imported in the worker; the handler
 * module (`--handlers`) is then imported only inside handler processes (and
 * its probe, isolation/probe.ts), so nothing of its code, top level included,
 * runs with the worker's rights. The run records the sha256 of the tools
 * module's file (event `tools-module`), and `status` shows it.
 */
import { RuntimeError } from "../errors.js";
import type { InputReader, ToolAdapter, ToolsModule } from "../handler-api.js";
import type { Store } from "../store/types.js";
import { loadWorkerModule, recordWorkerModule, type WorkerModuleKind } from "./worker-module.js";

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

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A module whose default export is not `{ tools, inputs? }`, or that exports
 * unit handlers (they belong to the handler module, which runs isolated), is
 * refused; so is the handler module's own file: importing it here is what the
 * tools module exists to avoid.
 */
const TOOLS_MODULE: WorkerModuleKind<Omit<LoadedTools, "path" | "sha256">> = {
  what: "tools module",
  whyNotHandler: "the worker would import the handler module's code; put the tools and inputs in a module of their own",
  fail: (m) => new ToolsModuleError(m),
  exportsOf: (mod, path) => {
    const candidate = (mod.default ?? mod) as Partial<ToolsModule> & { units?: unknown };
    if (isTable(candidate) && candidate.units !== undefined)
      throw new ToolsModuleError(
        `tools module ${path} exports units: unit handlers belong to the handler module (--handlers), which runs in a handler process; the tools module runs in the worker`,
      );
    if (!isTable(candidate) || !isTable(candidate.tools) || (candidate.inputs !== undefined && !isTable(candidate.inputs)))
      throw new ToolsModuleError(`${path} does not export a tools module ({ tools, inputs? }) as its default export`);
    return { tools: candidate.tools, ...(candidate.inputs ? { inputs: candidate.inputs } : {}) };
  },
};

/** Imports the tools module at `path` and hashes its file; anything wrong with it is a ToolsModuleError naming the file. */
export const loadToolsModule = (path: string, handlersPath?: string): Promise<LoadedTools> =>
  loadWorkerModule(TOOLS_MODULE, path, handlersPath);

/**
 * Records the tools module this worker uses when it differs from the one the
 * run recorded last, so the event log says which adapter code made which effects.
 */
export const recordToolsModule = (store: Store, run: string, loaded: LoadedTools | undefined, now: string): Promise<void> =>
  recordWorkerModule(store, run, TOOLS_MODULE_EVENT, loaded, now);
