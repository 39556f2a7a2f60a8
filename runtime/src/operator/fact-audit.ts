/**
 * Does the run's stored state agree with its checkpoint chain? The chain's
 * digests cover the checkpoint rows only; resume also reads the run row
 * (version, plan, budget used), the unit rows (state, current record) and
 * the current records' content (result and sources). This audit replays the
 * chain and compares: an edit of those rows outside a checkpoint (budget used
 * lowered, a unit marked succeeded, its record swapped, its result rewritten)
 * is reported as such. Pure: facts in, problems out.
 */
import { BrokenChainError, verifyChain } from "../engine/chain.js";
import { BUDGET_NAMES, type BudgetAmounts, type CheckpointHeader, type CommittedUnitState, type UnitRecord } from "../model/facts.js";
import { recordContentDigest, type ChainLink } from "../model/checkpoint-digest.js";
import type { RunFacts } from "../store/types.js";
import { releasedSince } from "../store/booking.js";
import type { RunEvent } from "../model/facts.js";

export interface FactAudit {
  /** true when the chain verifies and every audited fact agrees with it. */
  verified: boolean;
  checkpoints: number;
  /** One sentence per disagreement, naming the row and both values. */
  problems: string[];
  /** What the audit cannot see, said plainly. */
  notCovered: string;
}

export const NOT_COVERED =
  "artifacts are checked by digest on resume, not here; records committed before record digests were chained are not compared; events are not chained (a budget-settled event after the last checkpoint lowers the budget used it expects)";

/**
 * `records`: the run's unit records (Store.getRecords); the current record of
 * each succeeded unit is compared with the content digest its commit chained.
 * `settlements`: the run's `budget-settled` events; a booking released after
 * the last checkpoint lowered the budget used below its figure by that much.
 */
export function auditFacts(
  links: readonly ChainLink[],
  facts: RunFacts,
  records: readonly UnitRecord[] = [],
  settlements: readonly Pick<RunEvent, "data">[] = [],
): FactAudit {
  const problems: string[] = [];
  try {
    verifyChain(links);
  } catch (err) {
    if (!(err instanceof BrokenChainError)) throw err;
    problems.push(err.message);
    return { verified: false, checkpoints: links.length, problems, notCovered: NOT_COVERED };
  }
  const last = links[links.length - 1]?.material;
  const run = facts.run;
  if (!last) {
    problems.push(`run ${run.run} has no checkpoint`);
    return { verified: false, checkpoints: 0, problems, notCovered: NOT_COVERED };
  }
  if (run.version !== last.version) problems.push(`the run row says version ${run.version}, the chain ends at ${last.version}`);
  if (run.planVersion !== last.planVersion)
    problems.push(`the run row says plan ${run.planVersion}, the last checkpoint ${last.planVersion}`);
  if (run.inputVersion !== last.inputVersion)
    problems.push(`the run row says inputs ${run.inputVersion}, the last checkpoint ${last.inputVersion}`);
  problems.push(...budgetProblems(run.budgetUsed, JSON.parse(last.budgetUsed) as BudgetAmounts, releasedSince(settlements, last.version)));
  problems.push(...unitProblems(links, facts));
  problems.push(...recordProblems(links, facts, records));
  return { verified: problems.length === 0, checkpoints: links.length, problems, notCovered: NOT_COVERED };
}

/**
 * Budget used only grows but for bookings released since the last checkpoint (store/booking.ts): a
 * figure below the last checkpoint's less those releases was edited (charges after it may raise it).
 */
function budgetProblems(used: BudgetAmounts, atCheckpoint: BudgetAmounts, released: BudgetAmounts): string[] {
  return BUDGET_NAMES.filter((k) => (used[k] ?? 0) + (released[k] ?? 0) < (atCheckpoint[k] ?? 0)).map(
    (k) =>
      `budget ${k} used is ${used[k] ?? 0}, below the ${atCheckpoint[k]} the last checkpoint recorded${released[k] ? ` (${released[k]} of it released since by settled bookings)` : ""}`,
  );
}

/** Each unit's committed state and current record, as the chain's deltas leave them. */
function unitProblems(links: readonly ChainLink[], facts: RunFacts): string[] {
  const expected = new Map<string, { state: CommittedUnitState; record: number | undefined; version: number }>();
  for (const { material } of links) {
    for (const d of JSON.parse(material.delta) as CheckpointHeader["delta"])
      expected.set(d.unit, { state: d.state, record: d.record, version: material.version });
  }
  const problems: string[] = [];
  for (const u of facts.units) {
    const e = expected.get(u.unit) ?? { state: "pending" as const, record: undefined, version: 0 };
    if (u.state !== e.state) problems.push(`unit ${u.unit} is ${u.state} in its row, ${e.state} by the chain (checkpoint ${e.version})`);
    else if (e.state === "succeeded" && u.currentRecord !== e.record)
      problems.push(`unit ${u.unit}'s current record is ${u.currentRecord ?? "none"}, the chain committed record ${e.record}`);
  }
  return problems;
}

/** Each succeeded unit's current record against the content digest chained when it was inserted. */
function recordProblems(links: readonly ChainLink[], facts: RunFacts, records: readonly UnitRecord[]): string[] {
  const chained = new Map<number, { content: string; version: number }>();
  for (const { material } of links) {
    for (const d of JSON.parse(material.delta) as CheckpointHeader["delta"])
      if (d.record !== undefined && d.content !== undefined) chained.set(d.record, { content: d.content, version: material.version });
  }
  const byId = new Map(records.map((r) => [r.id, r]));
  const problems: string[] = [];
  for (const u of facts.units) {
    if (u.state !== "succeeded" || u.currentRecord === undefined) continue;
    const c = chained.get(u.currentRecord);
    if (!c) continue;
    const r = byId.get(u.currentRecord);
    if (!r) problems.push(`unit ${u.unit}'s current record ${u.currentRecord} is missing from the store`);
    else if (recordContentDigest(r.result, r.sources) !== c.content)
      problems.push(`unit ${u.unit}'s record ${u.currentRecord} (result or sources) differs from what checkpoint ${c.version} committed`);
  }
  return problems;
}
