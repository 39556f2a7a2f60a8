/**
 * Handler code changed under committed results, as `run`, `resume`,
 * `worker` and `status` say it. Starting work applies the contract's choice
 * (`on_code_change: rerun` re-runs, as a recorded decision); everything else
 * is reported and kept until a person runs `taskspec rerun`.
 */
import {
  applyCodeChanges,
  codeChangesOfRun,
  formatCodeChange,
  handlerReadRoots,
  planOfRun,
  probedOrThrow,
  probeModules,
  type CodeChange,
  type CodeDigests,
  type HandlerModule,
  type Store,
} from "@taskspec/runtime";
import type { Plan } from "@taskspec/compiler";
import { operatorName } from "./run-support.js";
import { storeNow } from "./store-clock.js";

/** Before the worker starts: re-run what the contract says to, report the rest on stderr. */
export async function startWithCodeChanges(
  store: Store,
  run: string,
  plan: Plan,
  handlers: HandlerModule,
  code?: CodeDigests,
): Promise<void> {
  const out = await applyCodeChanges(store, run, plan, handlers, operatorName(), await storeNow(store), code);
  for (const c of out.rerun)
    process.stderr.write(
      `taskspec: ${c.unit}: ${c.changed.join(", ")} changed since it ran; re-running it (on_code_change: rerun; recorded as a decision)\n`,
    );
  if (out.ask.length > 0)
    process.stderr.write(
      `taskspec: handler code changed under ${out.ask.length} committed result(s):\n${out.ask.map((c) => `  ${formatCodeChange(run, c)}\n`).join("")}`,
    );
}

export type CodeCheck = { checked: true; changes: CodeChange[] } | { checked: false; reason: string };

/**
 * For `status`: the run's recorded handler module (and tools module) against
 * its current results; never fails the command. The modules are imported in
 * a probe process (the handler process's launch: permission model, no
 * environment, no network where possible), never in this one: `status` runs
 * no user code with the operator's rights. `readRoots`: what the run's last
 * worker let its handler processes read (its `isolation` event).
 */
export async function codeCheckOf(
  store: Store,
  run: string,
  origin: { handlers?: string | undefined; tools?: string | undefined },
  readRoots: readonly string[] = [],
): Promise<CodeCheck> {
  const handlersPath = origin.handlers;
  if (!handlersPath) return { checked: false, reason: "the run records no handler module" };
  try {
    const modules = [handlersPath, ...(origin.tools ? [origin.tools] : [])];
    const roots = new Set([...readRoots, ...modules.flatMap((m) => handlerReadRoots(m))]);
    const answers = await probeModules(modules, { readRoots: [...roots] });
    const handlers = probedOrThrow(handlersPath, "handler module", answers[0]);
    const tools = origin.tools ? probedOrThrow(origin.tools, "tools module", answers[1]) : handlers;
    const code = { units: handlers.units, tools: tools.tools };
    return { checked: true, changes: await codeChangesOfRun(store, run, await planOfRun(store, run), { units: {}, tools: {} }, code) };
  } catch (err) {
    return { checked: false, reason: err instanceof Error ? err.message : String(err) };
  }
}
