/**
 * The `taskspec` command: a thin adapter over compiler/ and runtime/. Each
 * subcommand lives in commands/<name>.ts and registers itself here. Exit codes:
 * 0 ok, 1 the input has errors (or a run did not finish), 2 bad usage or
 * unreadable files. User errors are printed as messages, never stack traces.
 */
import { Command, CommanderError } from "commander";
import { UserError } from "./user-error.js";
import { exitQuietlyOnBrokenPipe } from "./io/broken-pipe.js";
import { register as registerCheck } from "./commands/check.js";
import { register as registerCompile } from "./commands/compile.js";
import { register as registerLsp } from "./commands/lsp.js";
import { register as registerImpact } from "./commands/impact.js";
import { register as registerGraph } from "./commands/graph.js";
import { register as registerRun } from "./commands/run.js";
import { register as registerResume } from "./commands/resume.js";
import { register as registerStatus } from "./commands/status.js";
import { register as registerApprove } from "./commands/approve.js";
import { register as registerRerun } from "./commands/rerun.js";
import { register as registerBudget } from "./commands/budget.js";
import { register as registerCancel } from "./commands/cancel.js";
import { register as registerHandoff } from "./commands/handoff.js";
import { register as registerResolve } from "./commands/resolve.js";
import { register as registerDrill } from "./commands/drill.js";
import { register as registerWorker } from "./commands/worker.js";

type Register = (program: Command) => void;

const commands: Register[] = [registerCheck, registerCompile, registerLsp, registerImpact, registerGraph, registerRun, registerResume, registerStatus, registerApprove, registerRerun, registerBudget, registerCancel, registerHandoff, registerResolve, registerDrill, registerWorker];

export async function main(argv: string[]): Promise<number> {
  exitQuietlyOnBrokenPipe();
  const program = new Command("taskspec")
    .description("Task contracts for long-running agent tasks: check, compile, impact, run, resume.")
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  for (const register of commands) register(program);
  try {
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
