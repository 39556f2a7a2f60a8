/**
 * `taskspec lsp --stdio`: starts the language server (the same code the VS Code
 * extension bundles) so any editor can use it. Nothing else happens here.
 *
 * The server's heap keeper (lsp/src/adapters/heap.ts) needs V8's collector,
 * which only a process started with `--expose-gc` has, and turning the flag
 * on at run time may crash V8. So when this process lacks it, the command
 * runs the server in a child started with the flag, on the same stdin,
 * stdout and stderr, and exits with the child's code. TASKSPEC_LSP_GC=0
 * skips that: the server then runs here and leaves the heap to V8.
 */
import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Command } from "commander";
import { listen } from "@taskspec/lsp";
import { UserError } from "../user-error.js";

export function register(program: Command): void {
  program
    .command("lsp")
    .description("Start the language server for *.task.yaml files (talks LSP over stdin/stdout)")
    .option("--stdio", "use stdin/stdout as the transport (the only one supported)")
    .action(async (options: { stdio?: boolean }) => {
      if (!options.stdio) throw new UserError("lsp: pass --stdio (the server talks LSP over stdin/stdout)");
      const hasGc = typeof (globalThis as { gc?: unknown }).gc === "function";
      if (hasGc || process.env.TASKSPEC_LSP_GC === "0" || !process.argv[1]) listen();
      else process.exitCode = await relaunchWithGc(process.argv[1]);
    });
}

/** The server in a child started with --expose-gc; resolves with its exit code. */
function relaunchWithGc(script: string): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, "--expose-gc", script, "lsp", "--stdio"], { stdio: "inherit" });
  // the editor stops the server by signal as often as by `exit`: pass it on
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, forward);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
}
