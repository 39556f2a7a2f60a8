/**
 * `taskspec graph <file> [--format mermaid|dot|svg] [--change ...] [-o file]`:
 * the unit graph grouped by phase, edges styled by kind; with changes, the
 * invalidated units and their explanation edges highlighted. SVG is laid out
 * by Graphviz (WebAssembly build). Exit codes as for `impact`.
 */
import { impact, toDot, toMermaid, type ImpactReport } from "@taskspec/compiler";
import { renderSvg } from "@taskspec/compiler/svg";
import { Option, type Command } from "commander";
import { writeOutput } from "../io/write-output.js";
import type { ColorWhen } from "../render/diagnostics.js";
import { colorOption, outputOption } from "./output-options.js";
import { changeOption, loadPlan, parseChanges, reportUnmatched } from "./impact.js";

interface GraphOptions {
  format: "mermaid" | "dot" | "svg";
  change?: string[];
  output?: string;
  color: ColorWhen;
}

export function register(program: Command): void {
  program
    .command("graph")
    .description("Draw the unit graph (Mermaid, DOT or SVG), highlighting what the given changes invalidate.")
    .argument("<file>", "contract file")
    .addOption(new Option("--format <format>", "output format").choices(["mermaid", "dot", "svg"]).default("mermaid"))
    .addOption(changeOption())
    .addOption(outputOption("the graph"))
    .addOption(colorOption())
    .action(async (file: string, options: GraphOptions) => {
      process.exitCode = await runGraph(file, options);
    });
}

async function runGraph(file: string, options: GraphOptions): Promise<number> {
  const changes = parseChanges(options.change ?? []);
  const plan = loadPlan(file, options.color);
  if (!plan) return 1;
  let report: ImpactReport | undefined;
  if (changes.length > 0) {
    report = impact(plan, changes);
    const status = reportUnmatched(report);
    if (status !== 0) return status;
  }
  const text =
    options.format === "mermaid"
      ? toMermaid(plan, report)
      : options.format === "dot"
        ? toDot(plan, report)
        : await renderSvg(toDot(plan, report));
  writeOutput(options.output, text);
  return 0;
}
