/**
 * What a cancel will do with each effect of the run, decided from persisted
 * facts alone (pure, so the preview and the cancel cannot disagree). A cancel
 * is complete or it says why not: every effect that may stand at a remote is
 * either compensated (possibly after waiting for the call in flight, looking
 * its outcome up, or reading the receipt a person's `resolve --committed`
 * did not record) or listed with the reason nothing can undo it.
 */
import type { Plan, PlanTool } from "@taskspec/compiler";
import { isPersonConfirmed } from "../handler-api.js";
import type { EffectRecord, Lease } from "../model/facts.js";
import { compensationFields } from "../ledger/lookup-answer.js";

export type CancelTreatment =
  /** Undone by `compensator`; `first` says what happens before (wait, lookup, read the receipt). */
  | { kind: "compensate"; compensator: string; first?: string }
  /** Nothing can undo it, or not without a person: `blocks` when the cancel cannot complete because of it. */
  | { kind: "cannot"; why: string; blocks: boolean }
  /** Nothing stands at a remote (never started, failed, already compensated). */
  | { kind: "none" };

export interface CancelEntry {
  effect: EffectRecord;
  treatment: CancelTreatment;
}

/** A live lease whose token is the effect's: a worker is inside this very call. */
export function inFlightLease(effect: EffectRecord, leases: readonly Lease[], now: string): Lease | undefined {
  if (effect.state !== "STARTED") return undefined;
  return leases.find((l) => l.unit === effect.unit && l.token === effect.token && l.expiresAt > now);
}

/** The record a compensation can be rendered from when a person confirmed the effect: `{ <first result field>: remote_id }`. */
export function personRecord(tool: PlanTool, receipt: unknown): Record<string, unknown> | undefined {
  if (!isPersonConfirmed(receipt) || receipt.remote_id === undefined) return undefined;
  const field = tool.result ? Object.keys(tool.result)[0] : "id";
  return field === undefined ? undefined : { [field]: receipt.remote_id };
}

export function treatmentOf(plan: Plan, effect: EffectRecord, leases: readonly Lease[], now: string): CancelTreatment {
  if (effect.state === "FAILED" || effect.state === "COMPENSATED" || effect.state === "PREPARED") return { kind: "none" };
  if (effect.compensationState === "done") return { kind: "none" };
  const tool = plan.tools.find((t) => t.name === effect.tool);
  const lookup = tool?.lookup && effect.key !== undefined ? tool.lookup : undefined;
  if (effect.state === "COMMITTED") {
    if (effect.compensation) return { kind: "compensate", compensator: effect.compensation.tool };
    if (!tool?.compensate)
      return {
        kind: "cannot",
        why: effect.toolClass === "irreversible" ? "irreversible" : `${effect.toolClass}, no compensator declared`,
        blocks: false,
      };
    const by = isPersonConfirmed(effect.receipt) ? `confirmed committed by ${effect.receipt.confirmed_by_person}` : "committed";
    if (lookup) return { kind: "compensate", compensator: tool.compensate.tool, first: `${by}: reads the receipt with ${lookup} first` };
    const record = personRecord(tool, effect.receipt);
    const missing = compensationFields(tool).filter((f) => record?.[f] === undefined);
    if (missing.length === 0 && record) return { kind: "compensate", compensator: tool.compensate.tool, first: `${by} (remote id)` };
    return {
      kind: "cannot",
      why: `${by} without the receipt field(s) ${missing.map((f) => `\`${f}\``).join(", ")} that ${tool.compensate.tool} needs, and ${effect.tool} has no lookup to read them: undo it at the remote by hand`,
      blocks: true,
    };
  }
  // STARTED or UNKNOWN: its outcome must be known before the run can be called cancelled.
  const flight = inFlightLease(effect, leases, now);
  const wait = flight ? `waits for the call in flight (worker ${flight.owner}, lease until ${flight.expiresAt}), then ` : "";
  if (tool?.compensate) {
    if (lookup)
      return { kind: "compensate", compensator: tool.compensate.tool, first: `${wait}looks it up with ${lookup}; compensated if found` };
    if (flight) return { kind: "compensate", compensator: tool.compensate.tool, first: `${wait}compensated if it committed` };
  }
  if (lookup)
    return {
      kind: "cannot",
      why: `outcome ${effect.state}: ${wait}looked up with ${lookup}; nothing can undo it if it happened`,
      blocks: false,
    };
  return {
    kind: "cannot",
    why: `outcome ${effect.state} and ${effect.tool} has no lookup: settle it with \`taskspec resolve ${effect.run} ${effect.id} --committed|--absent\`, then cancel again`,
    blocks: !flight,
  };
}

/** Every effect of the run with its treatment: the open ones first (if they committed, they committed last), then reverse commit order. */
export function planCancel(plan: Plan, effects: readonly EffectRecord[], leases: readonly Lease[], now: string): CancelEntry[] {
  const order = [...effects].sort((a, b) => {
    const ca = a.commitSeq ?? Number.MAX_SAFE_INTEGER;
    const cb = b.commitSeq ?? Number.MAX_SAFE_INTEGER;
    return cb === ca ? a.id.localeCompare(b.id) : cb - ca;
  });
  return order.map((effect) => ({ effect, treatment: treatmentOf(plan, effect, leases, now) }));
}
