/**
 * The Runs view: every run of the configured store
 * (`taskspec.runStatus.store`), each with its pending approvals and its units,
 * read from the taskspec CLI's JSON (`runs`, `status`), never from the store.
 * A unit opens its definition in the run's contract; a run opens its run
 * panel; an approval shows the CLI's preview of what it releases first.
 */
import * as vscode from "vscode";
import { isAbsolute, join } from "node:path";
import { taskspecCli } from "../taskspec-cli.js";
import { runChildren, runRow, type RunDetail, type RunSummary, type Row } from "./model.js";
import { unitLocation } from "./unit-location.js";
import { ConsoleProcess } from "./console-process.js";
import { openRunPanel } from "./panel.js";
import { approveGate } from "./approve.js";

export const RUNS_VIEW = "taskspec.runs";
const POLL_MS = 15_000;

type Node =
  | { kind: "run"; run: RunSummary }
  | { kind: "approval" | "unit"; run: string; unit: string; contract: string | undefined; row: Row }
  | { kind: "note"; row: Row };

/** What the CLI answered (its JSON text, compared to see a change), or why it failed. */
type Read = { text: string } | { error: string };

export class RunsView implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly tree: vscode.TreeView<Node>;
  private timer: NodeJS.Timeout | undefined;
  private server: ConsoleProcess | undefined;
  /**
   * The last answers, by CLI call ("runs", or a run id for its status). The
   * tree is drawn from these at once and re-read in the background; it is
   * told of a change only when an answer differs. (Redrawn while a slow CLI
   * call was still out, its rows' commands were already gone: a click then
   * did nothing.)
   */
  private readonly reads = new Map<string, Read>();
  private readonly expanded = new Set<string>();
  private polling: Promise<void> | undefined;

  /** `guard` shows a command's failure as an error message (extension.ts). */
  constructor(guard: (action: (...args: unknown[]) => Promise<void>) => (...args: unknown[]) => Promise<void>) {
    this.tree = vscode.window.createTreeView(RUNS_VIEW, { treeDataProvider: this, showCollapseAll: true });
    const on = (action: (node: Node | undefined) => Promise<void>) => guard((node?: unknown) => action(node as Node | undefined));
    this.subscriptions.push(
      this.tree,
      this.changed,
      this.tree.onDidExpandElement((e) => e.element.kind === "run" && this.expanded.add(e.element.run.run)),
      this.tree.onDidCollapseElement((e) => e.element.kind === "run" && this.expanded.delete(e.element.run.run)),
      vscode.commands.registerCommand("taskspec.refreshRuns", () => this.refresh()),
      vscode.commands.registerCommand(
        "taskspec.openRunPanel",
        on((node) => this.openPanel(node)),
      ),
      vscode.commands.registerCommand(
        "taskspec.approveGate",
        on((node) => this.approve(node)),
      ),
      vscode.commands.registerCommand(
        "taskspec.revealUnit",
        on((node) => this.reveal(node)),
      ),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("taskspec.runStatus.store")) {
          this.server?.dispose();
          this.server = undefined;
          this.reads.clear();
          this.changed.fire(undefined);
        }
      }),
    );
    // Only while the view is on screen: a hidden view costs no CLI processes.
    this.timer = setInterval(() => {
      if (this.tree.visible) void this.refresh();
    }, POLL_MS);
  }

  /** Reads the store's runs and every expanded run again; redraws what changed. */
  refresh(): Promise<void> {
    this.polling ??= (async () => {
      try {
        const keys = ["runs", ...this.expanded];
        const changed = (await Promise.all(keys.map((k) => this.read(k)))).some(Boolean);
        if (changed) this.changed.fire(undefined);
      } finally {
        this.polling = undefined;
      }
    })();
    return this.polling;
  }

  /** One CLI call into `reads`; true when its answer differs from the last. */
  private async read(key: string): Promise<boolean> {
    const store = this.store();
    const args = key === "runs" ? ["runs", "--store", store, "--format", "json"] : ["status", key, "--store", store, "--format", "json"];
    const next: Read = await taskspecCli(args, this.folder()).then(
      (text) => ({ text }),
      (err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }),
    );
    const last = this.reads.get(key);
    this.reads.set(key, next);
    return JSON.stringify(last) !== JSON.stringify(next);
  }

  private async answer(key: string): Promise<Read> {
    if (!this.reads.has(key)) await this.read(key);
    return this.reads.get(key)!;
  }

  private folder(): string | undefined {
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  private store(): string {
    return vscode.workspace.getConfiguration("taskspec.runStatus").get<string>("store", "").trim();
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === "run") {
      const row = runRow(node.run);
      const expanded = this.expanded.has(node.run.run);
      const item = new vscode.TreeItem(
        row.label,
        expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
      );
      item.id = `run:${node.run.run}`;
      return decorate(item, row);
    }
    const item = new vscode.TreeItem(node.row.label, vscode.TreeItemCollapsibleState.None);
    decorate(item, node.row);
    if (node.kind === "unit") {
      item.id = `unit:${node.run}:${node.unit}`;
      item.command = { command: "taskspec.revealUnit", title: "Open Definition", arguments: [node] };
    } else if (node.kind === "approval") {
      item.id = `approval:${node.run}:${node.unit}`;
      item.command = { command: "taskspec.approveGate", title: "Approve…", arguments: [node] };
    }
    return item;
  }

  async getChildren(node?: Node): Promise<Node[]> {
    const store = this.store();
    if (!store) return [note("No run store configured", "Set taskspec.runStatus.store (sqlite:path or a postgres:// URL)", "gear")];
    if (node && node.kind !== "run") return [];
    const read = await this.answer(node ? node.run.run : "runs");
    if ("error" in read) return [note("The taskspec CLI failed", read.error, "warning")];
    if (!node) {
      const runs = JSON.parse(read.text) as RunSummary[];
      return runs.length > 0 ? runs.map((run) => ({ kind: "run", run })) : [note("No runs in this store", store, "info")];
    }
    const detail = JSON.parse(read.text) as RunDetail;
    return runChildren(detail).map((row) => ({
      kind: row.kind === "approval" ? "approval" : "unit",
      run: detail.run,
      unit: row.unit!,
      contract: detail.contract,
      row,
    }));
  }

  private async reveal(node: Node | undefined): Promise<void> {
    if (!node || node.kind === "run" || node.kind === "note") return;
    if (!node.contract) throw new Error(`run ${node.run} does not say which contract it was started from`);
    const path = isAbsolute(node.contract) ? node.contract : join(this.folder() ?? "", node.contract);
    // the text as the editor holds it, unsaved edits included
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const where = unitLocation(document.getText(), node.unit);
    if (!where) throw new Error(`${path} defines no unit ${node.unit} (the contract changed since the run started?)`);
    const position = new vscode.Position(where.line, where.column);
    await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position), preview: false });
  }

  private async openPanel(node: Node | undefined): Promise<void> {
    const run = node?.kind === "run" ? node.run.run : node?.kind === "unit" || node?.kind === "approval" ? node.run : undefined;
    const chosen = run ?? (await vscode.window.showInputBox({ prompt: "Run id" }));
    if (!chosen) return;
    const store = this.store();
    if (!store) throw new Error("no run store configured (taskspec.runStatus.store)");
    if (this.server?.store !== store) {
      this.server?.dispose();
      this.server = new ConsoleProcess(store, this.folder());
    }
    await openRunPanel(this.server, chosen);
  }

  private async approve(node: Node | undefined): Promise<void> {
    if (node?.kind !== "approval") return;
    if (await approveGate(this.store(), node.run, node.unit, this.folder())) await this.refresh();
  }

  dispose(): void {
    clearInterval(this.timer);
    this.server?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

function note(label: string, detail: string, icon: string): Node {
  return { kind: "note", row: { label, description: "", tooltip: detail, icon, kind: "note" } };
}

function decorate(item: vscode.TreeItem, row: Row): vscode.TreeItem {
  item.description = row.description;
  item.tooltip = row.tooltip;
  item.iconPath = new vscode.ThemeIcon(row.icon);
  item.contextValue = row.kind;
  return item;
}
