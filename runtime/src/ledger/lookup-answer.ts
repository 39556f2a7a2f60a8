/**
 * What a lookup may answer: the tool's receipt, or null for "absent". Anything
 * else is refused before it is adopted: an array or a scalar, or a record
 * missing a field the contract declares in the tool's `result` or reads in
 * its `compensate` templates (`${result.x}`). Adopting such an answer would
 * make the effect COMMITTED with a receipt that names nothing (an adapter
 * answering `{ prs: [] }` for "absent"), so it blocks for a person instead.
 */
import type { ExprNode, PlanTool } from "@taskspec/compiler";
import type { ToolCallMeta } from "../handler-api.js";
import type { EffectRecord } from "../model/facts.js";

export type LookupAnswer = { kind: "absent" } | { kind: "found"; record: Record<string, unknown> } | { kind: "invalid"; why: string };

/** The `result.<field>` names the tool's compensation templates read. */
export function compensationFields(tool: PlanTool): string[] {
  const out = new Set<string>();
  const visit = (node: ExprNode): void => {
    if (node.type === "path") {
      const first = node.segments[0];
      if (node.root === "result" && first?.kind === "prop") out.add(first.name);
      for (const s of node.segments) if (s.kind === "index") visit(s.index);
    } else if (node.type === "unary") visit(node.operand);
    else if (node.type === "binary") {
      visit(node.left);
      visit(node.right);
    } else if (node.type === "call") node.args.forEach(visit);
  };
  for (const template of Object.values(tool.compensate?.with ?? {}))
    for (const part of template.parts) if ("expr" in part) visit(part.expr);
  return [...out];
}

/**
 * What a call made for an effect after the fact is called with (its lookup
 * in reconciliation and compensation, its compensator): the effect's run,
 * unit and attempt, the key the call is made under, and a fencing token (the
 * recovery lease's when one was taken, else the effect's own).
 */
export function lookupCallMeta(effect: EffectRecord, key: string, fencingToken: number = effect.token): ToolCallMeta {
  return {
    runId: effect.run,
    unitId: effect.unit,
    attemptId: `a${effect.attempt}`,
    key,
    fencingToken,
    signal: new AbortController().signal,
  };
}

export function classifyLookupAnswer(tool: PlanTool, lookupName: string, answer: unknown): LookupAnswer {
  if (answer === null || answer === undefined) return { kind: "absent" };
  if (typeof answer !== "object" || Array.isArray(answer)) {
    return {
      kind: "invalid",
      why: `lookup ${lookupName} answered ${Array.isArray(answer) ? "an array" : `a ${typeof answer}`}; a lookup must answer ${tool.name}'s receipt (an object) or null for absent`,
    };
  }
  const record = answer as Record<string, unknown>;
  const declared = Object.keys(tool.result ?? {}).map((f) => [f, `declared in ${tool.name}.result`] as const);
  const used = compensationFields(tool).map((f) => [f, `used by ${tool.name}.compensate`] as const);
  for (const [field, why] of [...declared, ...used]) {
    if (record[field] === undefined || record[field] === null) {
      return {
        kind: "invalid",
        why: `lookup ${lookupName} answered a record without field \`${field}\` (${why}; it has ${
          Object.keys(record)
            .map((k) => `\`${k}\``)
            .join(", ") || "no fields"
        }); not adopted`,
      };
    }
  }
  return { kind: "found", record };
}
