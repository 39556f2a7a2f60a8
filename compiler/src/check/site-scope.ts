/**
 * The names an expression site may use. `siteScope` is the one choice of
 * scope per kind of site, used by checkExpressions on the validated contract;
 * `scopeOfSite` makes the same choice from the positioned syntax model alone,
 * so editors can complete and hover names while the contract is broken
 * (schema-invalid or mid-edit), from what the model knows: input names, the
 * owning unit's needs, the tool's declared result fields.
 */
import { isMap, isScalar } from "yaml";
import type { ExprScope } from "../expr/index.js";
import type { ContractModel, ExprSite } from "../parse/model.js";
import { pairOf } from "../parse/yaml-nodes.js";
import type { ContractSpec, ResultFieldType, ToolSpec } from "../schema/contract.js";
import { compensationScope, doneScope, keyScope, queueKeyScope, unitScope, verifierScope } from "./scopes.js";
import { identityMemo } from "../memo.js";
import type { Plan } from "../plan/schema.js";

const names = identityMemo<ContractModel, ContractSpec>("check/site-scope: names by syntax model");

export function scopeOfSite(model: ContractModel, site: ExprSite): ExprScope {
  let contract = names.get(model);
  if (!contract) names.set(model, (contract = namesOf(model)));
  return siteScope(contract, site);
}

/** Scopes are built once per contract and kind of site (a unit's scope is shared by all its checks). */
const built = identityMemo<ContractSpec, Map<string, ExprScope>>("check/site-scope: scopes by contract and kind of site");

/**
 * The scope of a site: a compensation argument sees its tool's declared
 * result fields (closed); a `compensated` condition sees `result`, the record
 * the lookup answers (open: a remote's record may say more than the receipt
 * declares); a key the key scope; otherwise the owner's scope.
 */
export function siteScope(contract: ContractSpec, site: Pick<ExprSite, "kind" | "owner">): ExprScope {
  const [key, make] = choose(contract, site);
  let scopes = built.get(contract);
  if (!scopes) built.set(contract, (scopes = new Map()));
  let scope = scopes.get(key);
  if (!scope) scopes.set(key, (scope = make()));
  return scope;
}

function choose(contract: ContractSpec, site: Pick<ExprSite, "kind" | "owner">): [string, () => ExprScope] {
  const owner = site.owner;
  if (site.kind === "with") {
    const tool = contract.tools?.[owner.name];
    if (tool) return [`with:${owner.name}`, () => compensationScope(contract, tool, true)];
  }
  if (site.kind === "compensated") {
    const tool = contract.tools?.[owner.name];
    // the names of a named verifier: task, run, inputs, unit, attempt, and `result` (open)
    if (tool) return ["verifier", () => verifierScope(contract)];
  }
  // a run's tenant is known when it is submitted: its task, its id and its inputs, nothing a unit makes
  if (site.kind === "queue-key") return ["queue-key", () => queueKeyScope(contract)];
  if (site.kind === "key" || site.kind === "with" || site.kind === "compensated") return ["key", () => keyScope(contract)];
  if (owner.kind === "unit") return [`unit:${owner.name}`, () => unitScope(contract, owner.name)];
  if (owner.kind === "task") return ["done", () => doneScope(contract)];
  return ["verifier", () => verifierScope(contract)];
}

/** A contract value holding only what scopes read: names, needs, declared result fields. */
function namesOf(model: ContractModel): ContractSpec {
  const inputs: NonNullable<ContractSpec["inputs"]> = {};
  for (const name of model.inputs.keys()) inputs[name] = { kind: "external" };
  const units: ContractSpec["units"] = {};
  for (const unit of model.units.values()) units[unit.name] = { needs: Object.fromEntries(unit.needs.map((n) => [n.name, "content"])) };
  const tools: NonNullable<ContractSpec["tools"]> = {};
  for (const tool of model.tools.values()) {
    const spec: ToolSpec = { class: "read" };
    const result = pairOf(tool.map, "result")?.value;
    if (isMap(result)) {
      spec.result = {};
      for (const field of result.items) {
        // unchecked: the text may be mid-edit; the scope reads a type it does not know as before
        if (!isScalar(field.key)) continue;
        // `field: string` or `field: { type: string, secret: true }`
        const type = isMap(field.value) ? pairOf(field.value, "type")?.value : field.value;
        if (isScalar(type)) spec.result[String(field.key.value)] = String(type.value) as ResultFieldType;
      }
    }
    tools[tool.name] = spec;
  }
  return { contract: 1, task: { id: "", goal: "" }, inputs, tools, units };
}

/**
 * The same names from a plan: its inputs, each unit's needs, each tool's
 * declared result fields, so a plan's expressions are judged in the scopes
 * the compiler judged them in (plan-rules.ts).
 */
export function namesOfPlan(plan: Plan): ContractSpec {
  const inputs: NonNullable<ContractSpec["inputs"]> = {};
  for (const input of plan.inputs) inputs[input.name] = { kind: "external" };
  const units: ContractSpec["units"] = {};
  for (const unit of plan.units) units[unit.id] = { needs: Object.fromEntries(unit.needs.map((n) => [n.node, "content"])) };
  const tools: NonNullable<ContractSpec["tools"]> = {};
  for (const tool of plan.tools) {
    const spec: ToolSpec = { class: tool.class };
    if (tool.result) spec.result = { ...(tool.result as Record<string, ResultFieldType>) };
    tools[tool.name] = spec;
  }
  return { contract: 1, task: { id: "", goal: "" }, inputs, tools, units };
}
