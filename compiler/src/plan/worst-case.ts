/**
 * Worst-case cost: for each unit, (its own cost per attempt + the per-call
 * cost of each tool it uses, one call per tool per iteration) x loop max x
 * attempts (1 + retries); summed over units and compared with the budgets.
 * A tool call counts one `tool_calls` unless the tool declares otherwise.
 * Used by C040 and recorded in the plan.
 */
import type { ContractSpec, CostSpec } from "../schema/contract.js";
import type { BudgetName, Cost, WorstCase } from "./schema.js";

export const BUDGET_NAMES: readonly BudgetName[] = ["model_calls", "tool_calls", "tokens"];

export interface UnitCost {
  /** Own cost per attempt. */
  cost: Cost;
  /** Whole-unit worst case. */
  worstCase: Cost;
  loopMax: number;
  attempts: number;
}

export function costOf(spec: CostSpec | undefined): Cost {
  return { model_calls: spec?.model_calls ?? 0, tool_calls: spec?.tool_calls ?? 0, tokens: spec?.tokens ?? 0 };
}

/**
 * What one call of a tool costs: its declared cost, with at least one tool
 * call whatever it declares (none declared: exactly one). The compiler's worst
 * case, the plan's tool cost and the ledger's charge per call all read it, so
 * the worst case never says less than a run is charged.
 */
export function costPerToolCall(declared: Partial<Cost> | undefined): Cost {
  return { model_calls: declared?.model_calls ?? 0, tool_calls: Math.max(1, declared?.tool_calls ?? 1), tokens: declared?.tokens ?? 0 };
}

function boundOr(value: unknown, minimum: number, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value >= minimum ? value : fallback;
}

export function retriesOf(contract: ContractSpec, unitId: string): number {
  return boundOr(contract.units[unitId]!.retry?.max, 0, boundOr(contract.budgets?.retries, 0, 0));
}

export function unitCosts(contract: ContractSpec): Map<string, UnitCost> {
  const tools = contract.tools ?? {};
  const toolCosts = new Map(Object.entries(tools).map(([name, tool]) => [name, costPerToolCall(tool.cost)]));
  const out = new Map<string, UnitCost>();
  for (const id of Object.keys(contract.units)) {
    const unit = contract.units[id]!;
    const cost = costOf(unit.cost);
    const perIteration = { ...cost };
    for (const t of unit.uses ?? []) {
      const c = toolCosts.get(t);
      if (!c) continue;
      for (const name of BUDGET_NAMES) perIteration[name] += c[name];
    }
    const loopMax = unit.loop ? boundOr(unit.loop.max, 1, 1) : 1;
    const attempts = 1 + retriesOf(contract, id);
    const factor = loopMax * attempts;
    out.set(id, {
      cost,
      worstCase: {
        model_calls: perIteration.model_calls * factor,
        tool_calls: perIteration.tool_calls * factor,
        tokens: perIteration.tokens * factor,
      },
      loopMax,
      attempts,
    });
  }
  return out;
}

/** Totals, and for each budget the worst case exceeds, the units that dominate it. */
export function worstCase(contract: ContractSpec, costs: Map<string, UnitCost>): WorstCase {
  const total: Cost = { model_calls: 0, tool_calls: 0, tokens: 0 };
  for (const { worstCase: w } of costs.values()) for (const name of BUDGET_NAMES) total[name] += w[name];
  const exceeded: WorstCase["exceeded"] = [];
  for (const budget of BUDGET_NAMES) {
    const cap = contract.budgets?.[budget];
    if (cap === undefined || total[budget] <= cap) continue;
    exceeded.push({ budget, worst: total[budget], cap, dominant: dominant(costs, budget, total[budget]) });
  }
  return { total, exceeded };
}

/** Largest shares first, until they cover half the worst case (at most five units). */
function dominant(costs: Map<string, UnitCost>, budget: BudgetName, worst: number): { unit: string; amount: number }[] {
  const shares = [...costs].map(([unit, c]) => ({ unit, amount: c.worstCase[budget] })).filter((s) => s.amount > 0);
  shares.sort((a, b) => b.amount - a.amount || (a.unit < b.unit ? -1 : 1));
  const out: { unit: string; amount: number }[] = [];
  let covered = 0;
  for (const share of shares) {
    if (out.length === 5 || (out.length > 0 && covered * 2 >= worst)) break;
    out.push(share);
    covered += share.amount;
  }
  return out;
}
