/**
 * `taskspec rerun <run> <unit>`: supersedes the unit (kept) and what depends
 * on it, as a recorded decision checkpoint; prints what is reused and what
 * invalidated first. `taskspec resume` then runs them (early cutoff applies).
 */
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { printPreview } from "./operator-print.js";
import { OPERATOR_KEY_HELP, operatorActing, STORE_HELP, withStore } from "./run-support.js";
import { storeNow } from "./store-clock.js";

export function register(program: Command): void {
  program
    .command("rerun")
    .description("Re-run a unit and what depends on it (superseded, kept), as a recorded decision.")
    .argument("<run>", "run id")
    .argument("<unit>", "unit id")
    .option("--store <url>", STORE_HELP)
    .option("--by <name>", "who decides (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP)
    .option("--dry-run", "print what it would invalidate, record nothing")
    .action(async (run: string, unit: string, o: { store?: string; by?: string; operatorKeyFile?: string; dryRun?: boolean }) => {
      const acting = o.dryRun ? undefined : operatorActing(o);
      await withStore(o.store, async (store) => {
        if (!acting) return printPreview((await operator.previewRerun(store, run, unit)).preview, false);
        printPreview(await operator.rerun(store, run, unit, acting, await storeNow(store)), true);
        process.stdout.write(`next: taskspec resume ${run}\n`);
      });
    });
}
