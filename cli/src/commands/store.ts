/**
 * `taskspec store init-operator <name> --key-file <path>`: creates an
 * operator identity for the store. The key is written to the file (mode 0600,
 * never overwritten) and shown nowhere else; the store keeps only its sha256.
 * `taskspec approve --operator-key-file <path>` then approves as that name
 * without a resume token. The first identity of a store needs nothing; a later
 * one needs an existing operator's key (`--operator-key-file`).
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { operator } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { operatorKeyOf, OPERATOR_KEY_HELP, STORE_HELP, withStore } from "./run-support.js";
import { storeNow } from "./store-clock.js";

interface InitOperatorOptions {
  store?: string;
  keyFile: string;
  operatorKeyFile?: string;
}

export function register(program: Command): void {
  const store = program.command("store").description("Store administration: operator identities.");
  store
    .command("init-operator")
    .description(
      "Create an operator identity: a key (written to --key-file) whose hash the store keeps; the first one makes every operator action need a key.",
    )
    .argument("<name>", "the operator's name, recorded with every approval made with the key")
    .requiredOption("--key-file <path>", "where to write the new key (created with mode 0600; never overwritten)")
    .option("--operator-key-file <path>", `${OPERATOR_KEY_HELP}: an existing operator's, needed once the store has one`)
    .option("--store <url>", STORE_HELP)
    .action(async (name: string, o: InitOperatorOptions) => {
      const keyFile = o.operatorKeyFile ?? (process.env.TASKSPEC_OPERATOR_KEY_FILE || undefined);
      const byKey = keyFile !== undefined ? operatorKeyOf(keyFile) : undefined;
      const file = resolve(o.keyFile);
      await withStore(o.store, async (s) => {
        const { key } = await operator.initOperator(s, name, await storeNow(s), byKey);
        try {
          writeFileSync(file, `${key}\n`, { flag: "wx", mode: 0o600 });
        } catch (err) {
          // the identity exists but its key is lost: say so, and how to recover
          throw new UserError(
            `operator ${name} was created but its key could not be written to ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)}): ` +
              "the key is lost; create another identity with another name",
            2,
          );
        }
      });
      process.stdout.write(
        `operator ${name}: key written to ${file} (keep it secret; the store keeps only its sha256)\n` +
          `operator actions on this store (resolve, budget, rerun, cancel, approve without a token) need an operator key: add --operator-key-file ${o.keyFile}\n` +
          `approve with: taskspec approve <run> <unit> --operator-key-file ${o.keyFile}\n`,
      );
    });
}
