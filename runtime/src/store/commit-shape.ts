/**
 * What a checkpoint commit writes, independent of the backend: the header
 * fields of one commit and the events recorded with it. Both stores call
 * these so a checkpoint means the same thing on SQLite and PostgreSQL.
 */
import type { BudgetAmounts, CheckpointHeader, RunEvent } from "../model/facts.js";
import type { CheckpointCommit } from "./types.js";

export function checkpointFields(
  c: CheckpointCommit,
  at: { planVersion: string; inputVersion: string; budgetUsed: BudgetAmounts; delta: CheckpointHeader["delta"] },
  committedAt: string,
): Omit<CheckpointHeader, "run" | "version" | "parent" | "digest"> {
  return {
    kind: c.kind,
    planVersion: at.planVersion,
    inputVersion: at.inputVersion,
    budgetUsed: at.budgetUsed,
    approvals: c.approvals,
    nextAction: c.nextAction,
    delta: at.delta,
    createdAt: c.now,
    committedAt,
  };
}

export function commitEvents(c: CheckpointCommit, version: number): Array<Omit<RunEvent, "run" | "seq">> {
  return [...c.events, { at: c.now, type: "checkpoint-committed", data: { version, kind: c.kind } }];
}
