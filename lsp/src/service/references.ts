/** Find references: every site naming the same unit, input, tool, verifier or artifact. */
import type { Location, Position } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { locationOf, offsetAt } from "./lsp-ranges.js";
import { expressionReferences, expressionTargetAt } from "./expression-refs.js";
import { referencesTo, targetAt } from "./symbol-target.js";

export function references(analysis: Analysis, position: Position, includeDeclaration: boolean): Location[] {
  const { model } = analysis.parsed;
  const offset = offsetAt(analysis, position);
  const target = targetAt(model, offset) ?? expressionTargetAt(analysis, offset);
  if (!target) return [];
  const spans = [...referencesTo(model, target).map((r) => r.span), ...expressionReferences(analysis, target)].sort(
    (a, b) => a.start - b.start,
  );
  // An artifact's declaration sites are its `produces` entries, which are references already.
  if (includeDeclaration && target.decl && target.kind !== "artifact") spans.unshift(target.decl.keySpan);
  return spans.map((span) => locationOf(analysis, span));
}
