/**
 * Errors the store and engine raise as data-bearing classes: callers branch on
 * the class, people read the message. None of them is a bug.
 */

export class RuntimeError extends Error {
  override readonly name: string = "RuntimeError";
}

/** Another writer advanced the run first: re-read the latest checkpoint and decide again. */
export class VersionConflictError extends RuntimeError {
  override readonly name = "VersionConflictError";
  constructor(
    readonly run: string,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`checkpoint conflict on run ${run}: expected version ${expected}, the store is at ${actual}`);
  }
}

/** A worker that lost its lease tried to write: refused. */
export class StaleFencingTokenError extends RuntimeError {
  override readonly name = "StaleFencingTokenError";
  constructor(
    readonly run: string,
    readonly unit: string,
    readonly token: number,
    readonly current: number | undefined,
    readonly owner: string | undefined,
  ) {
    super(
      `stale fencing token ${token} for unit ${unit} of run ${run}: ` +
        (current === undefined ? "the unit has no lease any more" : `the current lease is token ${current} held by ${owner}`) +
        "; this worker's commit is rejected",
    );
  }
}

/**
 * A claim or commit made under a plan version the run has left (`resume
 * --contract` changed it meanwhile): refused, so a worker still holding the old
 * plan never commits a result its new verifiers have not judged, and never
 * changes the plan back. The worker discards the attempt and reloads the plan.
 */
export class PlanVersionChangedError extends RuntimeError {
  override readonly name = "PlanVersionChangedError";
  constructor(
    readonly run: string,
    readonly held: string,
    readonly current: string,
  ) {
    super(`run ${run} is under plan ${current}, not ${held} (the plan this worker holds); refused: reload the run's plan`);
  }
}

export class LeaseHeldError extends RuntimeError {
  override readonly name = "LeaseHeldError";
  constructor(
    readonly run: string,
    readonly unit: string,
    readonly owner: string,
    readonly expiresAt: string,
  ) {
    super(`unit ${unit} of run ${run} is leased by ${owner} until ${expiresAt}`);
  }
}

export class SchemaVersionError extends RuntimeError {
  override readonly name = "SchemaVersionError";
  constructor(
    readonly found: number,
    readonly supported: number,
  ) {
    super(
      `the store has schema version ${found}, but this taskspec understands versions up to ${supported}; ` +
        "upgrade taskspec (it never guesses fields of a newer schema)",
    );
  }
}

export class ResumeTokenError extends RuntimeError {
  override readonly name = "ResumeTokenError";
}

/**
 * An operator action without the authority it needs: no operator key on a
 * store that has operator identities, or a key the store does not know. The
 * CLI exits 2 with it; nothing was changed.
 */
export class OperatorKeyError extends RuntimeError {
  override readonly name = "OperatorKeyError";
}

export class NotFoundError extends RuntimeError {
  override readonly name = "NotFoundError";
}

/** A state change the store refuses (claiming a succeeded unit, effect CAS mismatch...). */
/** A volatile input's reader failed on resume: the run is left as it was (nothing read is nothing compared). */
export class VolatileInputError extends RuntimeError {
  override readonly name = "VolatileInputError";
  constructor(
    readonly input: string,
    readonly run: string,
    cause: string,
  ) {
    super(
      `volatile input ${input} of run ${run} cannot be read (${cause}); nothing was changed or run: retry \`taskspec resume ${run}\` when its source is reachable`,
    );
  }
}

export class InvalidTransitionError extends RuntimeError {
  override readonly name = "InvalidTransitionError";
}

/**
 * A handler stepped outside its contract (undeclared tool or artifact, path
 * escape, missing approval or key). The call is refused before anything
 * reaches the world, and the attempt fails even if the handler catches this.
 */
export class GuardError extends RuntimeError {
  override readonly name = "GuardError";
  constructor(
    readonly unit: string,
    readonly guard:
      | "undeclared-tool"
      | "undeclared-artifact"
      | "path"
      | "approval"
      | "key"
      | "key-conflict"
      | "effect-bound"
      | "attempt-closed"
      | "charge"
      | "model",
    message: string,
  ) {
    super(message);
  }
}

/** Spending would pass a cap: refused before the call; the run blocks with reason `budget`. */
export class BudgetBlockedError extends RuntimeError {
  override readonly name = "BudgetBlockedError";
  constructor(
    readonly budget: string,
    readonly used: number,
    readonly cap: number,
    readonly requested: number,
  ) {
    super(`budget ${budget}: ${used} used + ${requested} requested would pass the cap of ${cap}`);
  }
}

/** A side effect whose outcome is not known; recovery must look it up before anything else. */
export class EffectUnknownError extends RuntimeError {
  override readonly name = "EffectUnknownError";
  constructor(
    readonly effectId: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A decision made on a preview the run has moved past: another decision or a
 * worker's commit changed what the decision would do. Nothing was changed;
 * `changed` says what differs and `fresh` is the preview to look at instead.
 */
export class StalePreviewError extends RuntimeError {
  override readonly name = "StalePreviewError";
  constructor(
    message: string,
    readonly changed: readonly string[],
    readonly fresh: unknown,
  ) {
    super(message);
  }
}

/**
 * The database could not be reached; `outcome` says whether the write may
 * have happened, `writing` what was being written (once the store method
 * that lost it has named it: store/lost-writes.ts). Said for people: what was
 * being written, that what was committed before is kept, what to do.
 */
export class StoreUnavailableError extends RuntimeError {
  override readonly name = "StoreUnavailableError";
  constructor(
    readonly outcome: "not-written" | "unknown",
    readonly lost: unknown,
    readonly writing?: string,
  ) {
    const why = lost instanceof Error ? lost.message : String(lost);
    super(
      writing === undefined
        ? `the PostgreSQL store is unreachable (${why}); ` +
            (outcome === "not-written"
              ? "nothing was written, the operation can be repeated"
              : "the write's outcome is unknown: re-read the run before acting on it")
        : outcome === "not-written"
          ? `the connection to the PostgreSQL store was lost while writing ${writing} (${why}): that write was not made, and everything committed before it is kept; repeat the command once the server is reachable`
          : `the connection to the PostgreSQL store was lost while committing ${writing} (${why}): everything committed before it is kept, but whether this write was committed is unknown; look at the run (taskspec status) before repeating it`,
    );
  }

  /** The same failure, naming what was being written. */
  writingOf(what: string): StoreUnavailableError {
    return new StoreUnavailableError(this.outcome, this.lost, what);
  }
}

/** Driver and server codes of a lost or refused connection (PostgreSQL: class 08, 57P01-57P03). */
const CONNECTION_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
  "57P01",
  "57P02",
  "57P03",
]);

/** The connection to a database server was lost or refused (not a statement the server rejected). */
export function isConnectionError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string" && (CONNECTION_CODES.has(code) || code.startsWith("08"))) return true;
  return (
    e instanceof Error &&
    /Connection terminated|connection timeout|Client has encountered a connection error|Client was closed/i.test(e.message)
  );
}
