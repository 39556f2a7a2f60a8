/**
 * yaml nodes -> plain JSON-like values for schema validation and the plan.
 * First key wins (as in the model; later duplicates are C011). A `__proto__`
 * key is defined as an own property, never a prototype. Aliases are expanded with a
 * budget: an alias bomb stops with C001 instead of exhausting memory.
 */
import { isAlias, isMap, isScalar, isSeq, type Node } from "yaml";
import type { DiagnosticSink } from "../source/diagnostic.js";
import type { Limits } from "./limits.js";
import { DEFINITION_DEPTH, keyName, resolve, type AliasTable } from "./yaml-nodes.js";
import { frozenInTests, identityMemo } from "../memo.js";

export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

const MAX_ALIAS_EXPANSION = 100_000;

/**
 * The plain value of each definition (a unit, tool, input, ... two levels
 * down), by node. Nodes are never changed after parsing, and an incremental
 * re-parse keeps the nodes of every definition it did not touch, so an editor
 * converts only the edited one. Only for trees without aliases, whose
 * expansion is counted per conversion.
 */
const definitions = identityMemo<Node, Plain>("parse/to-plain: plain value by definition node", { acrossCompilesOnly: true });

export function toPlain(root: unknown, aliases: AliasTable, sink: DiagnosticSink, limits: Limits): { value: Plain; ok: boolean } {
  let expanded = 0;
  let ok = true;
  const memo = aliases.size === 0;
  const convert = (node: unknown, depth: number, viaAlias: boolean): Plain => {
    if (!ok || node === null || node === undefined) return null;
    let n = node as Node;
    if (isAlias(n)) {
      const target = resolve(n, aliases);
      if (!target) return null;
      n = target;
      viaAlias = true;
    }
    if (viaAlias && ++expanded > MAX_ALIAS_EXPANSION) {
      ok = false;
      const start = (node as Node).range?.[0] ?? 0;
      sink.report(
        "C001",
        { start, end: start + 1 },
        `aliases expand to more than ${MAX_ALIAS_EXPANSION} nodes; contracts do not need alias bombs`,
      );
      return null;
    }
    if (depth > limits.maxDepth) return null;
    if (depth === DEFINITION_DEPTH && memo && !viaAlias && (isMap(n) || isSeq(n))) {
      const known = definitions.get(n);
      if (known !== undefined) return known;
      const value = convertNode(n, depth, viaAlias);
      if (ok) definitions.set(n, value);
      return value;
    }
    return convertNode(n, depth, viaAlias);
  };
  const convertNode = (n: Node, depth: number, viaAlias: boolean): Plain => {
    if (isScalar(n)) {
      const v = n.value;
      if (v === null || v === undefined) return null;
      if (typeof v === "boolean" || typeof v === "number" || typeof v === "string") return v;
      if (typeof v === "bigint") return Number(v);
      return String(v);
    }
    if (isSeq(n)) return n.items.map((item) => convert(item, depth + 1, viaAlias));
    if (isMap(n)) {
      const out: { [key: string]: Plain } = {};
      for (const pair of n.items) {
        const key = keyName(pair);
        if (Object.prototype.hasOwnProperty.call(out, key)) continue;
        const value = convert(pair.value, depth + 1, viaAlias);
        if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
        else out[key] = value;
      }
      return out;
    }
    return null;
  };
  const value = convert(root, 0, false);
  // shared with later compiles through the memo, and read by the plan: never mutated (memo.ts)
  return { value: frozenInTests(value), ok };
}
