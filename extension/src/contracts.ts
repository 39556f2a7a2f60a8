/** The contract a command acts on: the active editor's, if it is one. */
import * as vscode from "vscode";
import { LANGUAGE_ID } from "./client.js";

export function activeContract(): vscode.TextDocument | undefined {
  const document = vscode.window.activeTextEditor?.document;
  if (document?.languageId === LANGUAGE_ID) return document;
  void vscode.window.showErrorMessage("Taskspec: open a *.task.yaml or *.task.yml contract first.");
  return undefined;
}

/** Contracts are `*.task.yaml`, or `*.task.yml` (the CLI's and the server's rule, compiler/src/node/find-contracts.ts). */
export const CONTRACT_GLOB = "**/*.task.{yaml,yml}";
export const EXCLUDE_GLOB = "**/node_modules/**";

/** Opens the Problems panel (the command VS Code binds to Ctrl+Shift+M). */
export const OPEN_PROBLEMS = "workbench.actions.view.problems";
