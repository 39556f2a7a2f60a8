/**
 * `taskspec check <files|dirs|globs...> [--format text|json|github|sarif|junit] [--strict] [-o file] [--color when]`: compiles
 * each contract and prints its diagnostics. Exit 1 when any error (or, with
 * --strict, any warning) exists; 2 when a path cannot be read; 0 otherwise.
 */
import { checkContract, docsUrl, keepAcrossCompiles } from "@taskspec/compiler";
import { mcpLockBeside, filesBeside } from "@taskspec/compiler/node";
import { Option, type Command } from "commander";
import { relative } from "node:path";
import { docsBase } from "../docs.js";
import { configLookup } from "../io/config.js";
import { readContracts } from "../io/read-contracts.js";
import { colorFor, renderJson, renderText, summary, type ColorWhen, type FileResult } from "../render/diagnostics.js";
import { openOutput } from "../io/write-output.js";
import { colorOption, outputOption } from "./output-options.js";
import { renderGithub } from "../render/github.js";
import { renderJunit, type JunitCase } from "../render/junit.js";
import { renderSarif } from "../render/sarif.js";
import { visible } from "../render/visible.js";
import { packageVersion } from "../version.js";
import { UserError } from "../user-error.js";

interface CheckOptions {
  format: "text" | "json" | "github" | "sarif" | "junit";
  strict?: boolean;
  output?: string;
  color?: ColorWhen;
}

export function register(program: Command): void {
  program
    .command("check")
    .description("Check contracts (files, directories searched for *.task.yaml and *.task.yml, or quoted globs) and print diagnostics.")
    .argument("<paths...>", "contract files, directories or glob patterns ('specs/**/*.task.yaml'); - is standard input")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json", "github", "sarif", "junit"]).default("text"))
    .option("--strict", "treat warnings as errors (exit 1)")
    .addOption(outputOption("the report"))
    .addOption(colorOption())
    .action((paths: string[], options: CheckOptions) => {
      keepAcrossCompiles(false);
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
    // every diagnostic, without building the plan (a third of a compile, and nothing `check` prints)
    const { diagnostics, suppressed } = checkContract(text, {
      files: filesBeside(file),
      mcp: () => mcpLockBeside(file),
      rules: policy.rules,
    });
    results.push({ file, text, diagnostics, suppressed });
  }
  const failing = (severity: string) => severity === "error" || (options.strict === true && severity === "warning");
  const out = openOutput(options.output);
  if (options.format === "json") out.write(renderJson(results));
  else if (options.format === "github") out.write(renderGithub(results));
  else if (options.format === "sarif") out.write(renderSarif(results, { version: packageVersion(), docsBase: docsBase() }));
  else if (options.format === "junit")
    out.write(
      renderJunit(
        "taskspec check",
        results.map((r) => junitCase(r, failing)),
      ),
    );
  else {
    const color = colorFor(!out.toFile && process.stdout, options.color);
    for (const result of results) out.write(renderText(result, { color }));
    if (results.length > 0) out.write(summary(results));
  }
  out.end();
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
