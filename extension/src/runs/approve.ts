/**
 * Approving a gate from the editor: first the CLI's own preview
 * (`taskspec approve --dry-run`: exactly what the gated call will send and
 * what the approval is bound to), then the person's confirmation, then
 * `taskspec approve` with their authority: an operator key file
 * (`taskspec.runs.operatorKeyFile`), else the gate's resume token, asked for
 * and used once, never stored, passed in the environment (approve-call.ts).
 */
import * as vscode from "vscode";
import { isAbsolute, join } from "node:path";
import { taskspecCli } from "../taskspec-cli.js";
import { approveCall, type Authority } from "./approve-call.js";

export async function approveGate(store: string, run: string, unit: string, cwd: string | undefined): Promise<boolean> {
  const preview = await taskspecCli(["approve", run, unit, "--store", store, "--dry-run"], cwd);
  const choice = await vscode.window.showWarningMessage(
    `Approve ${unit} of run ${run}?`,
    { modal: true, detail: preview.trimEnd() },
    "Approve",
  );
  if (choice !== "Approve") return false;
  const keyFile = vscode.workspace.getConfiguration("taskspec.runs").get<string>("operatorKeyFile", "").trim();
  let authority: Authority;
  if (keyFile) {
    authority = { keyFile: isAbsolute(keyFile) || !cwd ? keyFile : join(cwd, keyFile) };
  } else {
    const token = await vscode.window.showInputBox({
      title: `Approve ${unit} of ${run}`,
      prompt: "The gate's resume token (printed when the run blocked at the gate; used once)",
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (v.trim() ? undefined : "a resume token, or set taskspec.runs.operatorKeyFile"),
    });
    if (!token) return false;
    authority = { token: token.trim() };
  }
  const call = approveCall(store, run, unit, authority);
  const done = await taskspecCli(call.args, cwd, call.env);
  const last = done.trimEnd().split("\n").pop() ?? "";
  void vscode.window.showInformationMessage(`Taskspec: ${last}`);
  return true;
}
