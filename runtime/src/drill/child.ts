/**
 * The worker process of a drill step: `node child.js '<json ChildArgs>'`.
 * Runs (or resumes) one run, or cancels it, exactly as a real worker would,
 * with crash points armed from TASKSPEC_CRASH_AT. The handler module is
 * wrapped so the drill can count invocations in a file of its own (it never
 * trusts the store's account of what re-ran) and, for staleness cases, stop
 * this very process (SIGSTOP) at a chosen spot. Prints one JSON line.
 */
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Plan } from "@taskspec/compiler";
import { formatPlanProblems, readPlanJson } from "@taskspec/compiler/plan-check";
import { crashHookFromEnv } from "../faults/crash-points.js";
import { runPlan } from "../engine/run-plan.js";
import { loadToolsModule } from "../engine/tools-module.js";
import { loadVerifierModule } from "../engine/verifier-module.js";
import { joinBoundTools } from "../mcp/bound-tools.js";
import type { HandlerModule, ToolAdapter, UnitHandler } from "../handler-api.js";
import { cancel } from "../operator/actions.js";
import { SqliteStore } from "../store/sqlite.js";

export interface ChildArgs {
  mode: "run" | "cancel";
  /** The contract file (its directory anchors `schema:` paths). */
  contract: string;
  /** Its compiled plan (JSON), compiled once by the parent. */
  plan: string;
  handlers: string;
  /** The tools module (`--tools`: tools and inputs), when the handler module holds only `{ units }`. */
  tools?: string;
  /** The verifier module (model/human verifiers), loaded in this worker apart from the handlers. */
  verifiers?: string;
  db: string;
  artifacts: string;
  run: string;
  /** Invocation log (one JSON line per handler call). */
  log: string;
  leaseTtlMs?: number;
  /** This worker's clock runs ahead by this much (a takeover after lease expiry without waiting for it). */
  clockOffsetMs?: number;
  concurrency?: number;
  /** `<unit>/<tool>`: stop before calling the tool; `<unit>/after-handler`: stop once the handler returned. */
  pause?: string;
  /** Written just before the process stops itself, so the parent waits on a file, not a timer. */
  pauseMarker?: string;
}

export interface Invocation {
  unit: string;
  attempt: number;
  iteration: number;
  pid: number;
}

/** The plan the parent compiled and wrote for its steps, checked again (its schema, the compiler's rules, its planHash). */
function checkedPlanJson(file: string, text: string): Plan {
  const read = readPlanJson(text);
  if (read.ok) return read.plan;
  throw new Error(formatPlanProblems(file, read.problems).join("\n"));
}

/**
 * The handler module, or with `toolsPath` (the split layout, `--tools`) its
 * units joined with the tools module's tools and inputs: a drill's worker
 * runs handlers in its own process, to count and pause them.
 */
export async function loadHandlerModule(path: string, toolsPath?: string): Promise<HandlerModule> {
  const mod = (await import(pathToFileURL(resolve(path)).href)) as { default?: HandlerModule } & HandlerModule;
  const m = mod.default ?? mod;
  if (toolsPath !== undefined) {
    if (!m || typeof m !== "object" || !m.units)
      throw new Error(`${path} does not export a handler module ({ units }) as its default export`);
    const t = await loadToolsModule(toolsPath, path);
    return { units: m.units, tools: t.tools, ...(t.inputs ? { inputs: t.inputs } : {}) };
  }
  if (!m || typeof m !== "object" || !m.units || !m.tools)
    throw new Error(`${path} does not export a handler module ({ units, tools }) as its default export; with a tools module, pass --tools`);
  return m;
}

/** Marks the spot, then stops: the parent must wait for the stop too, not just the marker (waitForPause in process.ts). */
function stopHere(marker: string | undefined): void {
  if (marker) writeFileSync(marker, String(process.pid));
  process.kill(process.pid, "SIGSTOP");
}

/** The user's module, with invocation counting and the optional pause spot. */
export function instrument(m: HandlerModule, a: Pick<ChildArgs, "log" | "pause" | "pauseMarker">): HandlerModule {
  const [pauseUnit, pauseAt] = a.pause ? (a.pause.split("/", 2) as [string, string]) : [undefined, undefined];
  let paused = false;
  const pauseOnce = (unit: string, at: string) => {
    if (paused || unit !== pauseUnit || at !== pauseAt) return;
    paused = true;
    stopHere(a.pauseMarker);
  };
  const units: Record<string, UnitHandler> = {};
  for (const [id, h] of Object.entries(m.units)) {
    units[id] = async (ctx) => {
      const line: Invocation = { unit: ctx.unit.id, attempt: ctx.attempt.number, iteration: ctx.iteration, pid: process.pid };
      appendFileSync(a.log, `${JSON.stringify(line)}\n`);
      const result = await h(ctx);
      pauseOnce(ctx.unit.id, "after-handler");
      return result;
    };
  }
  const tools: Record<string, ToolAdapter> = {};
  for (const [name, t] of Object.entries(m.tools)) {
    tools[name] = {
      call: (args, meta) => {
        pauseOnce(meta.unitId, name);
        return t.call(args, meta);
      },
    };
  }
  return { ...m, units, tools };
}

async function main(a: ChildArgs): Promise<unknown> {
  const plan = checkedPlanJson(a.plan, readFileSync(a.plan, "utf8"));
  const own = await loadHandlerModule(a.handlers, a.tools);
  // bound tools are the worker's, as in `taskspec run`: instrumented with the module's, so a pause at one works the same
  const bound = joinBoundTools(plan, own.tools, { folder: dirname(resolve(a.contract)), env: process.env });
  const handlers = instrument({ ...own, tools: bound.tools }, a);
  const store = new SqliteStore({ path: a.db });
  await store.init();
  try {
    if (a.mode === "cancel") {
      const { report } = await cancel(
        { store, handlers, crash: crashHookFromEnv(), now: () => new Date().toISOString() },
        a.run,
        "drill",
        "fault drill: cancel",
      );
      return { status: report.failed.length ? "blocked" : "cancelled", report };
    }
    const offset = a.clockOffsetMs ?? 0;
    const verifiers = a.verifiers ? await loadVerifierModule(a.verifiers, a.handlers) : undefined;
    return await runPlan({
      store,
      plan,
      handlers,
      ...(verifiers ? { verifiers } : {}),
      run: a.run,
      artifacts: a.artifacts,
      contractFile: resolve(a.contract),
      handlersPath: resolve(a.handlers),
      ...(a.leaseTtlMs ? { leaseTtlMs: a.leaseTtlMs } : {}),
      ...(offset ? { clock: { now: () => new Date(Date.now() + offset) } } : {}),
      concurrency: a.concurrency ?? 1,
    });
  } finally {
    await bound.close();
    await store.close();
  }
}

/** Runs one drill child from its argv (JSON args in argv[2]) and prints its outcome as one JSON line. */
export function runChild(argv: readonly string[]): void {
  main(JSON.parse(argv[2] ?? "{}") as ChildArgs).then(
    (out) => process.stdout.write(`${JSON.stringify(out)}\n`),
    (err: unknown) => {
      process.stdout.write(`${JSON.stringify({ status: "error", error: err instanceof Error ? err.message : String(err) })}\n`);
      process.exitCode = 3;
    },
  );
}

// Run as a script (the drill spawns this file). The CLI's bundle has its own
// child entry that calls runChild, because bundled, this module's URL is a chunk's.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) runChild(process.argv);
