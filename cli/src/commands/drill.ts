/**
 * `taskspec drill <contract> --handlers <module> [--tools <module>] [--world <module>]
 * [--format text|json]`: runs the contract against the handlers in sandbox
 * stores, once uninterrupted and then once per applicable crash point (each
 * worker really SIGKILLed, each resume a fresh process), and prints one row
 * per case. Exit 0 when every case passes, 1 when any fails (a duplicated
 * effect, an adopted orphan, re-run committed work, a wrong final world, an
 * unexplained decision), 2 on bad usage.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Option, type Command } from "commander";
import { drill, loadToolsModule } from "@taskspec/runtime";
import { renderJunit, type JunitCase } from "../render/junit.js";
import { UserError } from "../user-error.js";
import { collect, loadPlanToRun, loadVerifiers, parseCount, parseDuration, VERIFIERS_HELP } from "./run-support.js";

interface DrillOptions {
  handlers: string;
  tools?: string;
  verifiers?: string;
  world?: string;
  format: "text" | "json" | "junit";
  parallel: string;
  repeat: string;
  only?: string[];
  workDir?: string;
  keep?: boolean;
  caseTimeout: string;
}

export function register(program: Command): void {
  program
    .command("drill")
    .description("Crash the contract's run at every applicable crash point (real processes, sandbox stores) and check each recovery.")
    .argument("<contract>", "contract file (*.task.yaml)")
    .requiredOption("--handlers <module>", "handler module (default export: { units, tools, inputs? }, or { units } with --tools)")
    .option("--tools <module>", "tools module (default export: { tools, inputs? }), the split layout of run/resume/worker")
    .option("--verifiers <module>", VERIFIERS_HELP)
    .option(
      "--world <module>",
      "drill world module: starts the services the handlers talk to, per case, and reports what happened there (see docs/operator.md)",
    )
    .addOption(new Option("--format <format>", "output format").choices(["text", "json", "junit"]).default("text"))
    .option("--parallel <n>", "cases run at once", "2")
    .option("--repeat <k>", "run each case k times with different timing seeds; a case passes only if all k pass (pass^k)", "1")
    .option("--only <text>", "only cases whose id contains this; repeatable", collect)
    .option("--work-dir <dir>", "where the sandboxes go (default /dev/shm when present, else the temp dir)")
    .option("--keep", "keep each case's sandbox (store, artifacts, service data) for inspection")
    .option("--case-timeout <duration>", "a case (or the uninterrupted run) that takes longer fails and its processes are killed", "10m")
    .action(async (contract: string, o: DrillOptions) => {
      process.exitCode = await drillCommand(contract, o);
    });
}

/** A tools module that would not load is refused once, here, with exit 2, not in every case's worker. */
async function checkToolsModule(tools: string, handlers: string): Promise<void> {
  try {
    await loadToolsModule(tools, handlers);
  } catch (err) {
    throw new UserError(err instanceof Error ? err.message : String(err), 2);
  }
}

async function loadWorld(path: string): Promise<drill.DrillWorld> {
  let mod: { default?: drill.DrillWorld };
  try {
    mod = (await import(pathToFileURL(resolve(path)).href)) as { default?: drill.DrillWorld };
  } catch (err) {
    throw new UserError(`cannot load drill world ${path}: ${err instanceof Error ? err.message : String(err)}`, 2);
  }
  if (typeof mod.default?.start !== "function")
    throw new UserError(`${path} does not export a drill world ({ start(dir) }) as its default export`, 2);
  return mod.default;
}

async function drillCommand(contract: string, o: DrillOptions): Promise<number> {
  const plan = loadPlanToRun(contract);
  const parallel = parseCount(o.parallel, "--parallel", 64);
  const repeat = parseCount(o.repeat, "--repeat", 10_000);
  const caseTimeoutMs = parseDuration(o.caseTimeout, "--case-timeout");
  await loadVerifiers(plan, o.verifiers, o.handlers); // refused here, once, rather than in every case's worker
  if (o.tools) await checkToolsModule(o.tools, o.handlers);
  const world = o.world ? await loadWorld(o.world) : undefined;
  if (!world)
    process.stderr.write(
      "taskspec: no --world given: effects cannot be counted at a remote; store, invocations and orphans are still checked\n",
    );
  let report: drill.DrillReport;
  try {
    report = await drill.runDrill({
      contract,
      plan,
      handlers: o.handlers,
      ...(o.tools ? { tools: o.tools } : {}),
      ...(o.verifiers ? { verifiers: o.verifiers } : {}),
      ...(world ? { world } : {}),
      parallel,
      repeat,
      caseTimeoutMs,
      ...(o.only ? { only: o.only } : {}),
      ...(o.workDir ? { workDir: o.workDir } : {}),
      ...(o.keep ? { keep: true } : {}),
      onCase: (r) => process.stderr.write(`[drill] ${drill.verdictCell(r)} ${r.case.id} (${(r.ms / 1000).toFixed(1)} s)\n`),
    });
  } catch (err) {
    throw new UserError(err instanceof Error ? err.message : String(err), 1);
  }
  if (report.results.length === 0) throw new UserError(`no case matches ${JSON.stringify(o.only)}`, 2);
  if (o.format === "json") process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (o.format === "junit") process.stdout.write(renderJunit("taskspec drill", report.results.map(junitCase)));
  else {
    process.stdout.write(`${drill.textTable(report.results)}\n\n`);
    for (const line of drill.failureNotes(report.results)) process.stdout.write(`${line}\n`);
    process.stdout.write(`${drill.summaryLine(report.results)}\n`);
  }
  return report.results.every((r) => r.verdict === "PASS") ? 0 : 1;
}

function junitCase(r: drill.DrillReport["results"][number]): JunitCase {
  const base = { name: r.case.id, classname: "taskspec.drill", timeSeconds: r.ms / 1000 };
  return r.verdict === "PASS"
    ? base
    : { ...base, failure: { message: r.reasons.join("; ") || r.verdict, type: r.verdict, text: r.reasons.join("\n") } };
}
