/**
 * The server's custom requests, as the extension calls them. Names and payload
 * types come from the language server's declared export
 * `@taskspec/lsp/protocol` (lsp/src/protocol.ts, the one definition,
 * documented in lsp/README.md); the bundle only takes its string constants.
 */
import { Requests, type EdgeKind, type ImpactParams } from "@taskspec/lsp/protocol";

export type { EdgeKind };
export type {
  GraphParams,
  GraphResult,
  ImpactOfEditParams,
  ImpactOfEditResult,
  ImpactParams,
  ImpactResult,
  InvalidatedUnit,
  PlanParams,
  PlanResult,
} from "@taskspec/lsp/protocol";

/** The compiler's edge kinds (its EDGE_KINDS); the client bundles none of the compiler's code. */
export const EDGE_KINDS: readonly EdgeKind[] = ["content", "structure", "policy", "audience"];

/** A change the user asks about: "all" means every kind. */
export type ChangeKinds = NonNullable<ImpactParams["kinds"]>;

/** The code lens command's argument (lsp/README.md, "Code lens"). */
export interface ShowImpactArgument {
  uri: string;
  node: string;
}

export const Methods = {
  ...Requests,
  showImpactCommand: "taskspec.showImpact",
} as const;
