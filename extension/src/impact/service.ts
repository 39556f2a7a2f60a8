/**
 * Answers the impact questions (a change at a node, or the unsaved edit) by
 * asking the server, and shows the answer with the graph in the impact view.
 */
import * as vscode from "vscode";
import { basename } from "node:path";
import type { LanguageClient } from "vscode-languageclient/node";
import {
  Methods,
  type ChangeKinds,
  type GraphParams,
  type GraphResult,
  type ImpactOfEditParams,
  type ImpactOfEditResult,
  type ImpactParams,
  type ImpactResult,
} from "../protocol.js";
import type { ImpactPanel } from "./panel.js";
import type { ImpactChange } from "./view-model.js";

export class ImpactService {
  constructor(
    private readonly client: LanguageClient,
    private readonly panel: ImpactPanel,
  ) {}

  /** What a change of `kinds` at `node` invalidates; `known` is an answer the server already gave. */
  async showNodeImpact(uri: vscode.Uri, node: string, kinds: ChangeKinds, known?: ImpactResult): Promise<void> {
    const params: ImpactParams = { uri: uri.toString(), node, kinds };
    const changes: ImpactChange[] = [{ node, kinds }];
    const [result, graph] = await Promise.all([
      known ?? this.client.sendRequest<ImpactResult | null>(Methods.impact, params),
      this.graph(uri, changes),
    ]);
    if (!result) {
      void vscode.window.showWarningMessage(`Taskspec: no impact answer for "${node}" (is it a unit or input of this contract?).`);
      return;
    }
    this.panel.show(uri, {
      contractName: basename(uri.fsPath),
      changes,
      invalidated: result.invalidated,
      total: result.total,
      note: notes(result.partial, graph?.partial),
      svg: graph?.svg,
    });
  }

  /** What the unsaved edit of `uri` would invalidate compared with the saved file. */
  async showUnsavedImpact(uri: vscode.Uri): Promise<void> {
    const params: ImpactOfEditParams = { uri: uri.toString(), against: "saved" };
    const result = await this.client.sendRequest<ImpactOfEditResult | null>(Methods.impactOfEdit, params);
    if (!result) {
      void vscode.window.showWarningMessage("Taskspec: the server has no analysis of this contract yet.");
      return;
    }
    const changes: ImpactChange[] = result.changes;
    const graph = changes.length > 0 ? await this.graph(uri, changes) : undefined;
    this.panel.show(uri, {
      contractName: basename(uri.fsPath),
      changes,
      invalidated: result.invalidated,
      total: result.counts.invalidated,
      kept: result.kept,
      added: result.added,
      removed: result.removed,
      note: notes(result.unavailable, result.partial, graph?.partial),
      svg: graph?.svg,
    });
  }

  /** The graph with the changes highlighted; its `partial` says when it has no SVG (too big, or over the layout's budget). */
  private async graph(uri: vscode.Uri, changes: ImpactChange[]): Promise<GraphResult | undefined> {
    const params: GraphParams = { uri: uri.toString(), changes };
    return (await this.client.sendRequest<GraphResult | null>(Methods.graph, params)) ?? undefined;
  }
}

/** The sentences that qualify an answer, as one note (none: undefined). */
function notes(...sentences: (string | undefined)[]): string | undefined {
  return sentences.filter(Boolean).join(" ") || undefined;
}
