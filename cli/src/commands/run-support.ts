/**
 * Shared plumbing of the runtime commands (run, resume, status, approve,
 * rerun, cancel, budget, handoff, resolve): open the store, compile the
 * contract, load the handler module, print progress. No runtime logic here.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { MAX_TIMER_MS, type Plan } from "@taskspec/compiler";
import { formatPlanProblems, readPlanJson } from "@taskspec/compiler/plan-check";
import { filesBeside, readContractTextSync } from "@taskspec/compiler/node";
import { compileContractFile, compilePlan } from "../io/compile-plan.js";
import {
  DEFAULT_STORE_URL,
  RuntimeError,
  OperatorKeyError,
  formatMissingHandlers,
  formatVerifierModuleProblems,
  loadVerifierModule,
  missingHandlers,
  VerifierModuleError,
  verifierModuleProblems,
  type LoadedVerifiers,
  openStore,
  handlerReadRoots,
  isolationOf,
  processRunner,
  digestsOf,
  loadToolsModule,
  probedOrThrow,
  ProbeError,
  ToolsModuleError,
  type CodeDigests,
  type LoadedTools,
  type ProbedModule,
  type ProcessRunner,
  openAiChatAdapter,
  type ModelAdapter,
  storeFailureOf,
  unitIdProblem,
  type HandlerModule,
  type ToolAdapter,
  type HandlerRunner,
  type Progress,
  type Store,
  artifactLocationOf,
  openArtifactStorage,
  type ArtifactStorage,
  joinBoundTools,
  McpConfigError,
} from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { storeNow } from "./store-clock.js";
import { stopHeartbeat } from "./worker-heartbeat.js";

export const STORE_HELP = `store URL (default: $TASKSPEC_STORE, else ${DEFAULT_STORE_URL})`;

/** --store, else the TASKSPEC_STORE environment variable, else the default SQLite file. */
export function storeUrlOf(flag: string | undefined): string {
  return flag ?? (process.env.TASKSPEC_STORE || DEFAULT_STORE_URL);
}

/**
 * Opens the store, runs `fn`, closes it. A store that cannot be opened, or
 * fails while in use (full disk, damaged file, server gone), exits 2 with the
 * store named; other runtime refusals exit 1.
 */
export async function withStore<T>(url: string | undefined, fn: (store: Store) => Promise<T>): Promise<T> {
  const storeUrl = storeUrlOf(url);
  let store: Store;
  try {
    store = await openStore(storeUrl);
  } catch (err) {
    if (err instanceof RuntimeError) throw new UserError(err.message, 2);
    throw err;
  }
  try {
    return await fn(store);
  } catch (err) {
    const failure = storeFailureOf(err, storeUrl);
    if (failure) throw new UserError(failure.message, 2);
    // a missing or unknown operator key: like a missing argument, nothing was changed
    if (err instanceof OperatorKeyError) throw new UserError(err.message, 2);
    if (err instanceof RuntimeError) throw new UserError(err.message, 1);
    throw err;
  } finally {
    await stopHeartbeat(store);
    await store.close().catch(() => undefined);
  }
}

/**
 * The artifact backends a command uses (a directory, `pg:`, `s3://`), each
 * opened once and closed when the command ends: a worker visiting runs every
 * few seconds keeps one connection pool, not one per visit.
 */
export class ArtifactBackends {
  private readonly opened = new Map<string, Promise<ArtifactStorage>>();
  constructor(private readonly storeFlag: string | undefined) {}

  /** The backend of a location the run recorded or `--artifacts` gave; a bad one is bad usage (exit 2). */
  get(location: string): Promise<ArtifactStorage> {
    let storage = this.opened.get(location);
    if (!storage) {
      storage = openArtifactStorage(location, { storeUrl: storeUrlOf(this.storeFlag) }).catch((err: unknown) => {
        this.opened.delete(location);
        throw err instanceof RuntimeError ? new UserError(err.message, 2) : err;
      });
      this.opened.set(location, storage);
    }
    return storage;
  }

  async close(): Promise<void> {
    const all = [...this.opened.values()];
    this.opened.clear();
    await Promise.all(all.map((p) => p.then((s) => s.close?.()).catch(() => undefined)));
  }
}

/** Opens the artifacts at `location`, runs `fn`, closes them. */
export async function withArtifacts<T>(
  storeFlag: string | undefined,
  location: string,
  fn: (storage: ArtifactStorage) => Promise<T>,
): Promise<T> {
  const backends = new ArtifactBackends(storeFlag);
  try {
    return await fn(await backends.get(location));
  } finally {
    await backends.close();
  }
}

/** `--artifacts` as the location a run records (a directory made absolute); a bad one is bad usage (exit 2). */
export function artifactLocationFlag(spec: string): string {
  try {
    return artifactLocationOf(spec).location;
  } catch (err) {
    if (err instanceof RuntimeError) throw new UserError(err.message, 2);
    throw err;
  }
}

/** A file's text when it is still there (a run bundle's contract); undefined otherwise. */
export function readableText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** Where artifacts go when --artifacts is not given: beside the SQLite file. */
export function defaultArtifactRoot(storeUrl: string | undefined): string {
  const url = storeUrlOf(storeUrl);
  return url.startsWith("sqlite:") ? join(dirname(resolve(url.slice("sqlite:".length))), "artifacts") : resolve(".taskspec/artifacts");
}

/**
 * The plan a run carries out: an already compiled plan (`*.json`, checked
 * here) or a contract (`*.task.yaml`, compiled here); one that does not
 * compile is refused (exit 1) after its errors are printed.
 */
export function loadPlanToRun(file: string): Plan {
  if (file.endsWith(".json")) {
    // a compiled plan may be many times larger than its contract
    const read = readContractTextSync(file, 512 * 1024 * 1024);
    if (!read.ok) throw new UserError(`cannot read '${file}': ${read.reason}`, 2);
    return planFromJson(file, read.text);
  }
  const plan = compileContractFile(compilePlan, file, { color: false, mcpLock: true });
  if (!plan) throw new UserError(`${file} does not compile; fix the errors above before running it`, 1);
  return plan;
}

/**
 * A plan read from JSON: the compiler did not check it, so it is checked here
 * (the plan schema, the compiler's rules under their codes, its planHash:
 * readPlanJson) and its ids too (they become directory names). Anything
 * wrong is a usage error naming the file and the place, before anything is
 * recorded.
 */
function planFromJson(file: string, text: string): Plan {
  // whether a schema file exists (C013), not where its symlinks lead: the runtime resolves them when it reads
  // the file, the moment that counts (test/runtime-verifiers.test.ts plants one after the plan was compiled)
  const beside = filesBeside(file);
  const read = readPlanJson(text, { files: { exists: (path) => beside.exists(path) } });
  if (!read.ok) throw new UserError(refusal(file, formatPlanProblems(file, read.problems)), 2);
  const plan = read.plan;
  for (const unit of plan.units) {
    const problem = unitIdProblem(unit.id);
    if (problem) throw new UserError(`${file}: the plan's ${problem}`, 2);
  }
  return plan;
}

function refusal(file: string, lines: string[]): string {
  return `${lines.join("\n")}\n${file}: the plan is refused; nothing was run (edit the contract and compile it again with taskspec compile -o)`;
}

/**
 * The handler runner the run configuration asks for: a handler process per
 * attempt (`--isolation process`, the default), or none. A handler process
 * gets only the environment variables named by `--handler-env`.
 */
export function handlerRunner(
  o: { isolation?: "process" | "none"; handlerEnv?: string[]; handlerRead?: string[] },
  handlersPath: string,
): ProcessRunner | undefined {
  if ((o.isolation ?? "process") === "none") return undefined;
  for (const name of o.handlerEnv ?? [])
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UserError(`--handler-env takes a variable name, not ${JSON.stringify(name)}`, 2);
  const env: Record<string, string> = {};
  for (const name of o.handlerEnv ?? []) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  let readRoots: string[];
  try {
    readRoots = handlerReadRoots(handlersPath, o.handlerRead ?? []);
  } catch (err) {
    throw new UserError(`cannot prepare the handler process: ${err instanceof Error ? err.message : String(err)}`, 2);
  }
  return processRunner({ handlerModule: resolve(handlersPath), readRoots, env });
}

/**
 * The adapter behind `ctx.model` the run configuration names (`--model-url`,
 * `--model`, key in TASKSPEC_MODEL_API_KEY), or undefined: ctx.model is then
 * refused with a message that says how to configure one.
 */
export function modelAdapter(o: { modelUrl?: string; model?: string }): ModelAdapter | undefined {
  if (o.modelUrl === undefined) {
    if (o.model !== undefined) throw new UserError("--model needs --model-url (the endpoint that serves it)", 2);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(o.modelUrl);
  } catch {
    throw new UserError(`--model-url takes a URL (http://host:port/v1), not ${JSON.stringify(o.modelUrl)}`, 2);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UserError(`--model-url must be http(s), not ${url.protocol}`, 2);
  if (!o.model) throw new UserError("--model-url needs --model (the model ctx.model asks for by default)", 2);
  const apiKey = process.env.TASKSPEC_MODEL_API_KEY;
  return openAiChatAdapter({ baseUrl: o.modelUrl, model: o.model, ...(apiKey ? { apiKey } : {}) });
}

/**
 * While a run is driven: a process that ends before the outcome is known
 * (a handler's `process.exit(0)` under `--isolation none`) exits 4, never 0.
 * Returns the disarm function to call once the outcome is printed.
 */
export function exitGuard(run: string): () => void {
  const onExit = () => {
    process.stderr.write(
      `taskspec: the process ended before run ${run} reached an end (a handler's process.exit under --isolation none?); exit 4\n`,
    );
    process.exitCode = 4;
  };
  process.on("exit", onExit);
  return () => process.off("exit", onExit);
}

/**
 * Records where this worker runs the run's handlers and where it imported the
 * handler module (an `isolation` event; `status` shows the last one).
 */
export async function recordIsolation(
  store: Store,
  run: string,
  runner: HandlerRunner | undefined,
  handlerImport: "handler-process" | "worker" = "worker",
): Promise<void> {
  const info = { ...isolationOf(runner), handlerImport };
  await store.appendEvents(run, [{ at: await storeNow(store), type: "isolation", data: { ...info } }]);
  if (info.mode === "process" && info.network === "not isolated")
    process.stderr.write(
      `taskspec: run ${run}: network not isolated (unshare -rn is not available here): handlers can reach the network\n`,
    );
}

/** The handler module's default export (or its namespace), imported in this process; a module that fails to load is a usage error. */
async function importHandlerModule(path: string): Promise<unknown> {
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (err) {
    throw new UserError(`cannot load handler module ${path}: ${err instanceof Error ? err.message : String(err)}`, 2);
  }
  return mod.default ?? mod;
}

export async function loadHandlers(path: string): Promise<HandlerModule> {
  const candidate = (await importHandlerModule(path)) as Partial<HandlerModule> & { verifiers?: unknown };
  if (!candidate || typeof candidate !== "object" || !candidate.units || !candidate.tools) {
    throw new UserError(`${path} does not export a handler module ({ units, tools, inputs? }) as its default export`, 2);
  }
  if (candidate.verifiers !== undefined && candidate.verifiers !== null && typeof candidate.verifiers === "object") {
    const names = Object.keys(candidate.verifiers);
    process.stderr.write(
      `taskspec: warning: handler module ${path} exports verifiers${names.length ? ` (${names.join(", ")})` : ""}; they are not used: ` +
        "rule and schema verifiers decide as the contract declares, model and human verifiers come from --verifiers <module>\n",
    );
  }
  return candidate as HandlerModule;
}

/**
 * The code a worker runs a plan with, loaded as the run configuration says.
 * With a tools module (`--tools`) and handler processes (`--isolation
 * process`), the worker imports only the tools module: the handler module is
 * imported in a probe process (what it exports, its code digests) and in each
 * attempt's handler process, never here. Without `--tools` the handler module
 * is imported here as well, for its tools and inputs (and a warning says its
 * top level is not isolated).
 */
export interface RunCode {
  /** For the engine core: tools and inputs (the tools module's when given), and unit handlers when they run in this process. */
  handlers: HandlerModule;
  /** The probe's digests of the handler code, when the handler module is not imported here. */
  code?: CodeDigests;
  tools?: LoadedTools;
  runner?: ProcessRunner;
  /** Where the handler module's code ran: only in handler processes, or in this worker too. */
  handlerImport: "handler-process" | "worker";
  /** Stops the MCP servers the bound tools started and closes their connections: call it when the worker is done. */
  close: () => Promise<void>;
}

/** Probes already made by this process, by handler module path: a `worker` polls, its probe does not re-run (an import is not re-run either). */
const probed = new Map<string, Promise<ProbedModule[]>>();
let warnedNoTools = false;

export async function loadRunCode(
  plan: Plan,
  o: { isolation?: "process" | "none"; handlerEnv?: string[]; handlerRead?: string[] },
  paths: { contract: string; handlers: string; tools?: string | undefined },
): Promise<RunCode> {
  let close = async (): Promise<void> => undefined;
  // the tools the contract binds to MCP servers are the worker's, beside the module's (no server starts before a call)
  const withBound = (own: Readonly<Record<string, ToolAdapter>>): Record<string, ToolAdapter> => {
    try {
      const joined = joinBoundTools(plan, own, { folder: dirname(resolve(paths.contract)), env: process.env });
      close = joined.close;
      return joined.tools;
    } catch (err) {
      if (err instanceof McpConfigError) throw new UserError(`${paths.tools ?? paths.handlers}: ${err.message}`, 2);
      throw err;
    }
  };
  const code = await loadRunCodeOnly(plan, o, paths, withBound);
  return { ...code, close: () => close() };
}

async function loadRunCodeOnly(
  plan: Plan,
  o: { isolation?: "process" | "none"; handlerEnv?: string[]; handlerRead?: string[] },
  paths: { handlers: string; tools?: string | undefined },
  withBound: (own: Readonly<Record<string, ToolAdapter>>) => Record<string, ToolAdapter>,
): Promise<Omit<RunCode, "close">> {
  const runner = handlerRunner(o, paths.handlers);
  if (paths.tools === undefined) {
    const loaded = await loadHandlers(paths.handlers);
    const handlers: HandlerModule = { ...loaded, tools: withBound(loaded.tools) };
    checkHandlers(plan, handlers, paths.handlers);
    if (runner && !warnedNoTools) {
      warnedNoTools = true;
      process.stderr.write(
        `taskspec: warning: no --tools: handler module ${paths.handlers} is imported in the worker for its tools and inputs, so its top-level code runs with the worker's rights (environment, network, store): not isolated at import; ` +
          'put tools and inputs in a tools module and pass --tools <module> (docs/runtime.md, "The tools module")\n',
      );
    }
    return { handlers, ...(runner ? { runner } : {}), handlerImport: "worker" };
  }
  const tools = await loadTools(paths.tools, paths.handlers);
  if (!runner) {
    // --isolation none: the unit handlers run in this process, so the handler module is imported here anyway
    const units = await loadUnits(paths.handlers);
    const handlers: HandlerModule = { units, tools: withBound(tools.tools), ...(tools.inputs ? { inputs: { ...tools.inputs } } : {}) };
    checkHandlers(plan, handlers, paths.handlers, undefined, paths.tools);
    return { handlers, tools, handlerImport: "worker" };
  }
  const key = resolve(paths.handlers);
  let answer = probed.get(key);
  if (!answer) probed.set(key, (answer = runner.probe([paths.handlers])));
  let found;
  try {
    found = probedOrThrow(paths.handlers, "handler module", (await answer)[0]);
  } catch (err) {
    probed.delete(key);
    if (err instanceof ProbeError) throw new UserError(`cannot load handler module ${paths.handlers}: ${err.message}`, 2);
    throw err;
  }
  if (!found.exports.includes("units"))
    throw new UserError(`${paths.handlers} does not export a handler module ({ units }) as its default export`, 2);
  const unused = found.exports.filter((name) => name === "tools" || name === "inputs" || name === "verifiers");
  if (unused.length > 0)
    process.stderr.write(
      `taskspec: warning: handler module ${paths.handlers} exports ${unused.join(", ")}; not used: tools and inputs come from the tools module (--tools), verifiers from --verifiers\n`,
    );
  const handlers: HandlerModule = { units: {}, tools: withBound(tools.tools), ...(tools.inputs ? { inputs: { ...tools.inputs } } : {}) };
  const code: CodeDigests = { units: found.units, tools: digestsOf({ tools: tools.tools }).tools };
  checkHandlers(plan, handlers, paths.handlers, code.units, paths.tools);
  return { handlers, code, tools, runner, handlerImport: "handler-process" };
}

/** The tools module at `path` (not the handler module's file), or a usage error naming it. */
export async function loadTools(path: string, handlersPath?: string): Promise<LoadedTools> {
  try {
    return await loadToolsModule(path, handlersPath);
  } catch (err) {
    if (err instanceof ToolsModuleError) throw new UserError(err.message, 2);
    throw err;
  }
}

/** A handler module of the split layout imported here (`--isolation none`): its `units`. */
async function loadUnits(path: string): Promise<HandlerModule["units"]> {
  const candidate = (await importHandlerModule(path)) as { units?: unknown };
  if (!candidate || typeof candidate !== "object" || typeof candidate.units !== "object" || candidate.units === null)
    throw new UserError(`${path} does not export a handler module ({ units }) as its default export`, 2);
  return candidate.units as HandlerModule["units"];
}

export const VERIFIERS_HELP = "verifier module for the contract's model/human verifiers (default export: { verifiers })";

/**
 * Loads the verifier module (`--verifiers`, or the run's recorded one) and
 * checks it against the plan: every model/human verifier the plan uses is
 * implemented, no rule or schema verifier is, and it is not the handler
 * module. Anything wrong is a usage error (exit 2) before any work.
 */
export async function loadVerifiers(plan: Plan, path: string | undefined, handlersPath: string): Promise<LoadedVerifiers | undefined> {
  let loaded: LoadedVerifiers | undefined;
  if (path !== undefined) {
    try {
      loaded = await loadVerifierModule(path, handlersPath);
    } catch (err) {
      if (err instanceof VerifierModuleError) throw new UserError(err.message, 2);
      throw err;
    }
  }
  const problems = verifierModuleProblems(plan, loaded?.verifiers);
  if (problems.length > 0) throw new UserError(formatVerifierModuleProblems(path, problems), 2);
  return loaded;
}

/** Each failed unit of a run with its last error (class, message, attempt): what `run` and `status` print. */
export async function failureReasons(store: Store, run: string): Promise<Array<{ unit: string; reason: string }>> {
  const facts = await store.loadFacts(run);
  return facts.units
    .filter((u) => u.state === "failed")
    .map((u) => ({
      unit: u.unit,
      reason: u.lastError ? `a${u.lastError.attempt} ${u.lastError.class}: ${u.lastError.message}` : "attempts used up",
    }));
}

/**
 * Refuses (exit 2) a handler module (and tools module) that lacks anything
 * the plan needs, listing all of it, before any work. `units`: the unit
 * handlers the probe found, when the handler module is not imported here.
 */
export function checkHandlers(plan: Plan, handlers: HandlerModule, path: string, units?: CodeDigests["units"], toolsPath?: string): void {
  const missing = missingHandlers(plan, handlers, units);
  if (missing.length > 0) throw new UserError(formatMissingHandlers(path, missing, toolsPath), 2);
}

export const OPERATOR_KEY_HELP = "file holding an operator key (from `taskspec store init-operator`; default $TASKSPEC_OPERATOR_KEY_FILE)";

/** The operator key in `file` (trimmed), or a usage error naming the file. */
export function operatorKeyOf(file: string): string {
  const read = readContractTextSync(file, 4096);
  if (!read.ok) throw new UserError(`cannot read operator key file '${file}': ${read.reason}`, 2);
  const key = read.text.trim();
  if (!/^tso_[A-Za-z0-9_-]{20,}$/.test(key))
    throw new UserError(`operator key file '${file}' holds no operator key (taskspec store init-operator writes one)`, 2);
  return key;
}

export function operatorName(by?: string): string {
  return by ?? process.env.TASKSPEC_OPERATOR ?? process.env.USER ?? "operator";
}

/**
 * Who acts in an operator command: the name (`--by`, $TASKSPEC_OPERATOR,
 * $USER) and the operator key of `--operator-key-file`, else of
 * $TASKSPEC_OPERATOR_KEY_FILE, when one is given. The runtime checks the key
 * against the store (operator/authority.ts): a store with operator
 * identities refuses a decision without one.
 */
export function operatorActing(o: { by?: string | undefined; operatorKeyFile?: string | undefined }): {
  by: string;
  operatorKey?: string;
} {
  const file = o.operatorKeyFile ?? takeOperatorKeyFileEnv();
  return { by: operatorName(o.by), ...(file !== undefined ? { operatorKey: operatorKeyOf(file) } : {}) };
}

/**
 * $TASKSPEC_OPERATOR_KEY_FILE, removed from this process's environment: a
 * command that drives a run (`run`, `resume`, `worker`) may run handlers in
 * this process (`--isolation none`), and they must not find the key's file.
 */
export function takeOperatorKeyFileEnv(): string | undefined {
  const file = process.env.TASKSPEC_OPERATOR_KEY_FILE || undefined;
  delete process.env.TASKSPEC_OPERATOR_KEY_FILE;
  return file;
}

/**
 * `24h`, `30m`, `90s`, `2d` or milliseconds, more than zero and at most
 * `maxMs` (a timer's range by default); anything else is a usage error (exit
 * 2), never an internal error later (`--expires 99999999999d` made an
 * invalid date).
 */
export function parseDuration(text: string, flag = "duration", maxMs = MAX_TIMER_MS): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) throw new UserError(`bad ${flag} ${JSON.stringify(text)}: write e.g. 30m, 24h, 2d`, 2);
  const n = Number(m[1]);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[(m[2] ?? "ms") as "ms"];
  const ms = Math.round(n * unit);
  if (!(ms > 0)) throw new UserError(`bad ${flag} ${JSON.stringify(text)}: it must be longer than zero`, 2);
  if (ms > maxMs) throw new UserError(`bad ${flag} ${JSON.stringify(text)}: at most ${describeMs(maxMs)}`, 2);
  return ms;
}

function describeMs(ms: number): string {
  return ms >= 86_400_000 ? `${Math.floor(ms / 86_400_000)}d` : `${ms} ms`;
}

/**
 * A whole number from 1 to `max` (no upper bound when `max` is omitted) for
 * `flag`, or a usage error (exit 2): `--concurrency abc` or `0` is bad usage.
 */
export function parseCount(text: string, flag: string, max?: number): number {
  const n = /^\d+$/.test(text.trim()) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || (max !== undefined && n > max)) {
    const range = max === undefined ? "a positive integer" : `a whole number from 1 to ${max}`;
    throw new UserError(`${flag} must be ${range}, not ${JSON.stringify(text)}`, 2);
  }
  return n;
}

/** One line per change of the counts: units done/ready/running/blocked and budget. */
export function progressPrinter(): (p: Progress) => void {
  let last = "";
  return (p) => {
    const budget = Object.entries(p.caps)
      .map(([k, cap]) => `${k} ${p.budgetUsed[k] ?? 0}/${cap}`)
      .join(" · ");
    const line = `[progress] ${p.counts.succeeded}/${p.total} done · ${p.counts.ready} ready · ${p.counts.running} running · ${p.counts.blocked} blocked${budget ? ` · ${budget}` : ""}`;
    if (line !== last) process.stderr.write(`${line}\n`);
    last = line;
  };
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
