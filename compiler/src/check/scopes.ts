/**
 * The names an expression may use, by where it appears. Every expression sees
 * `task`, `run`, `inputs`; unit checks and `until` also see `unit`, `attempt`,
 * `result` (the unit's result, unknown JSON) and the unit's `needs` names (the
 * upstream results). Tool `key` templates see `unit`, `attempt` and `args`
 * (the call's arguments). Compensation `with` templates see `result` with
 * exactly the fields the tool declares, so a typo there is caught (C032).
 */
import type { ExprScope, ScopeEntry } from "../expr/index.js";
import type { ContractSpec, ToolSpec } from "../schema/contract.js";

const OPEN: ScopeEntry = { type: "any" };
const str: ScopeEntry = { type: "string" };
const num: ScopeEntry = { type: "number" };

/** Scopes are read-only, so the common part is built once per contract. */
const bases = new WeakMap<ContractSpec, ExprScope>();

function base(contract: ContractSpec): ExprScope {
  let scope = bases.get(contract);
  if (scope) return scope;
  const inputs: Record<string, ScopeEntry> = {};
  for (const name of Object.keys(contract.inputs ?? {})) inputs[name] = OPEN;
  scope = {
    task: { type: "object", fields: { id: str, version: num, goal: str } },
    run: { type: "object", fields: { id: str } },
    inputs: { type: "object", fields: inputs },
  };
  bases.set(contract, scope);
  return scope;
}

const UNIT: ScopeEntry = { type: "object", fields: { id: str, phase: str } };
const ATTEMPT: ScopeEntry = { type: "object", fields: { id: str, number: num } };

/**
 * Unit `verify` checks and `loop.until`: the unit's own result and its upstream results.
 * Built without a prototype: its keys include unit ids, a different set for
 * nearly every unit, and ordinary objects paid for a hidden class per key
 * added (a third of the expression phase at 10k units). It also makes a
 * need named like an Object.prototype member (`__proto__`) an ordinary name.
 */
export function unitScope(contract: ContractSpec, unitId: string): ExprScope {
  const scope: ExprScope = Object.assign(Object.create(null) as ExprScope, base(contract));
  scope.unit = UNIT;
  scope.attempt = ATTEMPT;
  scope.result = OPEN;
  for (const need of Object.keys(contract.units[unitId]?.needs ?? {})) scope[need] = OPEN;
  return scope;
}

/** Named verifiers are shared by units, so they see the result but no unit's needs. */
export function verifierScope(contract: ContractSpec): ExprScope {
  return { ...base(contract), unit: UNIT, attempt: ATTEMPT, result: OPEN };
}

/** task.done checks judge the final world: the task's result. */
export function doneScope(contract: ContractSpec): ExprScope {
  return { ...base(contract), result: OPEN };
}

export function keyScope(contract: ContractSpec): ExprScope {
  return { ...base(contract), unit: UNIT, attempt: ATTEMPT, args: OPEN };
}

/** `with` of a compensation: `result` is the compensated call's declared result; `closed: false` opens it. */
export function compensationScope(contract: ContractSpec, tool: ToolSpec, closed: boolean): ExprScope {
  const fields: Record<string, ScopeEntry> = {};
  for (const [field, type] of Object.entries(tool.result ?? {})) fields[field] = { type: type as ScopeEntry["type"] };
  return { ...keyScope(contract), result: closed ? { type: "object", fields } : OPEN };
}
