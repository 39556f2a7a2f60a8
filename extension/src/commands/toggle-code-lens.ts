/**
 * "Taskspec: Toggle Code Lenses": flips `taskspec.codeLens.enabled` where it
 * is set (the workspace's settings if they set it, else the user's), so the
 * change persists like one made in the Settings editor. The lenses follow
 * through the configuration change event, as for any other edit of the setting.
 */
import * as vscode from "vscode";
import { lensesEnabled } from "../client.js";

export async function toggleCodeLens(): Promise<void> {
  const config = vscode.workspace.getConfiguration("taskspec");
  // Writing the user's settings under a workspace value would change nothing visible.
  const target =
    config.inspect<boolean>("codeLens.enabled")?.workspaceValue === undefined
      ? vscode.ConfigurationTarget.Global
      : vscode.ConfigurationTarget.Workspace;
  await config.update("codeLens.enabled", !lensesEnabled(), target);
}
