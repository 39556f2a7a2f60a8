/**
 * Hover: on a unit, input, tool, verifier or artifact name (declaration or
 * reference) what the plan knows about it; on an edge kind, a recovery class,
 * an input or verifier kind, an approval: what the word means. Facts come from
 * the newest plan of this document that compiled; when that is an older
 * version the hover says so.
 */
import {
  countInvalidated,
  EDGE_KINDS,
  RECOVERY_CLASSES,
  type CountIndex,
  type EdgeKind,
  type Plan,
  type RecoveryClass,
  type Span,
  type VerifierUse,
} from "@taskspec/compiler";
import { MarkupKind, type Hover, type Position } from "vscode-languageserver";
import { isScalar, type Pair } from "yaml";
import type { Analysis } from "./analysis.js";
import { offsetAt, rangeOf } from "./lsp-ranges.js";
import { lookup } from "./plan-lookup.js";
import { targetAt, type Target } from "./symbol-target.js";
import { APPROVAL_MEANING, EDGE_KIND_MEANING, INPUT_KIND_MEANING, RECOVERY_CLASS_MEANING, VERIFIER_KIND_MEANING } from "./vocabulary.js";
import { expressionHover } from "./expressions.js";
import { schemaHover } from "./key-hover.js";
import { bindingAt, boundTool, describeLocked } from "./mcp-lock-view.js";
import { scalarValue } from "./decl-values.js";

export function hover(analysis: Analysis, position: Position): Hover | null {
  const offset = offsetAt(analysis, position);
  const target = targetAt(analysis.parsed.model, offset);
  if (target) {
    const text = describeTarget(analysis, target);
    return text ? markdown(analysis, text, target.span) : null;
  }
  const word = vocabularyAt(analysis, offset);
  if (word) return markdown(analysis, word.text, word.span);
  const expr = expressionHover(analysis, offset);
  if (expr) return markdown(analysis, expr.text, expr.span);
  const binding = bindingAt(analysis, offset);
  const bound = binding && boundTool(analysis, binding.name);
  if (binding && bound?.locked)
    return markdown(analysis, describeLocked(bound.server, bound.tool, bound.locked, analysis.mcpLock?.()), binding.span);
  const key = schemaHover(analysis, offset);
  return key ? markdown(analysis, key.text, key.span) : null;
}

function markdown(analysis: Analysis, value: string, span: Span): Hover {
  return { contents: { kind: MarkupKind.Markdown, value }, range: rangeOf(analysis, span) };
}

function describeTarget(analysis: Analysis, target: Target): string | undefined {
  if (!target.decl) return `**${target.name}**: not declared (${target.kind})`;
  const plan = analysis.good?.plan;
  // marked secret now, whatever the last plan that compiled says: its value is never shown
  const secretNow = target.kind === "input" && scalarValue(target.decl, "secret") === "true";
  // counts from the version's count index, as the lens does: one index per version, not one per object
  const facts = plan ? factsFromPlan(plan, analysis.good!.counts, target, secretNow) : undefined;
  const lines = facts ?? [`**${target.kind} ${target.name}**`, "", "_details appear once the contract compiles_"];
  if (plan && facts && !analysis.current) lines.push("", `_as of version ${analysis.good!.version}, the last one that compiled_`);
  return lines.join("\n");
}

function factsFromPlan(plan: Plan, counts: CountIndex, target: Target, secretNow = false): string[] | undefined {
  const l = lookup(plan);
  switch (target.kind) {
    case "unit": {
      const unit = l.units.get(target.name);
      if (!unit) return undefined;
      const out = [`**unit ${unit.id}** · ${unit.phase ? `phase \`${unit.phase}\`` : "no phase"} · level ${unit.level}`, ""];
      out.push(`- needs: ${unit.needs.length === 0 ? "nothing" : unit.needs.map((n) => `${n.node} (${n.kinds.join(", ")})`).join(", ")}`);
      const by = l.dependents.get(unit.id) ?? [];
      out.push(`- needed by: ${by.length === 0 ? "no unit" : by.map((e) => `${e.to} (${e.kinds.join(", ")})`).join(", ")}`);
      out.push(`- produces: ${unit.produces.length === 0 ? "nothing" : unit.produces.join(", ")}`);
      out.push(
        `- tools: ${unit.uses.length === 0 ? "none" : unit.uses.map((t) => `${t} (${l.tools.get(t)?.class ?? "undeclared"})`).join(", ")}`,
      );
      out.push(`- verifiers: ${unit.verify.length === 0 ? "none" : unit.verify.map(verifierName).join(", ")}`);
      for (const name of unit.uses) {
        const tool = l.tools.get(name);
        if (tool && tool.class !== "read") out.push(`- recovery: ${name} (${tool.class}): ${tool.recovery.summary}`);
      }
      if (unit.approval) out.push(`- approval: ${unit.approval} gate before it runs`);
      if (unit.loop) out.push(`- loop: at most ${unit.loop.max} iterations`);
      out.push(`- attempts: ${1 + unit.retry.max}`);
      const w = unit.worstCase;
      out.push(`- worst case: ${w.model_calls} model calls, ${w.tool_calls} tool calls, ${w.tokens} tokens`);
      out.push(`- a change here invalidates ${invalidatedText(counts, unit.id)}`);
      return out;
    }
    case "input": {
      const input = l.inputs.get(target.name);
      if (!input) return undefined;
      const out = [
        `**input ${input.name}** · \`${input.kind}\`${input.volatile ? " · volatile" : ""}`,
        "",
        INPUT_KIND_MEANING[input.kind] ?? "",
      ];
      if (input.version !== undefined) out.push(`- version: ${input.version}`);
      // a secret's value is never shown, not even the one written in the contract (C037)
      const secret = input.secret === true || secretNow;
      if (input.value !== undefined) out.push(`- value: ${secret ? "`***`" : JSON.stringify(input.value)}`);
      if (secret) out.push("- secret: never stored (only its digest), shown as `***` in `status`, `handoff` and messages");
      const by = l.dependents.get(input.name) ?? [];
      out.push(`- needed by: ${by.length === 0 ? "no unit" : by.map((e) => `${e.to} (${e.kinds.join(", ")})`).join(", ")}`);
      out.push(`- a change here invalidates ${invalidatedText(counts, input.name)}`);
      return out;
    }
    case "tool": {
      const tool = l.tools.get(target.name);
      if (!tool) return undefined;
      const out = [`**tool ${tool.name}** · class \`${tool.class}\``, "", tool.recovery.summary, ""];
      out.push(
        `- on retry: ${tool.recovery.onRetry}; on an unknown outcome: ${tool.recovery.onUnknown}; on abort: ${tool.recovery.onAbort}`,
      );
      const compensator = plan.compensation[tool.name];
      if (compensator) out.push(`- compensated with \`${compensator}\``);
      if (tool.lookup) out.push(`- looked up with \`${tool.lookup}\``);
      if (tool.key) out.push(`- key: \`${tool.key.source}\``);
      if (tool.secretArgs) out.push(`- secret arguments (never stored, \`***\`): ${tool.secretArgs.join(", ")}`);
      if (tool.safeArgs) out.push(`- arguments shown in the intent: ${tool.safeArgs.join(", ")}`);
      if (tool.secretResult) out.push(`- secret result fields (never stored): ${tool.secretResult.join(", ")}`);
      if (tool.approval) out.push(`- approval: ${tool.approval}`);
      const users = l.usersOfTool.get(tool.name) ?? [];
      out.push(`- used by: ${users.length === 0 ? "no unit" : users.join(", ")}`);
      return out;
    }
    case "verifier": {
      const verifier = l.verifiers.get(target.name);
      if (!verifier) return undefined;
      const out = [`**verifier ${verifier.name}** · \`${verifier.kind}\``, "", VERIFIER_KIND_MEANING[verifier.kind] ?? ""];
      if (verifier.check) out.push(`- check: \`${verifier.check.source}\``);
      if (verifier.schema) out.push(`- schema: ${verifier.schema}`);
      if (verifier.describe) out.push(`- describe: ${verifier.describe}`);
      return out;
    }
    case "artifact": {
      const producers = plan.units.filter((u) => u.produces.includes(target.name)).map((u) => u.id);
      const out = [`**artifact ${target.name}**`, "", `- produced by: ${producers.join(", ") || "no unit"}`];
      if (plan.task.outputs.includes(target.name)) out.push("- a task output");
      return out;
    }
  }
}

function verifierName(v: VerifierUse): string {
  return "ref" in v ? v.ref : `check \`${v.check.source}\``;
}

function invalidatedText(counts: CountIndex, node: string): string {
  const n = countInvalidated(counts, node)?.total ?? 0;
  return `${n} unit${n === 1 ? "" : "s"}`;
}

/** An edge kind, recovery class, input/verifier kind or approval value under the cursor. */
function vocabularyAt(analysis: Analysis, offset: number): { text: string; span: Span } | undefined {
  const { model } = analysis.parsed;
  const within = (s: Span) => s.start <= offset && offset <= s.end;
  for (const unit of model.units.values()) {
    if (!within(unit.valueSpan)) continue;
    for (const need of unit.needs) {
      for (const k of need.kinds) if (within(k.span)) return edgeKind(k.kind, k.span);
    }
    return valueWord(unit.map?.items, offset, { approval: APPROVAL_MEANING });
  }
  for (const tool of model.tools.values()) {
    if (!within(tool.valueSpan)) continue;
    return valueWord(tool.map?.items, offset, { class: classMeanings(), approval: APPROVAL_MEANING });
  }
  for (const input of model.inputs.values()) {
    if (within(input.valueSpan)) return valueWord(input.map?.items, offset, { kind: INPUT_KIND_MEANING });
  }
  for (const verifier of model.verifiers.values()) {
    if (within(verifier.valueSpan)) return valueWord(verifier.map?.items, offset, { kind: VERIFIER_KIND_MEANING });
  }
  // `on:` of impact rules
  const rules = model.sections.get("impact");
  if (rules && within(spanOfNode(rules.value))) {
    const word = wordAt(analysis.text, offset);
    if (word && (EDGE_KINDS as readonly string[]).includes(word.text)) return edgeKind(word.text, word.span);
  }
  return undefined;
}

function classMeanings(): Record<string, string> {
  return Object.fromEntries(RECOVERY_CLASSES.map((c: RecoveryClass) => [c, `recovery class **${c}**: ${RECOVERY_CLASS_MEANING[c]}`]));
}

function edgeKind(kind: string, span: Span): { text: string; span: Span } | undefined {
  const meaning = EDGE_KIND_MEANING[kind as EdgeKind];
  return meaning ? { text: `edge kind **${kind}**: ${meaning}`, span } : undefined;
}

function valueWord(
  pairs: Pair[] | undefined,
  offset: number,
  meanings: Record<string, Record<string, string>>,
): { text: string; span: Span } | undefined {
  for (const pair of pairs ?? []) {
    if (!isScalar(pair.key) || !isScalar(pair.value)) continue;
    const table = meanings[String(pair.key.value)];
    const span = spanOfNode(pair.value);
    if (!table || !(span.start <= offset && offset <= span.end)) continue;
    const value = String(pair.value.value);
    const meaning = table[value];
    if (meaning) return { text: meaning.startsWith("recovery class") ? meaning : `**${value}**: ${meaning}`, span };
  }
  return undefined;
}

function spanOfNode(node: unknown): Span {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range ? { start: range[0], end: range[1] } : { start: -1, end: -1 };
}

function wordAt(text: string, offset: number): { text: string; span: Span } | undefined {
  let start = offset;
  let end = offset;
  while (start > 0 && /[\w-]/.test(text[start - 1]!)) start--;
  while (end < text.length && /[\w-]/.test(text[end]!)) end++;
  return end > start ? { text: text.slice(start, end), span: { start, end } } : undefined;
}
