/**
 * "Taskspec: Check Workspace": the server checks every contract in the
 * workspace (open ones as edited, closed ones from disk); this command asks it
 * for each file's counts, reports the totals and opens Problems if any.
 */
import * as vscode from "vscode";
import type { LanguageClient } from "vscode-languageclient/node";
import { CONTRACT_GLOB, EXCLUDE_GLOB, OPEN_PROBLEMS } from "../contracts.js";
import { Methods, type PlanParams, type PlanResult } from "../protocol.js";

export async function checkWorkspace(client: LanguageClient): Promise<void> {
  const files = await vscode.workspace.findFiles(CONTRACT_GLOB, EXCLUDE_GLOB);
  if (files.length === 0) {
    void vscode.window.showInformationMessage("Taskspec: no *.task.yaml or *.task.yml contracts in this workspace.");
    return;
  }
  const results = await Promise.all(
    files.map((uri) => client.sendRequest<PlanResult | null>(Methods.plan, { uri: uri.toString() } satisfies PlanParams)),
  );
  let errors = 0;
  let warnings = 0;
  let failing = 0;
  let unchecked = 0;
  for (const result of results) {
    if (!result) {
      unchecked++;
      continue;
    }
    errors += result.errors;
    warnings += result.warnings;
    if (result.errors > 0) failing++;
  }
  const parts = [
    `checked ${files.length - unchecked} contract${files.length - unchecked === 1 ? "" : "s"}`,
    `${errors} error${errors === 1 ? "" : "s"}`,
    `${warnings} warning${warnings === 1 ? "" : "s"}`,
  ];
  if (failing > 0) parts.push(`${failing} without a plan`);
  if (unchecked > 0) parts.push(`${unchecked} not yet seen by the server`);
  const message = `Taskspec: ${parts.join(", ")}.`;
  if (errors + warnings > 0) {
    void vscode.window.showWarningMessage(message);
    await vscode.commands.executeCommand(OPEN_PROBLEMS);
  } else {
    void vscode.window.showInformationMessage(message);
  }
}
