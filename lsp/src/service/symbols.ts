/**
 * Document symbols (the outline: task, inputs, tools, verifiers, and units
 * grouped by phase) and workspace symbols (every declared name in every
 * analysed contract). Both come from the syntax model, so they work on broken
 * text too.
 */
import type { Decl, Span } from "@taskspec/compiler";
import { SymbolKind, type DocumentSymbol, type SymbolInformation } from "vscode-languageserver";
import type { Analysis } from "./analysis.js";
import { scalarValue } from "./decl-values.js";
import { locationOf, rangeOf } from "./lsp-ranges.js";

const KIND = {
  unit: SymbolKind.Function,
  input: SymbolKind.Variable,
  tool: SymbolKind.Method,
  verifier: SymbolKind.Boolean,
  artifact: SymbolKind.File,
} as const;

/** Hierarchical outline; `flat` gives SymbolInformation[] for clients without hierarchy support. */
export function documentSymbols(analysis: Analysis, flat = false): DocumentSymbol[] | SymbolInformation[] {
  const { model } = analysis.parsed;
  if (flat) {
    const out: SymbolInformation[] = [];
    for (const decls of [model.inputs, model.tools, model.verifiers]) {
      for (const d of decls.values()) out.push({ name: d.name, kind: KIND[d.kind], location: locationOf(analysis, whole(d)) });
    }
    for (const d of model.units.values()) {
      out.push({ name: d.name, kind: KIND.unit, containerName: phaseOf(d) ?? "units", location: locationOf(analysis, whole(d)) });
    }
    return out;
  }
  const symbols: DocumentSymbol[] = [];
  for (const [section, pair] of model.sections) {
    const key = pair.key as { range?: [number, number, number] } | null;
    const value = pair.value as { range?: [number, number, number] } | null;
    if (!key?.range) continue;
    const selection: Span = { start: key.range[0], end: key.range[1] };
    const span: Span = { start: key.range[0], end: Math.max(value?.range?.[1] ?? key.range[1], key.range[1]) };
    const children =
      section === "units"
        ? unitsByPhase(analysis)
        : section === "inputs"
          ? [...model.inputs.values()].map((d) => symbolOf(analysis, d))
          : section === "tools"
            ? [...model.tools.values()].map((d) => symbolOf(analysis, d))
            : section === "verifiers"
              ? [...model.verifiers.values()].map((d) => symbolOf(analysis, d))
              : [];
    symbols.push({
      name: section,
      kind: SymbolKind.Namespace,
      range: rangeOf(analysis, span),
      selectionRange: rangeOf(analysis, selection),
      children,
    });
  }
  return symbols;
}

function unitsByPhase(analysis: Analysis): DocumentSymbol[] {
  const groups = new Map<string, Decl[]>();
  for (const unit of analysis.parsed.model.units.values()) {
    const phase = phaseOf(unit) ?? "(no phase)";
    const group = groups.get(phase);
    if (group) group.push(unit);
    else groups.set(phase, [unit]);
  }
  return [...groups].map(([phase, units]) => {
    const first = units[0]!;
    const span: Span = { start: Math.min(...units.map((u) => u.keySpan.start)), end: Math.max(...units.map((u) => whole(u).end)) };
    return {
      name: `phase ${phase}`,
      detail: `${units.length} unit${units.length === 1 ? "" : "s"}`,
      kind: SymbolKind.Namespace,
      range: rangeOf(analysis, span),
      selectionRange: rangeOf(analysis, first.keySpan),
      children: units.map((u) => symbolOf(analysis, u)),
    };
  });
}

function symbolOf(analysis: Analysis, decl: Decl): DocumentSymbol {
  const phase = decl.kind === "unit" ? phaseOf(decl) : undefined;
  const symbol: DocumentSymbol = {
    name: decl.name,
    kind: KIND[decl.kind],
    range: rangeOf(analysis, whole(decl)),
    selectionRange: rangeOf(analysis, decl.keySpan),
  };
  if (phase) symbol.detail = phase;
  return symbol;
}

function whole(decl: Decl): Span {
  return { start: decl.keySpan.start, end: Math.max(decl.keySpan.end, decl.valueSpan.end) };
}

function phaseOf(unit: Decl): string | undefined {
  return scalarValue(unit, "phase");
}

/** Every declaration whose name contains the query's characters in order (case-insensitive). */
export function workspaceSymbols(analyses: readonly Analysis[], query: string): SymbolInformation[] {
  const q = query.toLowerCase();
  const out: SymbolInformation[] = [];
  for (const analysis of analyses) {
    const { model } = analysis.parsed;
    for (const decls of [model.units, model.inputs, model.tools, model.verifiers] as ReadonlyMap<string, Decl>[]) {
      for (const d of decls.values()) {
        if (!matches(d.name.toLowerCase(), q)) continue;
        const info: SymbolInformation = { name: d.name, kind: KIND[d.kind], location: locationOf(analysis, whole(d)) };
        info.containerName = d.kind === "unit" ? (phaseOf(d) ?? "units") : `${d.kind}s`;
        out.push(info);
      }
    }
  }
  return out;
}

function matches(name: string, query: string): boolean {
  let at = 0;
  for (const c of query) {
    at = name.indexOf(c, at) + 1;
    if (at === 0) return false;
  }
  return true;
}
