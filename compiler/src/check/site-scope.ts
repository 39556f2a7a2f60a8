/**
 * The names an expression site may use, from the positioned syntax model
 * alone, so editors can complete and hover names while the contract is broken
 * (schema-invalid or mid-edit). Same choice of scope as checkExpressions, built
 * from what the model knows: input names, the owning unit's needs, the tool's
 * declared result fields.
 */
import { isMap, isScalar } from "yaml";
import type { ExprScope } from "../expr/index.js";
import type { ContractModel, ExprSite } from "../parse/model.js";
import { pairOf } from "../parse/yaml-nodes.js";
import type { ContractSpec, ToolSpec } from "../schema/contract.js";
import { compensationScope, doneScope, keyScope, unitScope, verifierScope } from "./scopes.js";

const names = new WeakMap<ContractModel, ContractSpec>();

export function scopeOfSite(model: ContractModel, site: ExprSite): ExprScope {
  let contract = names.get(model);
  if (!contract) names.set(model, (contract = namesOf(model)));
  if (site.kind === "with") {
    const tool = contract.tools?.[site.owner.name];
    return tool ? compensationScope(contract, tool, true) : keyScope(contract);
  }
  if (site.kind === "key") return keyScope(contract);
  if (site.owner.kind === "unit") return unitScope(contract, site.owner.name);
  if (site.owner.kind === "task") return doneScope(contract);
  return verifierScope(contract);
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
        if (isScalar(field.key) && isScalar(field.value)) spec.result[String(field.key.value)] = String(field.value.value);
      }
    }
    tools[tool.name] = spec;
  }
  return { contract: 1, task: { id: "", goal: "" }, inputs, tools, units };
}
