/**
 * `taskspec narrow <run> --to <units|outputs>`: drops from the run's goal
 * every unit the named units and outputs do not need (a recorded decision),
 * printing what is kept, dropped and given up first. `--dry-run` prints the
 * preview and its basis; `--if-preview <basis>` refuses a stale decision.
 */
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { decideOnPreview, PREVIEW_OPTIONS, type PreviewOptions } from "./preview-decision.js";
import { OPERATOR_KEY_HELP, STORE_HELP } from "./run-support.js";

export function register(program: Command): void {
  const cmd = program
    .command("narrow")
    .description("Narrow a run's goal to some units or outputs: the units they do not need are dropped (a recorded decision).")
    .argument("<run>", "run id")
    .requiredOption("--to <names...>", "the units or outputs to keep (with everything they need)")
    .option("--reason <text>", "why (recorded with the decision)")
    .option("--store <url>", STORE_HELP)
    .option("--by <name>", "who decides (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP);
  PREVIEW_OPTIONS(cmd).action(async (run: string, o: PreviewOptions & { to: string[]; reason?: string }) => {
    const to = o.to.flatMap((t) => t.split(",")).filter(Boolean);
    await decideOnPreview(o, {
      preview: (store, now) => operator.previewNarrow(store, run, to, now),
      decide: (store, acting, now, expected) => operator.narrow(store, run, to, acting, now, o.reason, expected),
      after: `next: taskspec resume ${run}`,
    });
  });
}
