/**
 * Status bar entry for the active contract: its errors and warnings (the
 * server's diagnostics as VS Code holds them) and its plan hash (asked from the
 * server whenever the diagnostics change, i.e. after each analysis). Click
 * opens Problems.
 */
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { LANGUAGE_ID } from "./client.js";
import { OPEN_PROBLEMS } from "./contracts.js";
import { Methods, type PlanParams, type PlanResult } from "./protocol.js";

export class ContractStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("taskspec.status", vscode.StatusBarAlignment.Left, 10);
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The contract the entry is about: the active editor's, or the last one while no editor is active. */
  private document: vscode.TextDocument | undefined;
  /** Increases with every update so a slow plan answer never overwrites a newer one. */
  private generation = 0;

  constructor(private readonly client: LanguageClient) {
    this.item.name = "Taskspec";
    this.item.command = OPEN_PROBLEMS;
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => void this.update()),
      vscode.languages.onDidChangeDiagnostics((event) => {
        const shown = this.document?.uri.toString();
        if (event.uris.some((uri) => uri.toString() === shown)) void this.update();
      }),
    );
    void this.update();
  }

  async update(): Promise<void> {
    const generation = ++this.generation;
    const editor = vscode.window.activeTextEditor;
    // With a webview or panel focused there is no active editor: keep showing the last contract.
    if (editor) this.document = editor.document.languageId === LANGUAGE_ID ? editor.document : undefined;
    const document = this.document;
    if (!document || document.isClosed) {
      this.item.hide();
      return;
    }
    const diagnostics = vscode.languages.getDiagnostics(document.uri).filter((d) => d.source === "taskspec");
    const errors = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    const warnings = diagnostics.filter((d) => d.severity === vscode.DiagnosticSeverity.Warning).length;
    const params: PlanParams = { uri: document.uri.toString(), hashOnly: true };
    const result = await this.client.sendRequest<PlanResult | null>(Methods.plan, params).catch(() => null);
    if (generation === this.generation) this.render(errors, warnings, result?.planHash);
  }

  private render(errors: number, warnings: number, planHash: string | undefined): void {
    const plan = planHash ? `plan ${planHash.slice(0, 8)}` : "no plan";
    this.item.text = `$(error) ${errors} $(warning) ${warnings} ${plan}`;
    this.item.tooltip = [
      `Taskspec: ${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"} in this contract`,
      planHash ? `Plan hash: ${planHash}` : "No plan: the contract does not compile",
      "Click to open Problems",
    ].join("\n");
    this.item.backgroundColor = errors > 0 ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
