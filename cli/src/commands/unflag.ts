/** `taskspec unflag <run>`: clears the needs-expert flag, a recorded decision; workers may claim the run's units again. */
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { decideOnPreview, PREVIEW_OPTIONS, type PreviewOptions } from "./preview-decision.js";
import { OPERATOR_KEY_HELP, STORE_HELP } from "./run-support.js";

export function register(program: Command): void {
  const cmd = program
    .command("unflag")
    .description("Clear a run's needs-expert flag: a recorded decision; workers may claim its units again.")
    .argument("<run>", "run id")
    .option("--reason <text>", "why it is settled (recorded with the decision)")
    .option("--store <url>", STORE_HELP)
    .option("--by <name>", "who decides (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP);
  PREVIEW_OPTIONS(cmd).action(async (run: string, o: PreviewOptions & { reason?: string }) => {
    await decideOnPreview(o, {
      preview: (store, now) => operator.previewUnflag(store, run, now),
      decide: (store, acting, now, expected) => operator.unflag(store, run, acting, now, o.reason, expected),
      after: `next: taskspec resume ${run}`,
    });
  });
}
