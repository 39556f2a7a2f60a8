/**
 * The server's custom requests, as the extension calls them. Names and payload
 * types come from lsp/src/protocol.ts (the one definition, documented in
 * lsp/README.md); the bundle only takes its string constants.
 */
import type { EdgeKind, Plan } from "@taskspec/compiler";
import type { ImpactResult, ImpactOfEditResult, GraphResult, ImpactOfEditParams, GraphParams } from "../../lsp/src/protocol.js";
import { Requests } from "../../lsp/src/protocol.js";

export type { EdgeKind, ImpactResult, ImpactOfEditResult, GraphResult, ImpactOfEditParams, GraphParams };
export type { InvalidatedUnit } from "../../lsp/src/protocol.js";

/** The compiler's edge kinds (its EDGE_KINDS); the client bundles none of the compiler's code. */
export const EDGE_KINDS: readonly EdgeKind[] = ["content", "structure", "policy", "audience"];

/** A change the user asks about: kinds omitted or "all" means every kind. */
export type ChangeKinds = EdgeKind[] | "all";

/** `taskspec/impact` with the change kinds the preview command lets the user pick. */
export interface ImpactParams {
  uri: string;
  node: string;
  kinds?: ChangeKinds;
}

/** `taskspec/plan`: the compiled plan of an open buffer or a scanned contract. */
export interface PlanParams {
  uri: string;
}
export interface PlanResult {
  plan?: Plan;
  errors: number;
  warnings: number;
}

/** The code lens command's argument (lsp/README.md, "Code lens"). */
export interface ShowImpactArgument {
  uri: string;
  node: string;
}

export const Methods = {
  impact: Requests.impact,
  impactOfEdit: Requests.impactOfEdit,
  graph: Requests.graph,
  plan: "taskspec/plan",
  showImpactCommand: "taskspec.showImpact",
} as const;
