/**
 * `taskspec flag <run> --reason "..."`: marks the run as needing expert
 * handling, a recorded decision that stops workers from starting attempts of
 * it until `taskspec unflag`. `--dry-run` prints the preview and its basis;
 * `--if-preview <basis>` refuses the decision when the run has moved past it.
 */
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { decideOnPreview, PREVIEW_OPTIONS, type PreviewOptions } from "./preview-decision.js";
import { OPERATOR_KEY_HELP, STORE_HELP } from "./run-support.js";

export function register(program: Command): void {
  const cmd = program
    .command("flag")
    .description("Mark a run as needing expert handling: workers start no attempt of it until `taskspec unflag`.")
    .argument("<run>", "run id")
    .requiredOption("--reason <text>", "what the expert must look at (recorded with the decision)")
    .option("--store <url>", STORE_HELP)
    .option("--by <name>", "who decides (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP);
  PREVIEW_OPTIONS(cmd).action(async (run: string, o: PreviewOptions & { reason: string }) => {
    await decideOnPreview(o, {
      preview: (store, now) => operator.previewFlag(store, run, o.reason, now),
      decide: (store, acting, now, expected) => operator.flag(store, run, o.reason, acting, now, expected),
      after: `while flagged, \`taskspec status ${run}\` says blocked (needs-expert); clear it with: taskspec unflag ${run}`,
    });
  });
}
