/**
 * Which keys of a definition are behaviour (a change re-runs committed work)
 * and which are policy or prose (a change applies to future attempts only and
 * never invalidates a committed result). The definition hashes are computed
 * over the behavioural keys alone; docs/contract.md has the same table.
 */
import type { ToolSpec, UnitSpec, VerifierSpec } from "../schema/contract.js";

/**
 * Unit keys that never invalidate: `describe` and `phase` are prose and
 * grouping; `retry`, `timeout` and `cost` are policy for attempts not yet made
 * (a committed result stays what it is whatever the next attempt may spend);
 * `on_code_change` says what a later code change does, not what this code is;
 * `effects` bounds how many effects the next attempts may make.
 */
export const UNIT_POLICY_KEYS = ["describe", "phase", "retry", "timeout", "cost", "on_code_change", "effects"] as const;
/**
 * Tool keys that never invalidate the units using the tool (`args` says
 * what the ledger keeps of a call, not what the call does). (`compensate.
 * compensated`, how an undo is verified, never invalidates either: it judges
 * a cancel, not the result of a call.)
 */
export const TOOL_POLICY_KEYS = ["describe", "cost", "args"] as const;
/** Verifier keys that never invalidate the units verified by it. */
export const VERIFIER_POLICY_KEYS = ["describe"] as const;

function without<T extends object>(spec: T, keys: readonly string[]): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) if (!keys.includes(key)) out[key] = value;
  return out as Partial<T>;
}

export const unitBehaviour = (spec: UnitSpec): Partial<UnitSpec> => without(spec, UNIT_POLICY_KEYS);
export const toolBehaviour = (spec: ToolSpec): Partial<ToolSpec> => {
  const out = without(spec, TOOL_POLICY_KEYS);
  if (out.compensate?.compensated !== undefined) out.compensate = without(out.compensate, ["compensated"]) as ToolSpec["compensate"];
  return out;
};
export const verifierBehaviour = (spec: VerifierSpec): Partial<VerifierSpec> => without(spec, VERIFIER_POLICY_KEYS);
