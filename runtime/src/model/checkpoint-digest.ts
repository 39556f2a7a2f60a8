/**
 * The checkpoint parent chain: each checkpoint's digest covers its parent's
 * digest and its own fields, in a fixed order, with objects exactly as the
 * store keeps them (JSON text). Verifying therefore rehashes stored text and
 * never re-serialises anything.
 */
import type { CheckpointHeader } from "./facts.js";
import { sha256 } from "./identity.js";

/** The stored form of a checkpoint's fields: objects as JSON text. */
export interface CheckpointMaterial {
  run: string;
  version: number;
  parent: number | null;
  kind: string;
  planVersion: string;
  inputVersion: string;
  budgetUsed: string;
  approvals: string;
  nextAction: string;
  delta: string;
  createdAt: string;
  committedAt: string;
}

export function materialOf(h: Omit<CheckpointHeader, "digest">): CheckpointMaterial {
  return {
    run: h.run,
    version: h.version,
    parent: h.parent,
    kind: h.kind,
    planVersion: h.planVersion,
    inputVersion: h.inputVersion,
    budgetUsed: JSON.stringify(h.budgetUsed),
    approvals: JSON.stringify(h.approvals),
    nextAction: JSON.stringify(h.nextAction),
    delta: JSON.stringify(h.delta),
    createdAt: h.createdAt,
    committedAt: h.committedAt,
  };
}

export function checkpointDigest(parentDigest: string, m: CheckpointMaterial): string {
  return sha256(
    [
      parentDigest,
      m.run,
      m.version,
      m.parent,
      m.kind,
      m.planVersion,
      m.inputVersion,
      m.budgetUsed,
      m.approvals,
      m.nextAction,
      m.delta,
      m.createdAt,
      m.committedAt,
    ].join("\n"),
  );
}

/** One link of the chain as stored: for verification without parsing. */
export interface ChainLink {
  material: CheckpointMaterial;
  digest: string;
}

/**
 * The digest of a unit record's content (its result and source digests, as
 * the store keeps them: JSON text), carried in the delta of the checkpoint
 * that inserts it. Resume hands the result downstream and decides re-runs by
 * the sources; both live in the record's row, outside the chain, so without
 * it an edit there went unnoticed.
 */
export function recordContentDigest(result: unknown, sources: unknown): string {
  return sha256(`${JSON.stringify(result ?? null)}\n${JSON.stringify(sources ?? null)}`);
}
