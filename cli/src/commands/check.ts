/**
 * `taskspec check <files|dirs...> [--format text|json] [--strict]`: compiles
 * each contract and prints its diagnostics. Exit 1 when any error (or, with
 * --strict, any warning) exists; 2 when a path cannot be read; 0 otherwise.
 */
import { compile } from "@taskspec/compiler";
import { Option, type Command } from "commander";
import { readContracts } from "../io/read-contracts.js";
import { colorFor, renderJson, renderText, summary, type FileResult } from "../render/diagnostics.js";
import { renderGithub } from "../render/github.js";
import { UserError } from "../user-error.js";

interface CheckOptions {
  format: "text" | "json" | "github";
  strict?: boolean;
}

export function register(program: Command): void {
  program
    .command("check")
    .description("Check contracts (files, or directories searched for *.task.yaml) and print diagnostics.")
    .argument("<paths...>", "contract files or directories")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json", "github"]).default("text"))
    .option("--strict", "treat warnings as errors (exit 1)")
    .action((paths: string[], options: CheckOptions) => {
      process.exitCode = runCheck(paths, options);
    });
}

export function runCheck(paths: string[], options: CheckOptions): number {
  const { files, problems } = readContracts(paths);
  const results: FileResult[] = files.map(({ file, text }) => ({ file, text, diagnostics: compile(text).diagnostics }));
  if (options.format === "json") process.stdout.write(renderJson(results));
  else if (options.format === "github") process.stdout.write(renderGithub(results));
  else {
    for (const result of results) process.stdout.write(renderText(result, { color: colorFor(process.stdout) }));
    if (results.length > 0) process.stdout.write(summary(results));
  }
  if (problems.length > 0) throw new UserError(problems.join("\ntaskspec: "), 2);
  const failing = (severity: string) => severity === "error" || (options.strict === true && severity === "warning");
  return results.some((r) => r.diagnostics.some((d) => failing(d.severity))) ? 1 : 0;
}
