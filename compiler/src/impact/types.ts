/**
 * The impact engine's vocabulary: a change at a node, and the report of what it
 * invalidates with one shortest explanation per unit. These are plain data so
 * the CLI can print them as JSON and the runtime can persist them.
 */
import type { EdgeKind } from "../plan/schema.js";

/** A change at an input or a unit, in some edge kinds (`all` = every kind). */
export interface Change {
  origin: string;
  kinds: EdgeKind[] | "all";
}

/**
 * A change as it arrives from outside the type checker's reach (CLI flags, LSP
 * requests, JSON): the kinds are not checked yet. Unknown ones are reported in
 * `ImpactReport.unmatched`, never silently dropped.
 */
export interface ChangeInput {
  origin: string;
  kinds: readonly string[] | "all";
}

/**
 * Why a unit is invalidated, as a chain back to one original change. Each link
 * is one hop of the shortest explanation path; `kind` is the edge kind the
 * change travelled in on that hop (the one that met the carried kinds).
 */
export type CauseTree =
  | {
      type: "change";
      /** Index into `ImpactReport.changes`. */
      change: number;
      origin: string;
      kind: EdgeKind;
    }
  | {
      type: "edge";
      from: string;
      to: string;
      kind: EdgeKind;
      /** All kinds the edge declares (`needs`). */
      edgeKinds: EdgeKind[];
      because: CauseTree;
    }
  | {
      type: "rule";
      /** Index into `plan.impactRules`. */
      rule: number;
      on: EdgeKind;
      at?: string;
      /** The node where the change that fired the rule was. */
      from: string;
      to: string;
      because: CauseTree;
    };

export interface InvalidatedUnit {
  unit: string;
  phase: string;
  /** e.g. `S04 --structure--> A01 --content--> F01`; a rule hop reads `U27 ==audience rule==> U26`. */
  path: string;
  cause: CauseTree;
}

export const UnmatchedCodes = {
  /** The origin names no input and no unit. */
  unknownNode: "unknown-node",
  /** A kind is not an edge kind. */
  unknownKind: "unknown-kind",
  /** Valid origin and kinds, but no edge from the origin meets them and no rule fires. */
  noMatchingEdge: "no-matching-edge",
} as const;
export type UnmatchedCode = (typeof UnmatchedCodes)[keyof typeof UnmatchedCodes];

export interface Unmatched {
  change: ChangeInput;
  code: UnmatchedCode;
  /** One sentence for people, with a did-you-mean where one is close. */
  reason: string;
  didYouMean?: string;
}

export interface ImpactReport {
  /** The changes as given, in order; `CauseTree.change` indexes this list. */
  changes: ChangeInput[];
  /** Invalidated units in plan order (topological, then id). */
  invalidated: InvalidatedUnit[];
  /** Units that stay valid, in plan order. */
  kept: string[];
  /** Units that are the origin of a change and are not invalidated by another one. */
  origins: string[];
  /** Changes that matched nothing; a typo'd origin or kind lands here. */
  unmatched: Unmatched[];
}
