/**
 * Optional status bar entry with the state of one run in a run store
 * (`taskspec.runStatus.store` + `taskspec.runStatus.run`). The extension reads
 * no store itself: it asks the taskspec CLI (`taskspec status --format json`),
 * the workspace's own install if there is one, else `taskspec` on PATH. Kept
 * current on a timer and on every save of a contract; click to refresh.
 */
import * as vscode from "vscode";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runStatusText, type RunStatusReport } from "./run-status-text.js";

export const REFRESH_RUN_STATUS = "taskspec.refreshRunStatus";
const POLL_MS = 15_000;

export class RunStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem("taskspec.runStatus", vscode.StatusBarAlignment.Left, 9);
  private readonly subscriptions: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor() {
    this.item.name = "Taskspec run";
    this.item.command = REFRESH_RUN_STATUS;
    this.subscriptions.push(
      vscode.commands.registerCommand(REFRESH_RUN_STATUS, () => this.refresh()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("taskspec.runStatus")) void this.restart();
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (d.fileName.endsWith(".task.yaml")) void this.refresh();
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
    this.timer = setInterval(() => void this.refresh(), POLL_MS);
    await this.refresh();
  }

  async refresh(): Promise<void> {
    const { store, run } = this.settings();
    if (!store || !run) return;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    try {
      const report = JSON.parse(await taskspecCli(["status", run, "--store", store, "--format", "json"], folder)) as RunStatusReport;
      const { text, tooltip } = runStatusText(report);
      this.item.text = text;
      this.item.tooltip = `${tooltip}\nClick to refresh`;
    } catch (err) {
      this.item.text = `$(warning) run ${run}: status unavailable`;
      this.item.tooltip = `taskspec status ${run} --store ${store} failed:\n${err instanceof Error ? err.message : String(err)}`;
    }
    this.item.show();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.item.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function taskspecCli(args: string[], cwd: string | undefined): Promise<string> {
  const local = cwd ? join(cwd, "node_modules", ".bin", "taskspec") : undefined;
  const command = local && existsSync(local) ? local : "taskspec";
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, timeout: 10_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(stderr.trim() || err.message));
      else resolve(stdout);
    });
  });
}
