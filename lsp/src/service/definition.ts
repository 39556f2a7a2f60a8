/**
 * Go to definition: from a reference to the declaration's key; an artifact is
 * "declared" where units produce it, so all its producers are answered.
 */
import type { Location, Position } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { expressionTargetAt } from "./expression-refs.js";
import { locationOf, offsetAt } from "./lsp-ranges.js";
import { targetAt } from "./symbol-target.js";

export function definition(analysis: Analysis, position: Position): Location[] {
  const { model } = analysis.parsed;
  const offset = offsetAt(analysis, position);
  const target = targetAt(model, offset) ?? expressionTargetAt(analysis, offset);
  if (!target?.decl) return [];
  if (target.kind === "artifact") {
    const artifact = model.artifacts.get(target.name);
    return (artifact?.producers ?? []).map((p) => locationOf(analysis, p.span));
  }
  return [locationOf(analysis, target.decl.keySpan)];
}
