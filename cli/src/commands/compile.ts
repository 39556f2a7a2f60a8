/**
 * `taskspec compile <file> [-o plan.json]`: compiles one contract and writes
 * its plan (JSON) to the file or to stdout. Diagnostics go to stderr; exit 1
 * when there is an error (no plan is written), 2 when the file is unreadable.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { compile } from "@taskspec/compiler";
import type { Command } from "commander";
import { describeIoError } from "../io/read-contracts.js";
import { renderText } from "../render/diagnostics.js";
import { UserError } from "../user-error.js";

export function register(program: Command): void {
  program
    .command("compile")
    .description("Compile a contract to its runtime plan (JSON).")
    .argument("<file>", "contract file")
    .option("-o, --output <plan.json>", "write the plan to this file instead of stdout")
    .action((file: string, options: { output?: string }) => {
      process.exitCode = runCompile(file, options.output);
    });
}

export function runCompile(file: string, output: string | undefined): number {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new UserError(describeIoError(file, err), 2);
  }
  const { plan, diagnostics } = compile(text);
  process.stderr.write(renderText({ file, text, diagnostics }, { color: process.stderr.isTTY === true && !process.env.NO_COLOR }));
  if (!plan) return 1;
  const json = `${JSON.stringify(plan, null, 2)}\n`;
  if (output === undefined) process.stdout.write(json);
  else {
    try {
      writeFileSync(output, json);
    } catch (err) {
      throw new UserError(describeIoError(output, err).replace("cannot read", "cannot write"), 2);
    }
  }
  return 0;
}
