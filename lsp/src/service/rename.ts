/**
 * Rename a unit, input, tool, verifier or artifact everywhere it is declared
 * and referred to. Refused (with the reason, for the editor to show) when the
 * name is not declared, the new name is not a valid name, or it is taken by a
 * declaration the references could then mean instead.
 */
import type { DeclKind } from "@taskspec/compiler";
import type { Position, Range, TextEdit, WorkspaceEdit } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { offsetAt, rangeOf } from "./lsp-ranges.js";
import { expressionReferences, expressionTargetAt } from "./expression-refs.js";
import { declsOf, nameSpan, referencesTo, targetAt } from "./symbol-target.js";

export type RenameResult = { edit: WorkspaceEdit } | { refused: string };

/** Names that stay plain YAML scalars (no quoting needed) and match the contract's id style. */
const VALID_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** Units and inputs share one namespace: `needs` and `at` refer to either. */
const NAMESPACES: Record<DeclKind, DeclKind[]> = {
  unit: ["unit", "input"],
  input: ["unit", "input"],
  tool: ["tool"],
  verifier: ["verifier"],
  artifact: ["artifact"],
};

export function prepareRename(analysis: Analysis, position: Position): { range: Range; placeholder: string } | null {
  const offset = offsetAt(analysis, position);
  const target = targetAt(analysis.parsed.model, offset) ?? expressionTargetAt(analysis, offset);
  if (!target?.decl) return null;
  return { range: rangeOf(analysis, nameSpan(analysis.text, target.span)), placeholder: target.name };
}

export function rename(analysis: Analysis, position: Position, newName: string): RenameResult {
  const { model } = analysis.parsed;
  const offset = offsetAt(analysis, position);
  const target = targetAt(model, offset) ?? expressionTargetAt(analysis, offset);
  if (!target) return { refused: "nothing to rename here: put the cursor on a unit, input, tool, verifier or artifact name" };
  if (!target.decl) return { refused: `'${target.name}' is not declared, so there is nothing to rename` };
  if (newName === target.name) return { edit: { changes: { [analysis.uri]: [] } } };
  if (!VALID_NAME.test(newName)) {
    return { refused: `'${newName}' is not a valid name: use letters, digits, '_', '.' and '-', starting with a letter, digit or '_'` };
  }
  for (const kind of NAMESPACES[target.kind]) {
    if (declsOf(model, kind).has(newName)) return { refused: `'${newName}' is already the name of ${article(kind)} ${kind}` };
  }
  const spans = [...referencesTo(model, target).map((r) => r.span), ...expressionReferences(analysis, target)];
  if (target.kind !== "artifact") spans.push(target.decl.keySpan);
  const edits: TextEdit[] = spans
    .map((span) => nameSpan(analysis.text, span))
    .sort((a, b) => a.start - b.start)
    .map((span) => ({ range: rangeOf(analysis, span), newText: newName }));
  return { edit: { changes: { [analysis.uri]: edits } } };
}

function article(kind: DeclKind): string {
  return kind === "input" || kind === "artifact" ? "an" : "a";
}
