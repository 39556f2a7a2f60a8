/**
 * parseContract: text -> positioned syntax model + C001/C011 diagnostics.
 * The first phase of compile(), and what editors build on between keystrokes.
 */
import type { Document } from "yaml";
import type { Diagnostic } from "../diagnostics/types.js";
import { DiagnosticSink } from "../source/diagnostic.js";
import { LineIndex } from "../source/line-index.js";
import { buildModel } from "./build-model.js";
import { DEFAULT_LIMITS, type Limits } from "./limits.js";
import type { ContractModel, Decl, SymbolAt } from "./model.js";
import { parseYaml } from "./parse-yaml.js";
import type { Reusable } from "./incremental.js";
import type { AliasTable } from "./yaml-nodes.js";

export interface ParsedContract {
  model: ContractModel;
  /** C001 (syntax, binary, size, nesting) and C011 (duplicate keys). */
  diagnostics: Diagnostic[];
  /** Offset <-> 0-based line/character for this text. */
  lines: LineIndex;
  /** The yaml Document (absent when the text was refused before parsing). */
  doc?: Document.Parsed;
  /** Alias node -> anchored node, for walking the tree through aliases. */
  aliases: AliasTable;
  /** True when the YAML is broken (C001): later phases do not run. */
  syntaxBroken: boolean;
  /** The text and tree to hand to the next version's parse (see `previous` below); absent when the general YAML parser was needed. */
  reusable?: Reusable;
}

/**
 * Parses a contract's text into a positioned model. Never throws on user input.
 * `previous` is the `reusable` of the parse of an earlier version of the same
 * document: an edit inside one unit re-parses only that unit. Its tree is
 * consumed (shifted in place), so that earlier parse must not be used again.
 */
export function parseContract(text: string, limits: Limits = DEFAULT_LIMITS, previous?: Reusable): ParsedContract {
  const lines = new LineIndex(text);
  const sink = new DiagnosticSink(lines);
  const parsed = parseYaml(text, sink, limits, previous);
  const model = buildModel(parsed.doc?.contents, parsed.aliases);
  const result: ParsedContract = {
    model,
    diagnostics: sink.diagnostics,
    lines,
    aliases: parsed.aliases,
    syntaxBroken: parsed.syntaxBroken,
  };
  if (parsed.doc) result.doc = parsed.doc;
  if (parsed.doc && parsed.fast && !parsed.syntaxBroken) result.reusable = { text, doc: parsed.doc };
  return result;
}

/** The declaration key or reference under `offset`, if any (for hover, definition, rename). */
export function symbolAt(model: ContractModel, offset: number): SymbolAt | undefined {
  const inside = (s: { start: number; end: number }) => s.start <= offset && offset <= s.end && s.end > s.start;
  for (const ref of model.references) if (inside(ref.span)) return { type: "reference", ref };
  for (const map of [model.units, model.inputs, model.tools, model.verifiers] as Map<string, Decl>[]) {
    for (const decl of map.values()) if (inside(decl.keySpan)) return { type: "declaration", decl };
  }
  return undefined;
}

/** The declaration a reference resolves to (units before inputs for `needs`/`at`). */
export function resolveReference(model: ContractModel, ref: { kind: string; name: string }): Decl | undefined {
  switch (ref.kind) {
    case "needs":
    case "at":
      return model.units.get(ref.name) ?? model.inputs.get(ref.name);
    case "invalidate":
      return model.units.get(ref.name);
    case "uses":
    case "lookup":
    case "compensate":
      return model.tools.get(ref.name);
    case "verify":
    case "done":
      return model.verifiers.get(ref.name);
    case "produces":
    case "outputs":
      return model.artifacts.get(ref.name);
    default:
      return undefined;
  }
}

export { DEFAULT_LIMITS, type Limits } from "./limits.js";
export type { Reusable } from "./incremental.js";
export type * from "./model.js";
