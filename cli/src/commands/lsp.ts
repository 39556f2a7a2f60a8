/**
 * `taskspec lsp --stdio`: starts the language server (the same code the VS Code
 * extension bundles) so any editor can use it. Nothing else happens here.
 */
import type { Command } from "commander";
import { listen } from "@taskspec/lsp";
import { UserError } from "../user-error.js";

export function register(program: Command): void {
  program
    .command("lsp")
    .description("Start the language server for *.task.yaml files (talks LSP over stdin/stdout)")
    .option("--stdio", "use stdin/stdout as the transport (the only one supported)")
    .action((options: { stdio?: boolean }) => {
      if (!options.stdio) throw new UserError("lsp: pass --stdio (the server talks LSP over stdin/stdout)");
      listen();
    });
}
