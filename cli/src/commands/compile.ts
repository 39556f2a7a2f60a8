/**
 * `taskspec compile <file> [-o plan.json]`: compiles one contract and writes
 * its plan (JSON) to the file or to stdout. Diagnostics go to stderr; exit 1
 * when there is an error (no plan is written), 2 when the file is unreadable.
 */
import { keepAcrossCompiles } from "@taskspec/compiler";
import { mcpLockBeside, filesBeside } from "@taskspec/compiler/node";
import type { Command } from "commander";
import { compilePlan } from "../io/compile-plan.js";
import { readContractFile } from "../io/read-contracts.js";
import { writePlanJson } from "../io/plan-json.js";
import { openOutput } from "../io/write-output.js";
import { colorFor, renderText, type ColorWhen } from "../render/diagnostics.js";
import { colorOption, outputOption } from "./output-options.js";
import { configLookup } from "../io/config.js";

export function register(program: Command): void {
  program
    .command("compile")
    .description("Compile a contract to its runtime plan (JSON).")
    .argument("<file>", "contract file")
    .addOption(outputOption("the plan"))
    .addOption(colorOption())
    .action((file: string, options: { output?: string; color: ColorWhen }) => {
      keepAcrossCompiles(false);
      process.exitCode = runCompile(file, options.output, options.color);
    });
}

export function runCompile(file: string, output: string | undefined, color: ColorWhen = "auto"): number {
  const text = readContractFile(file);
  const { plan, diagnostics } = compilePlan(text, {
    files: filesBeside(file),
    mcp: () => mcpLockBeside(file),
    rules: configLookup()(file).rules,
  });
  process.stderr.write(renderText({ file, text, diagnostics }, { color: colorFor(process.stderr, color) }));
  if (!plan) return 1;
  const out = openOutput(output);
  writePlanJson(plan, out);
  out.end();
  return 0;
}
