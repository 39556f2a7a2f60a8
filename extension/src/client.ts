/**
 * Starts the bundled language server (out/server.js, lsp's entry point) and
 * connects it to VS Code. Two client-side behaviours live in the middleware:
 * the `taskspec.codeLens.enabled` setting, and showing the answer of the code
 * lens command (the server implements `taskspec.showImpact`; the client
 * renders what it returns).
 */
import * as vscode from "vscode";
import { CodeLensRequest, LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node";
import { CONTRACT_GLOB } from "./contracts.js";
import { docsLinkTarget } from "./docs/links.js";
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
  // --expose-gc: the server's heap keeper collects after big edits only when
  // launched with it (lsp/src/adapters/heap.ts); it never flips the flag itself
  // TASKSPEC_DOCS_URL: the server links each code to the page bundled in out/ (build.mjs); handleDiagnostics
  // below points those links at the bundled page's webview or at `taskspec.docs.baseUrl`.
  const docs = bundledDocsPage(context).toString();
  const serverOptions: ServerOptions = {
    module: context.asAbsolutePath("out/server.js"),
    transport: TransportKind.stdio,
    options: { execArgv: ["--expose-gc"], env: { ...process.env, TASKSPEC_DOCS_URL: docs } },
  };
  // Closed contracts stay checked: the server re-reads them when they change on disk.
  const watcher = vscode.workspace.createFileSystemWatcher(CONTRACT_GLOB);
  context.subscriptions.push(watcher);
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: LANGUAGE_ID }],
    synchronize: { fileEvents: watcher },
    middleware: {
      // Read at each publish, so a changed setting applies from the next analysis on.
      handleDiagnostics: (uri, diagnostics, next) => {
        const base = vscode.workspace.getConfiguration("taskspec").get<string>("docs.baseUrl", "");
        for (const d of diagnostics) {
          if (typeof d.code !== "object" || d.code === null) continue;
          // Compared as VS Code spells URIs, which is how `docs` was written too.
          const page = d.code.target.with({ fragment: "" }).toString();
          const target = docsLinkTarget(`${page}#${d.code.target.fragment}`, docs, base);
          d.code = { value: d.code.value, target: vscode.Uri.parse(target, true) };
        }
        next(uri, diagnostics);
      },
      provideCodeLenses: async (document, token, next) => {
        if (!lensesEnabled()) return [];
        const lenses = (await next(document, token)) ?? [];
        return resolveVisibleLenses(client, document, lenses, token);
      },
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
  const client = new LanguageClient(LANGUAGE_ID, "Taskspec Language Server", serverOptions, clientOptions);
  return client;
}

/** The diagnostics page build.mjs copies into out/, which the docs links of the server point into. */
export function bundledDocsPage(context: vscode.ExtensionContext): vscode.Uri {
  return vscode.Uri.file(context.asAbsolutePath("out/diagnostics.md"));
}

/** Lines around the visible ranges whose lenses are resolved with the list. */
const RESOLVE_MARGIN = 50;

/**
 * Resolves the lenses near the visible part of the editor before VS Code gets
 * the list, so a new list arrives with its titles and commands. VS Code
 * otherwise resolves in a debounced pass after every list (it asks for a new
 * list on each edit and each time the editor gets focus), and until then "Show
 * CodeLens Commands for Current Line", the keyboard way to a lens, offers
 * nothing on that line. Lenses further away stay lazy.
 */
async function resolveVisibleLenses(
  client: LanguageClient,
  document: vscode.TextDocument,
  lenses: vscode.CodeLens[],
  token: vscode.CancellationToken,
): Promise<vscode.CodeLens[]> {
  const provider = client.getFeature(CodeLensRequest.method).getProvider(document)?.provider;
  const resolve = provider?.resolveCodeLens?.bind(provider);
  const visible = vscode.window.visibleTextEditors.filter((e) => e.document === document).flatMap((e) => e.visibleRanges);
  if (!resolve) return lenses;
  const near = (lens: vscode.CodeLens) =>
    visible.some((r) => lens.range.start.line >= r.start.line - RESOLVE_MARGIN && lens.range.start.line <= r.end.line + RESOLVE_MARGIN);
  return Promise.all(lenses.map(async (lens) => (lens.command || !near(lens) ? lens : ((await resolve(lens, token)) ?? lens))));
}

/**
 * Asks VS Code to query code lenses again, e.g. after `taskspec.codeLens.enabled`
 * changed: the provider of every open contract fires its change event, and each
 * editor showing one asks again after VS Code's debounce.
 */
export function refreshCodeLenses(client: LanguageClient): void {
  const feature = client.getFeature(CodeLensRequest.method);
  const shapes = new Set(vscode.workspace.textDocuments.flatMap((d) => feature.getProvider(d) ?? []));
  for (const shape of shapes) shape.onDidChangeCodeLensEmitter.fire();
}

function isImpactResult(value: unknown): value is ImpactResult {
  return typeof value === "object" && value !== null && Array.isArray((value as ImpactResult).invalidated);
}
