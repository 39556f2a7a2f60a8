/**
 * Every rule a store backend carries out, in one list: each is a pure
 * function from the rows the backend reads (inside its transaction, with the
 * locks its database needs) to the writes to make (store/writes.ts) or a
 * refusal. A backend reads, asks the rule, and runs the answer through its
 * one executor; it decides nothing itself.
 */
import type { Store } from "./types.js";

export {
  // claims, commits and the end of an attempt's lease
  decideClaim,
  claimedLease,
  decideCommit,
  decideEndAttempt,
  decideBreakLease,
  decideReleaseLease,
  holdsBooking,
} from "./unit-transition.js";
export { claimWrites, commitWrites, endWrites, decideRenewLease, decideCommitIteration, decideJournalPaidCall } from "./lease-rules.js";
// effects
export { decidePrepareEffect, decideUpdateEffect } from "./effect-rules.js";
// resume tokens, approvals, operators
export {
  decideIssueResumeToken,
  decideConsumeResumeToken,
  decideGrantApproval,
  decideRevokeApproval,
  decideAddOperator,
} from "./gate-rules.js";
// a new run, caps, holds, status, origin, charges
export {
  decideCreateRun,
  decideRunChange,
  decideCharge,
  unitHoldWrites,
  corruptArtifactWrites,
  unknownRun,
  type RunChange,
} from "./run-rules.js";
// recording a collection (taskspec gc)
export { decideRecordCollection } from "./gc-rules.js";
export { accepted } from "./writes.js";

/** The arguments of a Store method, as a backend's method takes them. */
export type Args<K extends keyof Store> = Parameters<Store[K]>;
