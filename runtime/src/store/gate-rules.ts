/**
 * The gate rules of the stores, pure: resume tokens (issued once, used once,
 * only at their gate, only before they expire), approvals (granted, revoked)
 * and operator identities. Table-tested in runtime/test/store-rules.test.ts.
 */
import { InvalidTransitionError, NotFoundError, ResumeTokenError } from "../errors.js";
import type { Approval } from "../model/facts.js";
import { events, type Decided, type EventIn } from "./writes.js";

/** A resume token's row as the rule reads it. */
export interface ResumeTokenRow {
  run: string;
  unit: string;
  usedAt: string | null;
  expiresAt: string;
}

export function decideIssueResumeToken(
  tokenHash: string,
  row: { run: string; unit: string; expiresAt: string; createdAt: string },
): Decided {
  return {
    kind: "writes",
    writes: [
      { op: "insert-resume-token", tokenHash, unit: row.unit, expiresAt: row.expiresAt, createdAt: row.createdAt },
      events({ at: row.createdAt, type: "resume-token-issued", unit: row.unit, data: { expiresAt: row.expiresAt } }),
    ],
  };
}

const badToken = (message: string): Decided => ({ kind: "refused", reason: "bad-token", error: new ResumeTokenError(message) });

/**
 * Using a resume token: a known token, of this gate (another gate's token is
 * not spent), not used before, not expired at `now`; it is marked used.
 */
export function decideConsumeResumeToken(
  row: ResumeTokenRow | undefined,
  tokenHash: string,
  now: string,
  gate: { run: string; unit: string },
): Decided {
  if (!row) return badToken("unknown resume token");
  if (row.run !== gate.run || row.unit !== gate.unit)
    return badToken(`resume token belongs to gate ${row.run}/${row.unit}, not ${gate.run}/${gate.unit}; it was not used`);
  if (row.usedAt !== null) return badToken(`resume token for gate ${row.unit} was already used at ${row.usedAt}; tokens are single-use`);
  if (row.expiresAt <= now) return badToken(`resume token for gate ${row.unit} expired at ${row.expiresAt}`);
  return {
    kind: "writes",
    writes: [{ op: "use-resume-token", tokenHash, at: now }, events({ at: now, type: "resume-token-used", unit: row.unit })],
  };
}

export function decideGrantApproval(approval: Approval, event: EventIn): Decided {
  return { kind: "writes", writes: [{ op: "insert-approval", approval }, events(event)] };
}

/** Revoking an approval: a known one (`found` is its run), dated `now`. */
export function decideRevokeApproval(found: { run: string } | undefined, id: string, now: string, event: EventIn): Decided {
  if (!found) return { kind: "refused", reason: "no-approval", error: new NotFoundError(`no approval ${id}`) };
  return { kind: "writes", writes: [{ op: "revoke-approval", id, at: now }, events(event)] };
}

/** A new operator: refused when `taken` (an operator of that name or key) exists. */
export function decideAddOperator(taken: { name: string } | undefined, row: { name: string; keyHash: string; createdAt: string }): Decided {
  if (taken)
    return {
      kind: "refused",
      reason: "operator-exists",
      error: new InvalidTransitionError(`the store already has an operator ${taken.name}`),
    };
  return { kind: "writes", writes: [{ op: "insert-operator", ...row }] };
}
