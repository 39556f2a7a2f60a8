/**
 * The impact webview: one panel, reused for every impact question, beside the
 * editor. Clicking a unit (in the list or the graph) reveals its definition in
 * the contract the answer is about.
 */
import * as vscode from "vscode";
import { randomBytes } from "node:crypto";
import { renderImpactHtml } from "./html.js";
import type { ImpactViewModel } from "./view-model.js";
import { revealNode } from "../reveal.js";

interface RevealMessage {
  type: "reveal";
  node: string;
}

export class ImpactPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private contract: vscode.Uri | undefined;

  constructor(private readonly extensionUri: vscode.Uri) {}

  show(contract: vscode.Uri, model: ImpactViewModel): void {
    this.contract = contract;
    const panel = this.panel ?? this.create();
    const media = vscode.Uri.joinPath(this.extensionUri, "media");
    panel.title = `Impact: ${model.contractName}`;
    panel.webview.html = renderImpactHtml(model, {
      cspSource: panel.webview.cspSource,
      nonce: randomBytes(16).toString("base64"),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, "impact.js")).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, "impact.css")).toString(),
    });
    panel.reveal(vscode.ViewColumn.Beside, false);
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private create(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(
      "taskspec.impact",
      "Impact",
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {
        enableScripts: true,
        localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, "media")],
      },
    );
    panel.webview.onDidReceiveMessage((message: RevealMessage) => {
      if (message?.type === "reveal" && typeof message.node === "string" && this.contract) {
        void revealNode(this.contract, message.node);
      }
    });
    panel.onDidDispose(() => {
      this.panel = undefined;
    });
    this.panel = panel;
    return panel;
  }
}
