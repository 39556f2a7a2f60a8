/**
 * What every semantic check receives: the positioned model (for spans), the
 * schema-valid contract (for values), the dependency graph and a sink. Checks
 * are functions `(ctx) => void`, one module per family of codes.
 */
import type { Span } from "../diagnostics/types.js";
import type { ParsedContract } from "../parse/index.js";
import { keySpanAt, nodeAtPath, valueSpanAt } from "../parse/path.js";
import type { ContractSpec } from "../schema/contract.js";
import type { DiagnosticSink } from "../source/diagnostic.js";
import { SUGGESTION_COMPARISONS, type SuggestionBudget } from "../source/suggest.js";
import { buildGraph, type UnitGraph } from "./graph.js";

export interface CheckContext {
  text: string;
  parsed: ParsedContract;
  contract: ContractSpec;
  graph: UnitGraph;
  sink: DiagnosticSink;
  /** Span of the key at a path from the document root (falls back to the nearest existing ancestor). */
  keySpan(path: (string | number)[]): Span;
  /** Span of the value at a path from the document root (falls back likewise). */
  valueSpan(path: (string | number)[]): Span;
  /** The did-you-mean comparisons left for this contract (pass to `closest`). */
  suggestions: SuggestionBudget;
}

export type Check = (ctx: CheckContext) => void;

export function createContext(text: string, parsed: ParsedContract, contract: ContractSpec, sink: DiagnosticSink): CheckContext {
  const root = parsed.doc?.contents;
  const locate = (path: (string | number)[], pick: "key" | "value"): Span => {
    for (let n = path.length; n >= 0; n--) {
      const target = nodeAtPath(root, path.slice(0, n), parsed.aliases);
      if (!target.node && !target.pair) continue;
      const fallback = { start: 0, end: 0 };
      return pick === "key" || n < path.length ? keySpanAt(target, fallback) : valueSpanAt(target, fallback);
    }
    return { start: 0, end: 0 };
  };
  return {
    text,
    parsed,
    contract,
    graph: buildGraph(contract),
    sink,
    keySpan: (path) => locate(path, "key"),
    valueSpan: (path) => locate(path, "value"),
    suggestions: { left: SUGGESTION_COMPARISONS },
  };
}
