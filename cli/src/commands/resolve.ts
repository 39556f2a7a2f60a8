/**
 * `taskspec resolve <run> <effect> --committed [--remote-id X] | --absent`:
 * a person's verdict on an UNKNOWN effect that lookups could not settle
 * (irreversible, or no lookup). Recorded as a decision; lifts the unit's block.
 */
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { OPERATOR_KEY_HELP, operatorActing, STORE_HELP, withStore } from "./run-support.js";
import { storeNow } from "./store-clock.js";

export function register(program: Command): void {
  program
    .command("resolve")
    .description("Settle an UNKNOWN effect after checking the remote by hand.")
    .argument("<run>", "run id")
    .argument("<effect>", "effect id (see `taskspec status`)")
    .option("--committed", "the effect happened at the remote")
    .option("--absent", "the effect did not happen (a retry is allowed)")
    .option("--remote-id <id>", "remote object id, with --committed")
    .option("--store <url>", STORE_HELP)
    .option("--by <name>", "who decides (default $USER; with an operator key, the identity's name)")
    .option("--operator-key-file <path>", OPERATOR_KEY_HELP)
    .action(
      async (
        run: string,
        effect: string,
        o: { committed?: boolean; absent?: boolean; remoteId?: string; store?: string; by?: string; operatorKeyFile?: string },
      ) => {
        if (Boolean(o.committed) === Boolean(o.absent)) throw new UserError("say exactly one of --committed or --absent", 2);
        const acting = operatorActing(o);
        await withStore(o.store, async (store) => {
          await operator.resolveEffect(store, run, effect, o.committed ? "committed" : "absent", acting, await storeNow(store), o.remoteId);
          process.stdout.write(
            `decision: effect ${effect} of ${run} recorded as ${o.committed ? "COMMITTED" : "absent (FAILED)"}; next: taskspec resume ${run}\n`,
          );
        });
      },
    );
}
