/**
 * What must not differ between an incremental and a fresh check of the same
 * text (incremental.test.ts, incremental-versions.test.ts): the YAML tree
 * with its ranges, the model's spans, the diagnostics and the plan.
 */
import { isMap, isScalar, isSeq, type Node, type YAMLMap } from "yaml";
import type { CheckResult } from "../src/index.js";

function dump(node: unknown): unknown {
  if (node === null || node === undefined) return node;
  const n = node as Node;
  if (isScalar(n)) return { scalar: n.value, type: n.type, range: n.range, source: n.source };
  if (isMap(n)) return { map: n.items.map((p) => [dump(p.key), dump(p.value)]), range: n.range, flow: n.flow ?? false };
  if (isSeq(n)) return { seq: n.items.map(dump), range: n.range, flow: n.flow ?? false };
  return { other: String(n) };
}

export function observable(result: CheckResult) {
  const { model } = result.parsed;
  return {
    tree: dump(result.parsed.doc?.contents),
    diagnostics: result.diagnostics,
    units: [...model.units.values()].map((u) => ({ name: u.name, key: u.keySpan, value: u.valueSpan, needs: u.needs })),
    references: model.references,
    expressions: model.expressions.map((e) => ({ ...e, scalar: undefined })),
    plan: result.buildPlan?.(),
  };
}

/** The pairs of every section (units, inputs, tools, ...), to tell whether a result reused the previous tree. */
export function definitionPairs(result: CheckResult, section?: string): Set<unknown> {
  const root = result.parsed.doc?.contents as YAMLMap | undefined;
  const pairs = new Set<unknown>();
  for (const s of root?.items ?? []) {
    if (section !== undefined && !(isScalar(s.key) && s.key.value === section)) continue;
    if (isMap(s.value)) for (const p of s.value.items) pairs.add(p);
  }
  return pairs;
}
