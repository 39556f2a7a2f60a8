/**
 * Starts the bundled language server (out/server.js, lsp's entry point) and
 * connects it to VS Code. Two client-side behaviours live in the middleware:
 * the `taskspec.codeLens.enabled` setting, and showing the answer of the code
 * lens command (the server implements `taskspec.showImpact`; the client
 * renders what it returns).
 */
import * as vscode from "vscode";
import {
  CodeLensRequest,
  LanguageClient,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import { Methods, type ImpactResult, type ShowImpactArgument } from "./protocol.js";

export const LANGUAGE_ID = "taskspec";

export interface ClientHooks {
  /** Called with the server's answer when a code lens is clicked. */
  onShowImpact(argument: ShowImpactArgument, result: ImpactResult): Promise<void>;
}

export function lensesEnabled(): boolean {
  return vscode.workspace.getConfiguration("taskspec").get<boolean>("codeLens.enabled", true);
}

export function createClient(context: vscode.ExtensionContext, hooks: ClientHooks): LanguageClient {
  const module = context.asAbsolutePath("out/server.js");
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.stdio },
    debug: { module, transport: TransportKind.stdio, options: { execArgv: ["--inspect=6010"] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: LANGUAGE_ID }],
    synchronize: {
      // Closed contracts stay checked: the server re-reads them when they change on disk.
      fileEvents: vscode.workspace.createFileSystemWatcher("**/*.task.yaml"),
    },
    middleware: {
      provideCodeLenses: (document, token, next) => (lensesEnabled() ? next(document, token) : []),
      executeCommand: async (command, args, next) => {
        const result: unknown = await next(command, args);
        const argument = args[0] as ShowImpactArgument | undefined;
        if (command === Methods.showImpactCommand && argument && isImpactResult(result)) {
          await hooks.onShowImpact(argument, result);
        }
        return result;
      },
    },
  };
  // The id "taskspec" makes the client read `taskspec.trace.server`.
  return new LanguageClient(LANGUAGE_ID, "Taskspec Language Server", serverOptions, clientOptions);
}

/** Asks VS Code to query code lenses again, e.g. after `taskspec.codeLens.enabled` changed. */
export function refreshCodeLenses(client: LanguageClient): void {
  const feature = client.getFeature(CodeLensRequest.method);
  for (const editor of vscode.window.visibleTextEditors) {
    feature.getProvider(editor.document)?.onDidChangeCodeLensEmitter.fire();
  }
}

function isImpactResult(value: unknown): value is ImpactResult {
  return typeof value === "object" && value !== null && Array.isArray((value as ImpactResult).invalidated);
}
