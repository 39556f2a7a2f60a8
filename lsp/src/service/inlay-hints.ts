/**
 * Inlay hints: after a unit's name, its worst-case cost per run of the task
 * (the plan's figure: own and tool costs x loop bound x attempts), and after
 * `loop:`, what that bound multiplies to with the unit's retries. Figures come
 * from the newest plan that compiled; nothing is shown before one exists. The
 * server sends them only while the `inlayHints` setting is on.
 */
import type { Plan } from "@taskspec/compiler";
import { InlayHintKind, type InlayHint, type Range } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { offsetAt, rangeOf } from "./lsp-ranges.js";
import { lookup } from "./plan-lookup.js";

export function inlayHints(analysis: Analysis, range: Range): InlayHint[] {
  const plan: Plan | undefined = analysis.good?.plan;
  if (!plan) return [];
  const from = offsetAt(analysis, range.start);
  const to = offsetAt(analysis, range.end);
  const units = lookup(plan).units;
  const hints: InlayHint[] = [];
  for (const decl of analysis.parsed.model.units.values()) {
    if (decl.valueSpan.end < from || decl.keySpan.start > to) continue;
    const unit = units.get(decl.name);
    if (!unit) continue;
    const w = unit.worstCase;
    if (decl.keySpan.end >= from && decl.keySpan.end <= to)
      hints.push({
        position: rangeOf(analysis, decl.keySpan).end,
        label: ` worst case ${w.model_calls} model calls · ${w.tool_calls} tool calls · ${compact(w.tokens)} tokens`,
        kind: InlayHintKind.Type,
        paddingLeft: true,
      });
    if (unit.loop) {
      const loopAt = analysis.text.indexOf("loop:", decl.valueSpan.start);
      if (loopAt >= 0 && loopAt < decl.valueSpan.end && loopAt >= from && loopAt <= to) {
        const attempts = 1 + unit.retry.max;
        hints.push({
          position: rangeOf(analysis, { start: loopAt + "loop:".length, end: loopAt + "loop:".length }).end,
          label: ` ≤ ${unit.loop.max} iterations × ${attempts} attempt${attempts === 1 ? "" : "s"} = ${unit.loop.max * attempts} runs`,
          kind: InlayHintKind.Parameter,
          paddingRight: true,
        });
      }
    }
  }
  return hints;
}

function compact(n: number): string {
  return n >= 1_000_000 ? `${+(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${+(n / 1000).toFixed(1)}k` : String(n);
}
