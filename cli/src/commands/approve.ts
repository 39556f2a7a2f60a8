/**
 * `taskspec approve <run> <unit> (--token T | --operator-key-file F) [--expires 24h] [--scope s]`:
 * grants an approval bound to the run, the gate, the current plan version and
 * the hashes of the gate's input artifacts. It needs authority: the gate's
 * resume token (consumed, single use; a token of another run or gate is
 * refused and stays valid), or an operator key the store knows (`taskspec
 * store init-operator`), whose name the approval records. Prints the preview,
 * then records the decision.
 */
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { printPreview } from "./operator-print.js";
import { UserError } from "../user-error.js";
import { OPERATOR_KEY_HELP, operatorKeyOf, operatorName, parseDuration, STORE_HELP, withStore } from "./run-support.js";
import { storeNow } from "./store-clock.js";

interface ApproveOptions {
  store?: string;
  token?: string;
  operatorKeyFile?: string;
  expires: string;
  scope?: string;
  by?: string;
  dryRun?: boolean;
}

export function register(program: Command): void {
  program
    .command("approve")
    .description("Approve a gate for this plan version and the gate's current input artifacts (then `taskspec resume`).")
    .argument("<run>", "run id")
    .argument("<unit>", "gate unit")
    .option("--store <url>", STORE_HELP)
    .option("--token <token>", "resume token issued when the run blocked at the gate (consumed); or in $TASKSPEC_RESUME_TOKEN, out of `ps`")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP)
    .option("--expires <duration>", "how long the approval holds", "24h")
    .option("--scope <scope>", "unit (default) or tool:<name>[,tool:<name>]")
    .option("--by <name>", "who approves, with --token (default $USER); with an operator key, the identity's name")
    .option(
      "--dry-run",
      "print what it would release (at a gate in front of an irreversible call: exactly what will be sent), record nothing",
    )
    .action(async (run: string, unit: string, o: ApproveOptions) => {
      // options first: a bad one is a usage error whatever the store holds
      const expiresInMs = parseDuration(o.expires, "--expires", 3650 * 86_400_000);
      const keyFile = o.operatorKeyFile ?? (process.env.TASKSPEC_OPERATOR_KEY_FILE || undefined);
      // a token on the command line is visible to every user of the machine (ps); an editor passes it in the environment
      const token = o.token ?? (process.env.TASKSPEC_RESUME_TOKEN || undefined);
      if (token !== undefined && o.operatorKeyFile !== undefined) throw new UserError("give --token or --operator-key-file, not both", 2);
      const operatorKey = token === undefined && keyFile !== undefined ? operatorKeyOf(keyFile) : undefined;
      if (!o.dryRun && token === undefined && operatorKey === undefined)
        throw new UserError(
          `approving ${run}/${unit} needs the gate's resume token (--token, printed when the run blocked at the gate) ` +
            "or an operator key this store knows (--operator-key-file; `taskspec store init-operator` makes one); nothing was approved",
          2,
        );
      await withStore(o.store, async (store) => {
        const preview = await operator.previewApprove(store, run, unit);
        const now = await storeNow(store);
        const bind = { scope: o.scope ?? "unit", expiresAt: new Date(Date.parse(now) + expiresInMs).toISOString() };
        if (o.dryRun) return printPreview(preview, false, bind);
        const a = await operator.approve(store, {
          run,
          unit,
          by: operatorName(o.by),
          expiresInMs,
          now,
          ...(token !== undefined ? { token } : {}),
          ...(operatorKey !== undefined ? { operatorKey } : {}),
          ...(o.scope ? { scope: o.scope } : {}),
        });
        printPreview(preview, true, { scope: a.scope, expiresAt: a.expiresAt });
        process.stdout.write(
          `approved ${unit} of ${run}: ${a.id} by ${a.grantedBy}, plan ${a.planVersion}, scope ${a.scope}, until ${a.expiresAt}` +
            (a.binding ? `, bound to request sha256 ${a.binding.requestHash} (effect ${a.binding.effect})` : "") +
            "\n",
        );
      });
    });
}
