/**
 * The names an expression may use, by where it appears. Every expression sees
 * `task`, `run`, `inputs`; unit checks and `until` also see `unit`, `attempt`,
 * `result` (the unit's result, unknown JSON) and the unit's `needs` names (the
 * upstream results). Tool `key` templates see `unit`, `attempt`, `iteration`
 * (the loop iteration of the call, 1 outside loops) and `args` (the call's
 * arguments). Compensation `with` templates see `result` with
 * exactly the fields the tool declares, so a typo there is caught (C032).
 */
import type { ExprScope, ScopeEntry } from "../expr/index.js";
import { resultFieldType, type ContractSpec, type ToolSpec, type UnitSpec } from "../schema/contract.js";
import { identityMemo, lastMemo } from "../memo.js";

const OPEN: ScopeEntry = { type: "any" };
const str: ScopeEntry = { type: "string" };
const num: ScopeEntry = { type: "number" };

/**
 * Scopes are read-only and depend on names only, so one is shared for as long
 * as its names stay: the common part while the input names do (the last one
 * is kept across compiles), a unit's scope while its definition object does.
 * An editor's recompile keeps untouched units' objects (parse/to-plain.ts),
 * so their scopes, and the expressions compiled against them
 * (expressions.ts), carry over.
 */
const bases = identityMemo<ContractSpec, ExprScope>("check/scopes: common scope by contract");
const lastBase = lastMemo<string, ExprScope>("check/scopes: the last common scope, by input names");

function base(contract: ContractSpec): ExprScope {
  let scope = bases.get(contract);
  if (scope) return scope;
  const names = Object.keys(contract.inputs ?? {});
  const key = JSON.stringify(names);
  scope = lastBase.get(key);
  if (!scope) {
    const inputs: Record<string, ScopeEntry> = {};
    for (const name of names) inputs[name] = OPEN;
    scope = {
      task: { type: "object", fields: { id: str, version: num, goal: str } },
      run: { type: "object", fields: { id: str } },
      inputs: { type: "object", fields: inputs },
    };
    lastBase.set(key, scope);
  }
  bases.set(contract, scope);
  return scope;
}

const UNIT: ScopeEntry = { type: "object", fields: { id: str, phase: str } };
const ATTEMPT: ScopeEntry = { type: "object", fields: { id: str, number: num } };
const unitScopes = identityMemo<UnitSpec, { base: ExprScope; scope: ExprScope }>("check/scopes: scope by unit definition");

/**
 * Unit `verify` checks and `loop.until`: the unit's own result and its upstream results.
 * Built without a prototype: its keys include unit ids, a different set for
 * nearly every unit, and ordinary objects paid for a hidden class per key
 * added (a third of the expression phase at 10k units). It also makes a
 * need named like an Object.prototype member (`__proto__`) an ordinary name.
 */
export function unitScope(contract: ContractSpec, unitId: string): ExprScope {
  const unit = contract.units[unitId];
  const common = base(contract);
  const known = unit && unitScopes.get(unit);
  if (known && known.base === common) return known.scope;
  const scope: ExprScope = Object.assign(Object.create(null) as ExprScope, common);
  scope.unit = UNIT;
  scope.attempt = ATTEMPT;
  scope.result = OPEN;
  for (const need of Object.keys(unit?.needs ?? {})) scope[need] = OPEN;
  if (unit) unitScopes.set(unit, { base: common, scope });
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

/** `queue.key`: what is known of a run when it is submitted. */
export function queueKeyScope(contract: ContractSpec): ExprScope {
  return { ...base(contract) };
}

export function keyScope(contract: ContractSpec): ExprScope {
  return { ...base(contract), unit: UNIT, attempt: ATTEMPT, iteration: num, args: OPEN };
}

/** `with` of a compensation: `result` is the compensated call's declared result; `closed: false` opens it. */
export function compensationScope(contract: ContractSpec, tool: ToolSpec, closed: boolean): ExprScope {
  const fields: Record<string, ScopeEntry> = {};
  for (const [field, spec] of Object.entries(tool.result ?? {})) fields[field] = { type: resultFieldType(spec) as ScopeEntry["type"] };
  return { ...keyScope(contract), result: closed ? { type: "object", fields } : OPEN };
}
