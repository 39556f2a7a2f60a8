/**
 * `taskspec budget <run> --cap budget=n [--reason "..."]`: changes caps as a
 * recorded decision (used amounts are never reset); lifts a budget block when
 * the new cap covers the refused charge.
 */
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { printPreview } from "./operator-print.js";
import { collect, OPERATOR_KEY_HELP, operatorActing, STORE_HELP, withStore } from "./run-support.js";
import { storeNow } from "./store-clock.js";

export function register(program: Command): void {
  program
    .command("budget")
    .description("Raise (or set) a run's budget caps: a recorded decision.")
    .argument("<run>", "run id")
    .option("--cap <budget=n>", "new cap, e.g. model_calls=110; repeatable", collect)
    .option("--reason <text>", "why (recorded with the decision)", "raised by an operator")
    .option("--store <url>", STORE_HELP)
    .option("--by <name>", "who decides (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP)
    .option("--dry-run", "print the change, record nothing")
    .action(
      async (
        run: string,
        o: { cap?: string[]; reason: string; store?: string; by?: string; operatorKeyFile?: string; dryRun?: boolean },
      ) => {
        if (!o.cap?.length) throw new UserError("give at least one --cap <budget>=<n>", 2);
        // a malformed cap is a usage error (exit 2), found before the store is opened
        let caps: ReturnType<typeof operator.parseCaps>;
        try {
          caps = operator.parseCaps(o.cap);
        } catch (err) {
          throw new UserError((err as Error).message, 2);
        }
        const acting = o.dryRun ? undefined : operatorActing(o);
        await withStore(o.store, async (store) => {
          if (!acting) return printPreview(await operator.previewBudget(store, run, caps), false);
          printPreview(await operator.setBudget(store, run, caps, acting, o.reason, await storeNow(store)), true);
          process.stdout.write(`next: taskspec resume ${run}\n`);
        });
      },
    );
}
