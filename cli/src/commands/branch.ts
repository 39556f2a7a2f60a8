/**
 * `taskspec branch <run>`: a new run (`<run>.b<n>`, or `--as`) that reuses
 * every committed result of the run still valid and diverges from there;
 * the original run stays as it was. `--at EVENT` branches from an earlier
 * point of its event log; `--dry-run` prints the preview and its basis;
 * `--if-preview <basis>` refuses the decision when the run has moved past it.
 */
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { decideOnPreview, PREVIEW_OPTIONS, type PreviewOptions } from "./preview-decision.js";
import { OPERATOR_KEY_HELP, STORE_HELP } from "./run-support.js";

type BranchFlags = PreviewOptions & { fromBaseline?: boolean; at?: string; as?: string; reason?: string };

export function register(program: Command): void {
  const cmd = program
    .command("branch")
    .description("Start a new run from a run's valid committed results (a recorded decision); the original run is left as it was.")
    .argument("<run>", "run id")
    .option("--from-baseline", "reuse the run's latest baseline (the default)")
    .option("--at <event>", "branch from this event number of the run (`taskspec events`): results committed later run again")
    .option("--as <run>", "the new run's id (default: <run>.b<n>, the next branch number)")
    .option("--reason <text>", "why (recorded with the decision)")
    .option("--store <url>", STORE_HELP)
    .option("--by <name>", "who decides (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP);
  PREVIEW_OPTIONS(cmd).action(async (run: string, o: BranchFlags) => {
    const opts = branchOptions(o);
    await decideOnPreview(o, {
      preview: (store) => operator.previewBranch(store, run, opts),
      decide: (store, acting, now, expected) => operator.branch(store, run, opts, acting, now, o.reason, expected),
    });
  });
}

function branchOptions(o: BranchFlags): operator.BranchOptions {
  if (o.fromBaseline && o.at !== undefined) throw new UserError("give --from-baseline or --at EVENT, not both", 2);
  let at: number | undefined;
  if (o.at !== undefined) {
    at = Number(o.at);
    if (!/^\d+$/.test(o.at) || !Number.isSafeInteger(at))
      throw new UserError(`--at takes an event number (taskspec events), not ${JSON.stringify(o.at)}`, 2);
  }
  return { ...(at !== undefined ? { at } : {}), ...(o.as !== undefined ? { as: o.as } : {}) };
}
