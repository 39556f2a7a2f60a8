/**
 * Where a command puts the document it makes (`-o/--output` on check,
 * compile, impact and graph): the file, or stdout without -o. A file is
 * written as the command goes (impact streams large reports) and closed at
 * the end; a path that cannot be written is a usage error (exit 2).
 */
import { closeSync, openSync, writeSync } from "node:fs";
import { UserError } from "../user-error.js";
import { describeIoError } from "./read-contracts.js";

export interface Output {
  write(text: string): void;
  /** Closes the file (nothing for stdout). */
  end(): void;
  /** True when this goes to a file: colour is then off unless --color always. */
  toFile: boolean;
}

export function openOutput(output: string | undefined): Output {
  if (output === undefined) return { write: (text) => void process.stdout.write(text), end: () => undefined, toFile: false };
  const refuse = (err: unknown) => new UserError(describeIoError(output, err).replace("cannot read", "cannot write"), 2);
  let fd: number;
  try {
    fd = openSync(output, "w");
  } catch (err) {
    throw refuse(err);
  }
  return {
    write(text) {
      try {
        writeSync(fd, text);
      } catch (err) {
        throw refuse(err);
      }
    },
    end: () => closeSync(fd),
    toFile: true,
  };
}

/** The whole document at once. */
export function writeOutput(output: string | undefined, text: string): void {
  const out = openOutput(output);
  out.write(text);
  out.end();
}
