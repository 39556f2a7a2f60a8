/**
 * `taskspec cancel <run>`: prints what would be undone (compensable effects in
 * reverse commit order, and the open ones with what happens first: a wait for
 * the call in flight, a lookup) and what cannot be, with why; records the
 * decision, fences the units workers hold, settles unknown outcomes, runs the
 * compensators and verifies each. The run ends `cancelled` (exit 0) or stays
 * held with the reasons (exit 1): a failed compensation, an effect whose
 * outcome is still unknown. A failed compensation is not retried in a loop.
 */
import type { Command } from "commander";
import { crashHookFromEnv, operator } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { printPreview } from "./operator-print.js";
import { loadHandlers, OPERATOR_KEY_HELP, operatorActing, STORE_HELP, withStore } from "./run-support.js";

export function register(program: Command): void {
  program
    .command("cancel")
    .description("Cancel a run: compensate committed compensable effects in reverse order, verified.")
    .argument("<run>", "run id")
    .option("--store <url>", STORE_HELP)
    .option("--handlers <module>", "handler module with the compensators (default: the run's)")
    .option("--reason <text>", "why (recorded)", "cancelled by an operator")
    .option("--by <name>", "who decides (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP)
    .option("--dry-run", "print what would be undone, record nothing")
    .action(
      async (
        run: string,
        o: { store?: string; handlers?: string; reason: string; by?: string; operatorKeyFile?: string; dryRun?: boolean },
      ) => {
        const acting = o.dryRun ? undefined : operatorActing(o);
        process.exitCode = await withStore(o.store, async (store) => {
          if (!acting) {
            printPreview(await operator.previewCancel(store, run), false);
            return 0;
          }
          const r = await store.getRun(run);
          if (!r) throw new UserError(`no run ${run} in this store`, 2);
          const handlersPath = o.handlers ?? r.origin.handlers;
          if (!handlersPath) throw new UserError(`run ${run} has no recorded handler module: pass --handlers`, 2);
          const handlers = await loadHandlers(handlersPath);
          const { preview, report } = await operator.cancel(
            {
              store,
              handlers,
              crash: crashHookFromEnv(),
              now: () => new Date().toISOString(),
              onWait: (e, until) =>
                process.stdout.write(`  waiting for the call in flight: ${e.id} ${e.intent} (until ${until} at most)\n`),
            },
            run,
            acting,
            o.reason,
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
