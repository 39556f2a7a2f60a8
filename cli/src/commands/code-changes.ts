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
  loadPlanOf,
  type CodeChange,
  type HandlerModule,
  type Store,
} from "@taskspec/runtime";
import type { Plan } from "@taskspec/compiler";
import { loadHandlers, operatorName } from "./run-support.js";

/** Before the worker starts: re-run what the contract says to, report the rest on stderr. */
export async function startWithCodeChanges(store: Store, run: string, plan: Plan, handlers: HandlerModule): Promise<void> {
  const out = await applyCodeChanges(store, run, plan, handlers, operatorName(), new Date().toISOString());
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

/** For `status`: the run's recorded handler module against its current results; never fails the command. */
export async function codeCheckOf(store: Store, run: string, handlersPath: string | undefined): Promise<CodeCheck> {
  if (!handlersPath) return { checked: false, reason: "the run records no handler module" };
  try {
    const handlers = await loadHandlers(handlersPath);
    return { checked: true, changes: await codeChangesOfRun(store, run, await loadPlanOf(store, run), handlers) };
  } catch (err) {
    return { checked: false, reason: err instanceof Error ? err.message : String(err) };
  }
}
