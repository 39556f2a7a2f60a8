/**
 * The docs webview: one panel, reused, beside the editor, showing one code's
 * section of the diagnostics page bundled in out/ (build.mjs copies it there).
 * Offline by construction: nothing is fetched.
 */
import { readFile } from "node:fs/promises";
import * as vscode from "vscode";
import { docsSection, escapeText, renderDocsHtml } from "./links.js";

export class DocsPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;

  constructor(private readonly page: vscode.Uri) {}

  async show(code: string): Promise<void> {
    const section = docsSection(await readFile(this.page.fsPath, "utf8"), code);
    if (section === undefined) throw new Error(`the bundled docs have no section for ${code}`);
    const panel = this.panel ?? this.create();
    panel.title = `Taskspec: ${code}`;
    panel.webview.html = renderDocsHtml(code, await render(section), panel.webview.cspSource);
    panel.reveal(vscode.ViewColumn.Beside, false);
  }

  dispose(): void {
    this.panel?.dispose();
  }

  private create(): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(
      "taskspec.docs",
      "Taskspec docs",
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      { enableScripts: false, localResourceRoots: [] },
    );
    panel.onDidDispose(() => {
      this.panel = undefined;
    });
    this.panel = panel;
    return panel;
  }
}

/** VS Code's Markdown renderer (the built-in Markdown extension's command); escaped source if it is missing. */
async function render(markdown: string): Promise<string> {
  try {
    const html = await vscode.commands.executeCommand<unknown>("markdown.api.render", markdown);
    if (typeof html === "string") return html;
  } catch {
    // the built-in Markdown extension is disabled: show the source
  }
  return `<pre>${escapeText(markdown)}</pre>`;
}
