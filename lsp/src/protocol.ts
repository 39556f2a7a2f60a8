/**
 * The server's custom requests: names and payloads shared with any client
 * (the VS Code extension, the tests). Documented in lsp/README.md; change both
 * together.
 */
import type { EdgeKind, Plan } from "@taskspec/compiler";

// Clients take the payload types from here (`@taskspec/lsp/protocol`) and
// import nothing from the compiler.
export type { EdgeKind };

export const Requests = {
  /** What a change at one unit or input invalidates (same answer as the `taskspec.showImpact` command). */
  impact: "taskspec/impact",
  /** What the unsaved buffer would invalidate compared with the saved file or git HEAD. */
  impactOfEdit: "taskspec/impactOfEdit",
  /** The unit graph as DOT / Mermaid / SVG, optionally with a change highlighted. */
  graph: "taskspec/graph",
  /** The plan of the open buffer (or of a closed contract the workspace scan checked). */
  plan: "taskspec/plan",
} as const;

export interface ImpactParams {
  uri: string;
  /** A unit id or an input name. */
  node: string;
  /** The kinds of the change; omitted = "all". */
  kinds?: EdgeKind[] | "all";
}

export interface ImpactOfEditParams {
  uri: string;
  against: "saved" | "head";
}

export interface GraphParams {
  uri: string;
  /** Changes to highlight: `{ node, kinds }`, kinds omitted or "all" for every kind. */
  changes?: { node: string; kinds?: EdgeKind[] | "all" }[];
}

/**
 * One invalidated unit with the shortest explanation path, e.g. `audience --audience--> U27`.
 * `path` is absent for units beyond the answer's path budget (see `partial`);
 * a very long one has its middle elided as `--(N more hops)-->`.
 */
export interface InvalidatedUnit {
  unit: string;
  path?: string;
}

export interface ImpactResult {
  node: string;
  kinds: EdgeKind[] | "all";
  /** How many units the change invalidates, listed or not. */
  total: number;
  /** The first of them in plan order, at most 1,000 (`partial` says when some are not listed). */
  invalidated: InvalidatedUnit[];
  /** Invalidated counts for a change of each single edge kind at the node. */
  byKind: Record<EdgeKind, number>;
  /** Set when units or explanation paths were left out, or paths elided, to keep the answer small: says what. */
  partial?: string;
}

export interface ImpactOfEditResult {
  against: "saved" | "head";
  /** Set when the baseline could not be read or compiled; the lists are then empty. */
  unavailable?: string;
  /** The changes the edit makes, as impact origins. */
  changes: { node: string; kinds: "all" }[];
  /** How many units each list would hold in full; each list holds at most the first 1,000 (`partial` says when it was cut). */
  counts: { invalidated: number; kept: number; added: number; removed: number };
  invalidated: InvalidatedUnit[];
  kept: string[];
  added: string[];
  removed: string[];
  /** As in ImpactResult. */
  partial?: string;
}

export interface PlanParams {
  uri: string;
  /** Answer the plan's hash without the plan (a status bar needs a few bytes, not megabytes at 10,000 units). */
  hashOnly?: boolean;
}

export interface PlanResult {
  /** Absent when the contract has errors, and when `hashOnly` was asked. */
  plan?: Plan;
  /** The plan's hash; absent when the contract has errors. */
  planHash?: string;
  errors: number;
  warnings: number;
}

export interface GraphResult {
  dot: string;
  mermaid: string;
  /** Absent when the graph is too big to lay out, the layout failed or ran over its time budget (`partial` says which). */
  svg?: string;
  /**
   * Set when the answer is not the whole graph: a contract too big to draw gets a
   * one-node summary, a big one no SVG. One sentence, starting "Partial:".
   */
  partial?: string;
}
