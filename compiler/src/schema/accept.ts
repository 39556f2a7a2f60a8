/**
 * Accepting a valid contract, the common case, without re-validating units
 * that were valid before. The schema is split in two validators: the whole
 * contract with each unit accepted as it is, and one unit. A unit found valid
 * is remembered by its object: the plain value of a unit an edit did not
 * touch is the same object in the next compile (parse/to-plain.ts), so an
 * editor re-validates only the edited unit. Rejecting is left to the full
 * validator, whose errors are the C002 diagnostics (validate.ts).
 */
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import contractSchema from "../../contract.schema.json" with { type: "json" };
import { identityMemo } from "../memo.js";

export const AJV_OPTIONS = { allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true } as const;

interface Split {
  contract: ValidateFunction;
  unit: ValidateFunction;
}

/** Units (plain objects) that passed the unit schema; entries go with the objects. */
const validUnits = identityMemo<object, true>("schema/accept: units found valid");
let split: Split | null | undefined;

/**
 * True when `value` is a valid contract; false means "not known valid": ask
 * the full validator. A null split: the schema does not check units through
 * `$defs/unit` alone, so splitting it would not be the same schema.
 */
export function isKnownValid(value: unknown): boolean {
  if (split === undefined) split = splitSchema(contractSchema);
  if (split === null || !split.contract(value)) return false;
  const units = (value as { units: Record<string, unknown> }).units; // an object: the contract validator checked it
  for (const id of Object.keys(units)) {
    const unit = units[id];
    const remembered = typeof unit === "object" && unit !== null;
    if (remembered && validUnits.has(unit)) continue;
    if (!split.unit(unit)) return false;
    if (remembered) validUnits.set(unit, true);
  }
  return true;
}

function splitSchema(schema: Record<string, unknown>): Split | null {
  const properties = schema.properties as Record<string, Record<string, unknown>>;
  const defs = schema.$defs as Record<string, unknown>;
  const units = properties.units;
  const byUnitDef = units?.additionalProperties as { $ref?: string } | undefined;
  if (!units || byUnitDef?.$ref !== "#/$defs/unit" || Object.keys(byUnitDef).length !== 1 || units.patternProperties) return null;
  const { $id: _id, ...rest } = schema;
  const ajv = new Ajv2020(AJV_OPTIONS);
  return {
    contract: ajv.compile({ ...rest, properties: { ...properties, units: { ...units, additionalProperties: true } } }),
    unit: ajv.compile({ ...(defs.unit as object), $defs: defs }),
  };
}
