/**
 * `taskspec check <files|dirs...> [--format text|json|github|sarif|junit] [--strict]`: compiles
 * each contract and prints its diagnostics. Exit 1 when any error (or, with
 * --strict, any warning) exists; 2 when a path cannot be read; 0 otherwise.
 */
import { compile, docsUrl } from "@taskspec/compiler";
import { filesBeside } from "@taskspec/compiler/node";
import { Option, type Command } from "commander";
import { relative } from "node:path";
import { docsBase } from "../docs.js";
import { configLookup } from "../io/config.js";
import { readContracts } from "../io/read-contracts.js";
import { colorFor, renderJson, renderText, summary, type FileResult } from "../render/diagnostics.js";
import { renderGithub } from "../render/github.js";
import { renderJunit, type JunitCase } from "../render/junit.js";
import { renderSarif } from "../render/sarif.js";
import { visible } from "../render/visible.js";
import { packageVersion } from "../version.js";
import { UserError } from "../user-error.js";

interface CheckOptions {
  format: "text" | "json" | "github" | "sarif" | "junit";
  strict?: boolean;
}

export function register(program: Command): void {
  program
    .command("check")
    .description("Check contracts (files, or directories searched for *.task.yaml) and print diagnostics.")
    .argument("<paths...>", "contract files or directories")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json", "github", "sarif", "junit"]).default("text"))
    .option("--strict", "treat warnings as errors (exit 1)")
    .action((paths: string[], options: CheckOptions) => {
      process.exitCode = runCheck(paths, options);
    });
}

export function runCheck(paths: string[], options: CheckOptions): number {
  const { files, problems } = readContracts(paths);
  const policyOf = configLookup();
  const results: FileResult[] = [];
  for (const { file, text, named } of files) {
    const policy = policyOf(file);
    if (policy.ignored) {
      // a file named on the command line is not dropped silently
      if (named)
        process.stderr.write(
          `taskspec: skipped '${visible(file)}': ignored by ${visible(relative(process.cwd(), policy.configPath ?? ""))}\n`,
        );
      continue;
    }
    const { diagnostics, suppressed } = compile(text, { files: filesBeside(file), rules: policy.rules });
    results.push({ file, text, diagnostics, suppressed });
  }
  const failing = (severity: string) => severity === "error" || (options.strict === true && severity === "warning");
  if (options.format === "json") process.stdout.write(renderJson(results));
  else if (options.format === "github") process.stdout.write(renderGithub(results));
  else if (options.format === "sarif") process.stdout.write(renderSarif(results, { version: packageVersion(), docsBase: docsBase() }));
  else if (options.format === "junit")
    process.stdout.write(
      renderJunit(
        "taskspec check",
        results.map((r) => junitCase(r, failing)),
      ),
    );
  else {
    for (const result of results) process.stdout.write(renderText(result, { color: colorFor(process.stdout) }));
    if (results.length > 0) process.stdout.write(summary(results));
  }
  if (problems.length > 0) throw new UserError(problems.join("\ntaskspec: "), 2);
  return results.some((r) => r.diagnostics.some((d) => failing(d.severity))) ? 1 : 0;
}

function junitCase(r: FileResult, failing: (severity: string) => boolean): JunitCase {
  const bad = r.diagnostics.filter((d) => failing(d.severity));
  if (bad.length === 0) return { name: r.file, classname: "taskspec.check" };
  const lines = r.diagnostics.map(
    (d) => `${r.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code}: ${d.message} (${docsUrl(d.code)})`,
  );
  return {
    name: r.file,
    classname: "taskspec.check",
    failure: {
      message: `${bad.length} failing diagnostic${bad.length === 1 ? "" : "s"}: ${[...new Set(bad.map((d) => d.code))].join(", ")}`,
      type: bad[0]!.code,
      text: lines.join("\n"),
    },
  };
}
