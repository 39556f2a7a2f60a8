/**
 * The `taskspec` command: a thin adapter over compiler/ and runtime/. Each
 * subcommand lives in commands/<name>.ts and registers itself here. Exit codes:
 * 0 ok, 1 the input has errors (or a run did not finish), 2 bad usage or
 * unreadable files. User errors are printed as messages, never stack traces.
 *
 * Commands are loaded lazily: only the module of the command being run is
 * imported (so `check` never loads the runtime, SQLite, pg or the language
 * server). Help and unknown commands load them all, so the listing is whole.
 */
import { Command, CommanderError } from "commander";
import { UserError } from "./user-error.js";
import { exitQuietlyOnBrokenPipe } from "./io/broken-pipe.js";
import { useCliDocs } from "./docs.js";
import { packageVersion } from "./version.js";

type Register = (program: Command) => void;
type CommandModule = { register: Register };

/** Every subcommand by name, in help order; each loader imports only that command's module. */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<CommandModule>]> = [
  ["check", () => import("./commands/check.js")],
  ["compile", () => import("./commands/compile.js")],
  ["lsp", () => import("./commands/lsp.js")],
  ["impact", () => import("./commands/impact.js")],
  ["graph", () => import("./commands/graph.js")],
  ["run", () => import("./commands/run.js")],
  ["resume", () => import("./commands/resume.js")],
  ["status", () => import("./commands/status.js")],
  ["runs", () => import("./commands/runs.js")],
  ["show", () => import("./commands/show.js")],
  ["events", () => import("./commands/events.js")],
  ["approve", () => import("./commands/approve.js")],
  ["rerun", () => import("./commands/rerun.js")],
  ["branch", () => import("./commands/branch.js")],
  ["narrow", () => import("./commands/narrow.js")],
  ["budget", () => import("./commands/budget.js")],
  ["cancel", () => import("./commands/cancel.js")],
  ["flag", () => import("./commands/flag.js")],
  ["unflag", () => import("./commands/unflag.js")],
  ["handoff", () => import("./commands/handoff.js")],
  ["import", () => import("./commands/import.js")],
  ["resolve", () => import("./commands/resolve.js")],
  ["ui", () => import("./commands/ui.js")],
  ["drill", () => import("./commands/drill.js")],
  ["submit", () => import("./commands/submit.js")],
  ["worker", () => import("./commands/worker.js")],
  ["workers", () => import("./commands/workers.js")],
  ["store", () => import("./commands/store.js")],
  ["gc", () => import("./commands/gc.js")],
  ["init", () => import("./commands/init.js")],
  ["mcp", () => import("./commands/mcp.js")],
  ["explain", () => import("./commands/explain.js")],
];

/** The modules to load for argv: the named command's alone, or all of them (help, unknown names). */
function loadersFor(argv: string[]): Array<() => Promise<CommandModule>> {
  const name = argv.find((a) => !a.startsWith("-"));
  const named = COMMANDS.find(([n]) => n === name);
  return named ? [named[1]] : COMMANDS.map(([, load]) => load);
}

export async function main(argv: string[]): Promise<number> {
  exitQuietlyOnBrokenPipe();
  useCliDocs();
  const program = new Command("taskspec")
    .description("Task contracts for long-running agent tasks: check, compile, impact, run, resume.")
    .version(packageVersion(), "-V, --version", "print the taskspec version")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  try {
    for (const load of loadersFor(argv)) (await load()).register(program);
    await program.parseAsync(argv, { from: "user" });
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof UserError) {
      process.stderr.write(`taskspec: ${err.message}\n`);
      return err.exitCode;
    }
    process.stderr.write(`taskspec: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 70;
  }
}
