/**
 * The one place that decides how an attempt ended, as a pure function of
 * what was observed: the sticky refusals the guards recorded (a guard
 * violation, a budget block, an effect of unknown outcome, a corrupt input),
 * a lost lease, and how the handler ended (returned, threw, timed out, its
 * process died, its result could not be sent, its loop ran out). Table-tested
 * in runtime/test/attempt-outcome.test.ts; attempt.ts only gathers the facts.
 */
import type { CorruptArtifactError } from "../artifacts/storage.js";
import type { ApprovalHeldError } from "../ledger/approval-binding.js";
import type { BudgetBlockedError, EffectUnknownError, GuardError, PlanVersionChangedError } from "../errors.js";
import type { ArtifactManifest, ErrorClass, VerifierResult } from "../model/facts.js";
import type { UnitChange } from "../store/types.js";

export type Manifest = Omit<ArtifactManifest, "status" | "recordId">;

export type AttemptOutcome =
  | { kind: "succeeded"; change: Extract<UnitChange, { kind: "complete" }>; verifierResults: VerifierResult[] }
  | {
      kind: "failed";
      error: { class: ErrorClass; message: string };
      countsAsFailure: boolean;
      rejected: Manifest[];
      /** The unit's loop had ended when it failed (exhausted, an artifact missing, a verifier failed): its committed iterations are closed. */
      closesLoop?: boolean;
    }
  | { kind: "budget"; error: BudgetBlockedError; rejected: Manifest[] }
  | { kind: "unknown-effect"; effectId: string; message: string; rejected: Manifest[] }
  | { kind: "corrupt-input"; producer: string; path: string; message: string; rejected: Manifest[] }
  /** A gate's irreversible call is prepared and waits for an approval bound to it: blocked, neither a failure nor a retry. */
  | { kind: "approval"; effectId: string; message: string; rejected: Manifest[] }
  | { kind: "lease-lost"; message: string }
  /** The run left the attempt's plan before a side effect could start: discarded uncounted, the worker reloads. */
  | { kind: "plan-changed"; error: PlanVersionChangedError; rejected: Manifest[] }
  /** The store went away during a ctx request: the attempt ends uncounted, its open effects are reconciled later. */
  | { kind: "store-lost"; message: string };

/** What the guards recorded during the attempt; each is sticky (a handler that catches the refusal still ends with it). */
export interface Refusals {
  leaseLost?: string;
  /** A ctx request (tool, charge, write, model) met an unreachable store: not the handler's doing. */
  storeLost?: string;
  /** The run moved to another plan while this attempt ran: a tool call was refused, nothing of the attempt counts. */
  planChanged?: PlanVersionChangedError;
  violation?: GuardError;
  budgetBlock?: BudgetBlockedError;
  unknown?: EffectUnknownError;
  corrupt?: CorruptArtifactError;
  /** A gate's irreversible call was prepared (PREPARED, held) and waits for an approval bound to it. */
  held?: ApprovalHeldError;
}

/** How the handler's part ended. */
export type HandlerEnd =
  | { kind: "returned"; result: unknown }
  | { kind: "no-handler" }
  | { kind: "invalid-result"; problem: string }
  | { kind: "loop-exhausted"; message: string }
  /** Past the unit's timeout; `openEffect`: a side-effecting call of this attempt still STARTED/UNKNOWN. */
  | { kind: "timeout"; message: string; openEffect?: { id: string; tool: string } }
  | { kind: "tool-failed"; message: string }
  /** The handler's process ended before its result (process.exit, an uncaught error, a signal). */
  | { kind: "crashed"; message: string }
  | { kind: "unsendable"; message: string }
  /** `message` already made safe (no credential-shaped text, no input value, bounded). */
  | { kind: "threw"; message: string };

export type AttemptDecision =
  | AttemptOutcome
  /** Nothing ended the attempt early: check the declared artifacts and run the verifiers. */
  | { kind: "verify"; result: unknown };

export interface AttemptFacts {
  unitId: string;
  refusals: Refusals;
  end: HandlerEnd;
  /** Artifacts written (or replaced) in this attempt: discarded unless it succeeds. */
  leftovers: Manifest[];
  /** Declared artifacts (`produces`) the attempt did not write. */
  missing: readonly string[];
}

export function decideAttempt({ unitId, refusals, end, leftovers, missing }: AttemptFacts): AttemptDecision {
  const fail = (cls: ErrorClass, message: string): AttemptOutcome => ({
    kind: "failed",
    error: { class: cls, message },
    countsAsFailure: true,
    rejected: leftovers,
  });
  const { leaseLost, storeLost, planChanged, violation, budgetBlock, unknown, corrupt, held } = refusals;
  // a lost lease first: another worker owns the unit now, nothing of this attempt may count
  if (leaseLost) return { kind: "lease-lost", message: leaseLost };
  // then a plan the run has left: judged by neither plan, the unit runs again under the new one
  if (planChanged) return { kind: "plan-changed", error: planChanged, rejected: leftovers };
  // then a store that went away under a ctx request: whatever the handler made of the error, it is no failure of its own
  if (storeLost) return { kind: "store-lost", message: storeLost };
  // a refusal the guards recorded decides, whatever the handler did afterwards (caught it, returned, threw)
  if (violation) return fail("guard", violation.message);
  if (held) return { kind: "approval", effectId: held.effectId, message: held.message, rejected: leftovers };
  if (budgetBlock) return { kind: "budget", error: budgetBlock, rejected: leftovers };
  if (unknown) return { kind: "unknown-effect", effectId: unknown.effectId, message: unknown.message, rejected: leftovers };
  if (corrupt) {
    const producer = corrupt.path.split("/")[2] ?? "";
    return { kind: "corrupt-input", producer, path: corrupt.path, message: corrupt.message, rejected: leftovers };
  }
  switch (end.kind) {
    case "returned":
      if (missing.length) return fail("invalid-result", `unit ${unitId} did not write its declared artifact(s) ${missing.join(", ")}`);
      return { kind: "verify", result: end.result === undefined ? null : end.result };
    case "no-handler":
      return fail("handler-error", `the handler module has no handler for unit ${unitId}`);
    case "invalid-result":
      return fail("invalid-result", `handler returned garbage: ${end.problem}`);
    case "loop-exhausted":
      return fail("loop-exhausted", end.message);
    case "timeout":
      // A timeout while an effect call was in flight: the remote may have done it. Its outcome is
      // UNKNOWN (reconciled by lookup before anything else), never a failure of the unit.
      if (end.openEffect)
        return {
          kind: "unknown-effect",
          effectId: end.openEffect.id,
          message: `${end.message} while ${end.openEffect.tool} was in flight: its outcome is UNKNOWN, to be looked up`,
          rejected: leftovers,
        };
      return fail("timeout", end.message);
    case "tool-failed":
      return fail("tool-error", end.message);
    case "crashed":
      return fail("crashed", end.message);
    case "unsendable":
      return fail("invalid-result", `handler returned garbage: ${end.message}`);
    case "threw":
      return fail("handler-error", `handler threw: ${end.message}`);
  }
}

/** After the verifiers: succeeded only when every one passed; the attempt's artifacts carry the results either way. */
export function verdictOf(
  verifierResults: VerifierResult[],
  written: Manifest[],
  succeeded: (artifacts: Manifest[]) => Extract<UnitChange, { kind: "complete" }>,
  leftovers: Manifest[],
): AttemptOutcome {
  const failed = verifierResults.filter((v) => !v.passed);
  if (failed.length) {
    for (const m of written) m.verifierResults = verifierResults;
    return {
      kind: "failed",
      error: { class: "verifier-failed", message: failed.map((v) => `${v.name}: ${v.reason ?? "failed"}`).join("; ") },
      countsAsFailure: true,
      rejected: leftovers,
    };
  }
  return { kind: "succeeded", verifierResults, change: succeeded(written.map((m) => ({ ...m, verifierResults }))) };
}
