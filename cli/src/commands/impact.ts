/**
 * `taskspec impact <file> --change <node>[:<kind>[,<kind>]] ... [--format text|json] [-o file]`:
 * what a change invalidates, one explanation path per unit. A unit's name
 * also previews a change of its handler's code; a tool's name, a change of
 * the tool adapter's code (the units it serves re-run).
 * `taskspec impact <old> <new>`: what an edit between two versions of a
 * contract invalidates (must re-run vs stays valid).
 * Exit 0 on an answer; 1 when a contract has errors or a change names no
 * known node or kind; 2 on bad usage or an unreadable file.
 */
import {
  boundedPath,
  causeJson,
  expandToolChanges,
  formatChange,
  formatEditImpact,
  formatImpact,
  impact,
  impactOfEdit,
  keepAcrossCompiles,
  parseChange,
  type ChangeInput,
  type CompileOptions,
  type Diagnostic,
  type ImpactReport,
  type InvalidatedUnit,
  PATH_HOPS,
} from "@taskspec/compiler";
import { Option, type Command } from "commander";
import {
  compileContractFile,
  compileContractResult,
  compilePlan,
  compileUnhashedPlan,
  compileUnhashedPlanForNext,
} from "../io/compile-plan.js";
import { colorFor, type ColorWhen } from "../render/diagnostics.js";
import { openOutput, type Output } from "../io/write-output.js";
import { colorOption, outputOption } from "./output-options.js";
import { UserError } from "../user-error.js";

interface ImpactOptions {
  change?: string[];
  format: "text" | "json";
  output?: string;
  color: ColorWhen;
}

export function register(program: Command): void {
  program
    .command("impact")
    .description("Show what a change invalidates and why, or what an edit between two contract versions invalidates.")
    .argument("<file>", "contract file (the old version when a second file is given)")
    .argument("[new]", "the new version of the contract: report what the edit invalidates")
    .addOption(changeOption())
    .addOption(new Option("--format <format>", "output format").choices(["text", "json"]).default("text"))
    .addOption(outputOption("the report"))
    .addOption(colorOption())
    .action((file: string, newFile: string | undefined, options: ImpactOptions) => {
      // one compile per text, except that the new version is compiled from the old one
      keepAcrossCompiles(newFile !== undefined);
      process.exitCode = newFile === undefined ? runImpact(file, options) : runEditImpact(file, newFile, options);
    });
}

/** `--change`, repeatable; shared with `taskspec graph`. */
export function changeOption(): Option {
  return new Option(
    "--change <node[:kind,...]>",
    "a change at a unit (or its handler code), an input or a tool adapter's code, in some edge kinds (none = all); repeatable",
  ).argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
}

function runImpact(file: string, options: ImpactOptions): number {
  if (!options.change) throw new UserError("say what changes: --change <node>[:<kind>[,<kind>]] (or give a second contract to compare)", 2);
  const plan = compileForImpact(compilePlan, file, options.color);
  if (!plan) return 1;
  // a tool's name stands for a change of its adapter's code: a change at every unit behind the tool
  const { changes, tools } = expandToolChanges(plan, parseChanges(options.change));
  const report = impact(plan, changes);
  const out = openOutput(options.output);
  if (options.format === "json") writeReportJson(tools.length > 0 ? { ...report, tools } : report, out);
  const status = reportUnmatched(report);
  // A partial answer with a typo'd change in it would mislead a reader; JSON keeps it, with `unmatched`.
  if (options.format === "text" && status === 0) {
    for (const t of tools)
      out.write(
        t.units.length > 0
          ? `tool adapter ${t.tool}: a change of its code re-runs the units it serves: ${t.units.join(", ")}\n`
          : `tool adapter ${t.tool}: no unit uses it; a change of its code re-runs nothing\n`,
      );
    out.write(formatImpact(plan, report));
  }
  out.end();
  return status;
}

function runEditImpact(oldFile: string, newFile: string, options: ImpactOptions): number {
  if (options.change) throw new UserError("give either --change or a second contract, not both", 2);
  const { oldPlan, newPlan } = compileVersions(oldFile, newFile, options.color);
  if (!oldPlan || !newPlan) return 1;
  const edit = impactOfEdit(oldPlan, newPlan);
  const out = openOutput(options.output);
  if (options.format === "json") {
    const { report, diff, mustRerun, staysValid } = edit;
    writeReportJson({ ...report, diff: { units: diff.units, inputs: diff.inputs, keys: diff.keys }, mustRerun, staysValid }, out);
  } else out.write(formatEditImpact(newPlan, edit));
  out.end();
  return 0;
}

/**
 * Both plans, without their hashes (a diff never reads them). The new
 * version is compiled from the old one's tree: definitions whose lines are
 * unchanged keep their nodes, and what the compiler worked out for them
 * (values, schema verdicts, definition hashes) is reused, with the same
 * diagnostics and plan. Nothing of the old parse outlives this function.
 */
function compileVersions(oldFile: string, newFile: string, color: ColorWhen) {
  const options = { color: colorFor(process.stderr, color), mcpLock: false };
  const { plan: oldPlan, reusable } = compileContractResult(compileUnhashedPlanForNext, oldFile, options);
  const newPlan = compileContractResult(compileUnhashedPlan, newFile, { ...options, ...(reusable ? { previous: reusable } : {}) }).plan;
  return { oldPlan, newPlan };
}

const HOLE = "\u0000hole";

/**
 * The report as indented JSON, written one invalidated unit at a time, each
 * cause tree on one line (causeJson). Nested and indented, a chain N units
 * deep would print on the order of N³ spaces, and JSON.stringify overflows
 * the stack on it. Paths and cause trees past PATH_HOPS are elided (their
 * whole length would add up to N²/2 hops: gigabytes on a 10,000-unit chain).
 */
function writeReportJson<R extends { invalidated: InvalidatedUnit[] }>(report: R, out: Output): void {
  const hole = JSON.stringify(HOLE);
  const [head, tail] = JSON.stringify({ ...report, invalidated: report.invalidated.length > 0 ? HOLE : [] }, null, 2).split(hole);
  out.write(head!);
  if (tail === undefined) {
    out.write("\n");
    return;
  }
  out.write("[");
  report.invalidated.forEach((unit, i) => {
    const item = JSON.stringify({ ...unit, path: boundedPath(unit.cause).path, cause: HOLE }, null, 2).replace(hole, () =>
      causeJson(unit.cause, PATH_HOPS),
    );
    out.write(`${i > 0 ? "," : ""}\n    ${item.replaceAll("\n", "\n    ")}`);
  });
  out.write(`\n  ]${tail}\n`);
}

/** Parses `--change` values; a malformed one is bad usage (exit 2). */
export function parseChanges(values: string[]): ChangeInput[] {
  return values.map((value) => {
    const parsed = parseChange(value);
    if (!parsed.ok) throw new UserError(`--change ${parsed.message}`, 2);
    return parsed.change;
  });
}

/** A preview reads the contract alone: what a change invalidates does not depend on the MCP lock. */
function compileForImpact<P>(
  compiler: (text: string, options: CompileOptions) => { plan?: P; diagnostics: Diagnostic[] },
  file: string,
  color: ColorWhen,
): P | undefined {
  return compileContractFile(compiler, file, { color: colorFor(process.stderr, color), mcpLock: false });
}

/** A change naming no known node or kind is an error (exit 1), never an empty answer. */
export function reportUnmatched(report: ImpactReport): number {
  const errors = report.unmatched.filter((u) => u.code !== "no-matching-edge");
  for (const u of errors) process.stderr.write(`taskspec: error: --change ${formatChange(u.change)}: ${u.reason}\n`);
  return errors.length > 0 ? 1 : 0;
}
