/**
 * Finding units and inputs of a contract: the server's document symbols are
 * the one place that knows where each is defined (lsp/README.md: symbol names
 * are bare unit ids and input names, nested by phase).
 */
import * as vscode from "vscode";

export interface ContractNode {
  name: string;
  kind: "unit" | "input";
  selectionRange: vscode.Range;
}

/** The server's symbol kinds for the two kinds of graph node (lsp/src/service/symbols.ts). */
const NODE_KINDS = new Map<vscode.SymbolKind, ContractNode["kind"]>([
  [vscode.SymbolKind.Function, "unit"],
  [vscode.SymbolKind.Variable, "input"],
]);

/** Units and inputs of a contract, wherever the outline nests them. */
export async function contractNodes(uri: vscode.Uri): Promise<ContractNode[]> {
  const symbols =
    (await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>(
      "vscode.executeDocumentSymbolProvider",
      uri,
    )) ?? [];
  const found: ContractNode[] = [];
  const visit = (symbol: vscode.DocumentSymbol | vscode.SymbolInformation): void => {
    const kind = NODE_KINDS.get(symbol.kind);
    const range = "selectionRange" in symbol ? symbol.selectionRange : symbol.location.range;
    if (kind) found.push({ name: symbol.name, kind, selectionRange: range });
    if ("children" in symbol) symbol.children.forEach(visit);
  };
  symbols.forEach(visit);
  return found;
}

/** Opens the contract and selects the definition of `node`. */
export async function revealNode(uri: vscode.Uri, node: string): Promise<void> {
  const target = (await contractNodes(uri)).find((n) => n.name === node);
  const document = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(document, {
    viewColumn: vscode.ViewColumn.One,
    preserveFocus: false,
    selection: target?.selectionRange,
  });
  if (target) editor.revealRange(target.selectionRange, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  else void vscode.window.showWarningMessage(`Taskspec: no definition of "${node}" found in ${document.fileName}.`);
}
