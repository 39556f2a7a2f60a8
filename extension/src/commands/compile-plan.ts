/**
 * "Taskspec: Compile Plan": writes the active contract's plan (as the server
 * compiled the current buffer) next to the contract as `<name>.plan.json`, or
 * to a path the user chooses.
 */
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { activeContract, OPEN_PROBLEMS } from "../contracts.js";
import { Methods, type PlanParams, type PlanResult } from "../protocol.js";

export function planPathFor(contract: vscode.Uri): vscode.Uri {
  const base = contract.path.replace(/\.task\.yaml$/, "");
  return contract.with({ path: `${base}.plan.json` });
}

export async function compilePlan(client: LanguageClient): Promise<void> {
  const document = activeContract();
  if (!document) return;
  const params: PlanParams = { uri: document.uri.toString() };
  const result = await client.sendRequest<PlanResult | null>(Methods.plan, params);
  if (!result?.plan) {
    const errors = result?.errors ?? 0;
    void vscode.window.showErrorMessage(
      `Taskspec: no plan: the contract has ${errors} error${errors === 1 ? "" : "s"}. Fix them first (see Problems).`,
    );
    await vscode.commands.executeCommand(OPEN_PROBLEMS);
    return;
  }
  const nextTo = planPathFor(document.uri);
  const choice = await vscode.window.showQuickPick(
    [
      { label: "Next to the contract", description: vscode.workspace.asRelativePath(nextTo), target: nextTo },
      { label: "Choose a path…", target: undefined },
    ],
    { title: "Where should the plan go?" },
  );
  if (!choice) return;
  const target = choice.target ?? (await vscode.window.showSaveDialog({ defaultUri: nextTo, filters: { "Plan JSON": ["json"] } }));
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(`${JSON.stringify(result.plan, null, 2)}\n`));
  const open = await vscode.window.showInformationMessage(
    `Taskspec: wrote plan ${result.plan.planHash.slice(0, 12)} to ${vscode.workspace.asRelativePath(target)}.`,
    "Open",
  );
  if (open) await vscode.window.showTextDocument(target);
}
