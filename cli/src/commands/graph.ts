/**
 * `taskspec graph <file> [--format mermaid|dot|svg] [--change ...] [-o file]`:
 * the unit graph grouped by phase, edges styled by kind; with changes, the
 * invalidated units and their explanation edges highlighted. SVG is laid out
 * by Graphviz (WebAssembly build). Exit codes as for `impact`.
 */
import { checkContract, impact, keepAcrossCompiles, toDot, toMermaid, type GraphView, type ImpactReport } from "@taskspec/compiler";
import { mcpLockBeside, filesBeside } from "@taskspec/compiler/node";
import { renderSvg } from "@taskspec/compiler/svg";
import { Option, type Command } from "commander";
import { configLookup } from "../io/config.js";
import { readContractFile } from "../io/read-contracts.js";
import { writeOutput } from "../io/write-output.js";
import { UserError } from "../user-error.js";
import { colorFor, renderText, type ColorWhen } from "../render/diagnostics.js";
import { colorOption, outputOption } from "./output-options.js";
import { changeOption, parseChanges, reportUnmatched } from "./impact.js";

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
      keepAcrossCompiles(false);
      process.exitCode = await runGraph(file, options);
    });
}

async function runGraph(file: string, options: GraphOptions): Promise<number> {
  const changes = parseChanges(options.change ?? []);
  const plan = loadGraph(file, options.color);
  if (!plan) return 1;
  let report: ImpactReport | undefined;
  if (changes.length > 0) {
    report = impact(plan, changes);
    const status = reportUnmatched(report);
    if (status !== 0) return status;
  }
  if (options.format === "svg") refuseLargeSvg(plan);
  const text =
    options.format === "mermaid"
      ? toMermaid(plan, report)
      : options.format === "dot"
        ? toDot(plan, report)
        : await renderSvg(toDot(plan, report));
  writeOutput(options.output, text);
  return 0;
}

/**
 * Reads and checks a contract, like `compileContractFile` (io/compile-plan.ts), but stops short of the plan:
 * a picture shows no definition or plan hash, and hashing every unit was most
 * of what a large graph cost.
 */
function loadGraph(file: string, color: ColorWhen): GraphView | undefined {
  const text = readContractFile(file);
  const { graphView, diagnostics } = checkContract(text, {
    files: filesBeside(file),
    mcp: () => mcpLockBeside(file),
    rules: configLookup()(file).rules,
  });
  if (!graphView) process.stderr.write(renderText({ file, text, diagnostics }, { color: colorFor(process.stderr, color) }));
  return graphView?.();
}

/**
 * The largest graph laid out as SVG. Graphviz's layout grows much faster
 * than the graph, with the edges most of all, and overflows inside Graphviz
 * on the largest contracts (timings: bench/RESULTS.md, "figures behind code
 * comments"). DOT and Mermaid have no such limit.
 */
export const SVG_LIMITS = { units: 2000, edges: 1000 };

function refuseLargeSvg(plan: GraphView): void {
  const units = plan.units.length;
  // one edge per need
  const edges = plan.edges.length;
  if (units <= SVG_LIMITS.units && edges <= SVG_LIMITS.edges) return;
  throw new UserError(
    `graph --format svg: the plan has ${units} units and ${edges} edges; SVG is laid out for at most ${SVG_LIMITS.units} units and ${SVG_LIMITS.edges} edges (Graphviz takes minutes on larger graphs). Use --format dot or --format mermaid.`,
    2,
  );
}
