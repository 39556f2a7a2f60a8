/**
 * Optional status bar entry with the state of one run in a run store
 * (`taskspec.runStatus.store` + `taskspec.runStatus.run`). The extension reads
 * no store itself: it asks the taskspec CLI (`taskspec status --format json`),
 * the workspace's own install if there is one, else `taskspec` on PATH. Kept
 * current on a timer and on every save of a contract; click to refresh.
 */
import * as vscode from "vscode";
import { runStatusText, type RunStatusReport } from "./run-status-text.js";
import { taskspecCli } from "./taskspec-cli.js";

export const REFRESH_RUN_STATUS = "taskspec.refreshRunStatus";
const POLL_MS = 15_000;

export class RunStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("taskspec.runStatus", vscode.StatusBarAlignment.Left, 9);
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** The newest read; an older one finishing later does not overwrite it. */
  private reads = 0;
  private reading: Promise<void> | undefined;

  constructor() {
    this.item.name = "Taskspec run";
    this.item.command = REFRESH_RUN_STATUS;
    this.subscriptions.push(
      vscode.commands.registerCommand(REFRESH_RUN_STATUS, () => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("taskspec.runStatus")) void this.restart();
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d.fileName.endsWith(".task.yaml") || d.fileName.endsWith(".task.yml")) void this.refresh();
      }),
    );
    void this.restart();
  }

  private settings(): { store: string; run: string } {
    const config = vscode.workspace.getConfiguration("taskspec.runStatus");
    return { store: config.get<string>("store", "").trim(), run: config.get<string>("run", "").trim() };
  }

  private async restart(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const { store, run } = this.settings();
    if (!store || !run) {
      this.item.hide();
      return;
    }
    // A tick while a read is still running waits for the next one, so a slow
    // machine does not pile up CLI processes.
    this.timer = setInterval(() => void (this.reading ?? this.refresh()), POLL_MS);
    await this.refresh();
  }

  refresh(): Promise<void> {
    const read = this.read(++this.reads).finally(() => {
      if (this.reading === read) this.reading = undefined;
    });
    this.reading = read;
    return read;
  }

  private async read(id: number): Promise<void> {
    const { store, run } = this.settings();
    if (!store || !run) return;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    let text: string;
    let tooltip: string;
    try {
      const report = JSON.parse(await taskspecCli(["status", run, "--store", store, "--format", "json"], folder)) as RunStatusReport;
      ({ text, tooltip } = runStatusText(report));
      tooltip = `${tooltip}\nClick to refresh`;
    } catch (err) {
      text = `$(warning) run ${run}: status unavailable`;
      tooltip = `taskspec status ${run} --store ${store} failed:\n${err instanceof Error ? err.message : String(err)}`;
    }
    if (id !== this.reads) return;
    this.item.text = text;
    this.item.tooltip = tooltip;
    this.item.show();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}
