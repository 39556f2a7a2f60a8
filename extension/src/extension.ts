/**
 * The Taskspec extension: starts the language server and adds what a plain LSP
 * client does not have (commands, the impact view, the status bar entries,
 * the Runs view and its run panel).
 */
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { bundledDocsPage, createClient, refreshCodeLenses } from "./client.js";
import { DocsPanel } from "./docs/panel.js";
import { SHOW_DOCS_COMMAND } from "./docs/links.js";
import { ImpactPanel } from "./impact/panel.js";
import { ImpactService } from "./impact/service.js";
import { ContractStatus } from "./status-bar.js";
import { RunStatus } from "./run-status.js";
import { RunsView } from "./runs/view.js";
import { checkWorkspace } from "./commands/check-workspace.js";
import { compilePlan } from "./commands/compile-plan.js";
import { previewImpact } from "./commands/preview-impact.js";
import { impactOfUnsavedChanges } from "./commands/unsaved-impact.js";
import { toggleCodeLens } from "./commands/toggle-code-lens.js";

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const panel = new ImpactPanel(context.extensionUri);
  const docs = new DocsPanel(bundledDocsPage(context));
  // The lens hook runs only after activation, when `impact` exists.
  const started = createClient(context, {
    onShowImpact: (argument, result) => impact.showNodeImpact(vscode.Uri.parse(argument.uri), argument.node, "all", result),
  });
  const impact = new ImpactService(started, panel);
  client = started;

  const run =
    (action: (...args: unknown[]) => Promise<void>) =>
    async (...args: unknown[]) => {
      try {
        await action(...args);
      } catch (err) {
        void vscode.window.showErrorMessage(`Taskspec: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
  context.subscriptions.push(
    panel,
    docs,
    // The target of the diagnostics' docs links (client.ts), not a palette command.
    vscode.commands.registerCommand(
      SHOW_DOCS_COMMAND,
      run((code: unknown) => docs.show(String(code))),
    ),
    vscode.commands.registerCommand(
      "taskspec.checkWorkspace",
      run(() => checkWorkspace(started)),
    ),
    vscode.commands.registerCommand(
      "taskspec.compilePlan",
      run(() => compilePlan(started)),
    ),
    vscode.commands.registerCommand(
      "taskspec.previewImpact",
      run(() => previewImpact(impact)),
    ),
    vscode.commands.registerCommand(
      "taskspec.impactOfUnsavedChanges",
      run(() => impactOfUnsavedChanges(impact)),
    ),
    vscode.commands.registerCommand("taskspec.toggleCodeLens", run(toggleCodeLens)),
    vscode.commands.registerCommand(
      "taskspec.showRuns",
      run(async () => void (await vscode.commands.executeCommand("workbench.view.extension.taskspec"))),
    ),
    // An editor hidden behind another (the Settings editor) has no model and
    // ignores this; VS Code asks for its lenses again when it is shown.
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("taskspec.codeLens.enabled")) refreshCodeLenses(started);
    }),
  );
  // The Runs view reads the store through the CLI, not the language server: it is there before the server starts.
  context.subscriptions.push(new RunsView(run));
  await started.start();
  context.subscriptions.push(new ContractStatus(started), new RunStatus());
}

export async function deactivate(): Promise<void> {
  await client?.stop();
  client = undefined;
}
