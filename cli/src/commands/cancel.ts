/**
 * `taskspec cancel <run>`: prints what would be undone (compensable effects in
 * reverse commit order, and the open ones with what happens first: a wait for
 * the call in flight, a lookup) and what cannot be, with why; records the
 * decision, fences the units workers hold, settles unknown outcomes, runs the
 * compensators and verifies each. The run ends `cancelled` (exit 0) or stays
 * held with the reasons (exit 1): a failed compensation, an effect whose
 * outcome is still unknown. A failed compensation is not retried in a loop.
 */
import { dirname } from "node:path";
import type { Command } from "commander";
import {
  crashHookFromEnv,
  joinBoundTools,
  planOfRun,
  McpConfigError,
  operator,
  type EffectRecord,
  type HandlerModule,
  type Store,
} from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { printPreview } from "./operator-print.js";
import { loadHandlers, loadTools, OPERATOR_KEY_HELP, operatorActing, STORE_HELP, withStore } from "./run-support.js";
import { storeClockOf } from "./store-clock.js";

export function register(program: Command): void {
  program
    .command("cancel")
    .description("Cancel a run: compensate committed compensable effects in reverse order, verified.")
    .argument("<run>", "run id")
    .option("--store <url>", STORE_HELP)
    .option("--handlers <module>", "handler module with the compensators, for a run without a tools module (default: the run's)")
    .option(
      "--tools <module>",
      "tools module with the compensators and lookups (default: the run's; the handler module is then not loaded)",
    )
    .option("--reason <text>", "why (recorded)", "cancelled by an operator")
    .option("--by <name>", "who decides (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP)
    .option("--dry-run", "print what would be undone, record nothing")
    .action(
      async (
        run: string,
        o: { store?: string; handlers?: string; tools?: string; reason: string; by?: string; operatorKeyFile?: string; dryRun?: boolean },
      ) => {
        const acting = o.dryRun ? undefined : operatorActing(o);
        process.exitCode = await withStore(o.store, async (store) => {
          if (!acting) {
            printPreview(await operator.previewCancel(store, run), false);
            return 0;
          }
          const { preview, report } = await cancelRun(store, run, acting, o.reason, o, (e, until) =>
            process.stdout.write(`  waiting for the call in flight: ${e.id} ${e.intent} (until ${until} at most)\n`),
          );
          printPreview(preview, true);
          for (const id of report.compensated) process.stdout.write(`  compensated and verified: ${id}\n`);
          for (const f of report.failed)
            process.stdout.write(`  compensation FAILED: ${f.effect}: ${f.reason} (run blocked; fix at the remote, then cancel again)\n`);
          for (const b of report.blocked) process.stdout.write(`  NOT cancelled: ${b.effect} (${b.intent}): ${b.why}\n`);
          if (report.blocked.length && !report.failed.length)
            process.stdout.write(
              `run ${run} is held (cancelling), not cancelled; settle the above, then \`taskspec cancel ${run}\` again\n`,
            );
          return report.failed.length || report.blocked.length ? 1 : 0;
        });
      },
    );
}

/**
 * Cancels with the compensators and lookups of the run's modules (or those
 * given): what `taskspec cancel` and the console's Cancel button both run.
 */
export async function cancelRun(
  store: Store,
  run: string,
  acting: ReturnType<typeof operatorActing>,
  reason: string,
  o: { handlers?: string | undefined; tools?: string | undefined },
  onWait?: (e: EffectRecord, until: string) => void,
): Promise<Awaited<ReturnType<typeof operator.cancel>>> {
  const r = await store.getRun(run);
  if (!r) throw new UserError(`no run ${run} in this store`, 2);
  // compensators and lookups are tools: from the tools module when the run has one (the handler module is not imported)
  const toolsPath = o.tools ?? (o.handlers ? undefined : r.origin.tools);
  const handlersPath = o.handlers ?? r.origin.handlers;
  let handlers: HandlerModule;
  if (toolsPath) handlers = { units: {}, tools: { ...(await loadTools(toolsPath, handlersPath)).tools } };
  else if (handlersPath) handlers = await loadHandlers(handlersPath);
  else throw new UserError(`run ${run} has no recorded tools or handler module: pass --tools`, 2);
  const clock = await storeClockOf(store);
  // compensators and lookups bound to MCP servers are called from here as the worker calls them: through the ledger, with the SDK
  let bound;
  try {
    bound = joinBoundTools(await planOfRun(store, run), handlers.tools, {
      folder: r.origin.contract ? dirname(r.origin.contract) : process.cwd(),
      env: process.env,
    });
  } catch (err) {
    if (err instanceof McpConfigError) throw new UserError(`${toolsPath ?? handlersPath}: ${err.message}`, 2);
    throw err;
  }
  try {
    return await operator.cancel(
      {
        store,
        handlers: { ...handlers, tools: bound.tools },
        crash: crashHookFromEnv(),
        now: () => clock.now().toISOString(),
        ...(onWait ? { onWait } : {}),
      },
      run,
      acting,
      reason,
    );
  } finally {
    await bound.close();
  }
}
