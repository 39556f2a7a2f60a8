/**
 * "Taskspec: Preview Invalidation Impact": pick a unit or input of the active
 * contract, then the change kinds (none picked = any kind), and see what the
 * change invalidates.
 */
import * as vscode from "vscode";
import { activeContract } from "../contracts.js";
import { contractNodes } from "../reveal.js";
import { EDGE_KINDS, type ChangeKinds, type EdgeKind } from "../protocol.js";
import type { ImpactService } from "../impact/service.js";

export async function previewImpact(impact: ImpactService): Promise<void> {
  const document = activeContract();
  if (!document) return;
  const nodes = await contractNodes(document.uri);
  if (nodes.length === 0) {
    void vscode.window.showWarningMessage("Taskspec: this contract has no units or inputs yet.");
    return;
  }
  const node = await vscode.window.showQuickPick(
    nodes.map((n) => ({ label: n.name, description: n.kind })),
    { title: "Preview invalidation impact: where does the change start?", placeHolder: "unit or input", matchOnDescription: true },
  );
  if (!node) return;
  const picked = await vscode.window.showQuickPick(
    EDGE_KINDS.map((kind) => ({ label: kind })),
    {
      title: `Which kinds of change at ${node.label}?`,
      placeHolder: "pick edge kinds; pick none for a change of any kind",
      canPickMany: true,
    },
  );
  if (!picked) return;
  const kinds: ChangeKinds = picked.length === 0 ? "all" : picked.map((p) => p.label as EdgeKind);
  await impact.showNodeImpact(document.uri, node.label, kinds);
}
