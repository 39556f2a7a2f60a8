/**
 * `taskspec approve <run> <unit> [--token T] [--expires 24h] [--scope s]`:
 * grants an approval bound to the run, the gate, the current plan version and
 * the hashes of the gate's input artifacts. A resume token, when given, is
 * consumed (single use). Prints the preview, then records the decision.
 */
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { printPreview } from "./operator-print.js";
import { operatorName, parseDuration, STORE_HELP, withStore } from "./run-support.js";

interface ApproveOptions {
  store?: string;
  token?: string;
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
    .option("--token <token>", "resume token issued when the run blocked at the gate (consumed)")
    .option("--expires <duration>", "how long the approval holds", "24h")
    .option("--scope <scope>", "unit (default) or tool:<name>[,tool:<name>]")
    .option("--by <name>", "who approves (default $USER)")
    .option("--dry-run", "print what it would release, record nothing")
    .action(async (run: string, unit: string, o: ApproveOptions) => {
      // options first: a bad one is a usage error whatever the store holds
      const expiresInMs = parseDuration(o.expires, "--expires", 3650 * 86_400_000);
      await withStore(o.store, async (store) => {
        const preview = await operator.previewApprove(store, run, unit);
        if (o.dryRun) return printPreview(preview, false);
        const a = await operator.approve(store, {
          run,
          unit,
          by: operatorName(o.by),
          expiresInMs,
          now: new Date().toISOString(),
          ...(o.token ? { token: o.token } : {}),
          ...(o.scope ? { scope: o.scope } : {}),
        });
        printPreview(preview, true);
        process.stdout.write(`approved ${unit} of ${run}: ${a.id}, plan ${a.planVersion}, scope ${a.scope}, until ${a.expiresAt}\n`);
      });
    });
}
