/**
 * Accepting a valid contract, the common case, without re-validating units
 * that were valid before. The schema is split in two validators: the whole
 * contract with each unit accepted as it is, and one unit. A unit found valid
 * is remembered by its object: the plain value of a unit an edit did not
 * touch is the same object in the next compile (parse/to-plain.ts), so an
 * editor re-validates only the edited unit. Rejecting is left to the full
 * validator, whose errors are the C002 diagnostics (validate.ts).
 */
import type { ValidateFunction } from "ajv/dist/2020.js";
import { identityMemo } from "../memo.js";
import * as generated from "./validators.generated.js";

/** The split validators, generated at build time from the schema (scripts/gen-validators.js); null when the schema cannot be split. */
const { acceptContract, acceptUnit } = generated as unknown as Record<"acceptContract" | "acceptUnit", ValidateFunction | null>;
const split = acceptContract && acceptUnit ? { contract: acceptContract, unit: acceptUnit } : null;

/** Units (plain objects) that passed the unit schema; entries go with the objects. */
const validUnits = identityMemo<object, true>("schema/accept: units found valid", { acrossCompilesOnly: true });

/**
 * True when `value` is a valid contract; false means "not known valid": ask
 * the full validator. A null split: the schema does not check units through
 * `$defs/unit` alone, so splitting it would not be the same schema.
 */
export function isKnownValid(value: unknown): boolean {
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
