/** Where `compile -o` and `graph -o` put what they make: the file, or stdout without -o. */
import { writeFileSync } from "node:fs";
import { UserError } from "../user-error.js";
import { describeIoError } from "./read-contracts.js";

export function writeOutput(output: string | undefined, text: string): void {
  if (output === undefined) {
    process.stdout.write(text);
    return;
  }
  try {
    writeFileSync(output, text);
  } catch (err) {
    throw new UserError(describeIoError(output, err).replace("cannot read", "cannot write"), 2);
  }
}
