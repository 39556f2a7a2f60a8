/**
 * The positioned syntax model: what each declaration is called and where its
 * key and value are, and every place a name is referred to. Built from the
 * YAML tree even when the contract is broken, so editors can use it on every
 * keystroke (go to definition, references, rename, symbols, completion).
 */
import type { Pair, Scalar, YAMLMap } from "yaml";
import type { Span } from "../diagnostics/types.js";

export type DeclKind = "unit" | "input" | "tool" | "verifier" | "artifact";

/** A named declaration: `units.<name>`, `inputs.<name>`, `tools.<name>`, `verifiers.<name>`. */
export interface Decl {
  kind: DeclKind;
  name: string;
  /** The name as written (the mapping key). */
  keySpan: Span;
  /** The definition after the colon (zero-width at the key's end when empty). */
  valueSpan: Span;
  /** The YAML pair; absent for artifacts, which are declared by `produces` entries. */
  pair?: Pair;
  /** The definition's mapping node, when it is a mapping. */
  map?: YAMLMap;
}

/** One entry of a unit's `needs`: the upstream name and each edge kind with its span. */
export interface NeedEntry {
  name: string;
  span: Span;
  /** Span of the value (the kind or the list of kinds). */
  valueSpan: Span;
  kinds: { kind: string; span: Span }[];
}

export interface UnitDecl extends Decl {
  kind: "unit";
  needs: NeedEntry[];
}

/** An artifact exists because some unit `produces` it; keySpan is the first producer's entry. */
export interface ArtifactDecl extends Decl {
  kind: "artifact";
  producers: { unit: string; span: Span }[];
}

/**
 * Where a name is used. Targets by kind:
 * `needs` unit or input; `uses`, `lookup`, `compensate` tool; `verify`, `done`
 * verifier; `produces`, `outputs` artifact; `invalidate` unit; `at` unit or input.
 */
export type RefKind = "needs" | "uses" | "verify" | "done" | "lookup" | "compensate" | "produces" | "outputs" | "invalidate" | "at";

export interface Owner {
  kind: "unit" | "tool" | "task" | "impact" | "verifier";
  /** Unit/tool/verifier name, `task`, or the impact rule's index. */
  name: string;
}

export interface RefSite {
  kind: RefKind;
  name: string;
  span: Span;
  owner: Owner;
}

/**
 * An expression or template in the source: a `check` (unit verify, verifier,
 * task.done), a loop `until`, a tool `key` template, a compensation `with`
 * template or a compensation's `compensated` condition. `scalar` is the YAML string node: its range maps expression
 * offsets to document offsets (see scalarOffsetMapper).
 */
export interface ExprSite {
  kind: "check" | "until" | "key" | "with" | "compensated" | "queue-key";
  mode: "expression" | "template";
  source: string;
  scalar: Scalar;
  span: Span;
  owner: Owner;
  /** JSON path of the scalar from the document root, e.g. `["units", "S04", "loop", "until"]`. */
  path: (string | number)[];
  /** For `with`: the argument name. */
  argument?: string;
}

export interface ContractModel {
  /** The top-level mapping, if the document is one. */
  root?: YAMLMap;
  /** Top-level pairs by key (first occurrence). */
  sections: Map<string, Pair>;
  units: Map<string, UnitDecl>;
  inputs: Map<string, Decl>;
  tools: Map<string, Decl>;
  verifiers: Map<string, Decl>;
  artifacts: Map<string, ArtifactDecl>;
  /** Every reference site, in source order within each section. */
  references: RefSite[];
  expressions: ExprSite[];
}

/** What is at an offset: a declaration's key, or a reference. */
export type SymbolAt = { type: "declaration"; decl: Decl } | { type: "reference"; ref: RefSite };
