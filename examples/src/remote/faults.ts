/**
 * Fault knobs of a local remote, so tests and the demo can produce the
 * failures a real network produces: slowness, transient refusals, a
 * business refusal, and the dangerous one — the effect commits at the remote
 * but the response never reaches the caller (UNKNOWN on the caller's side).
 * Set at start (option, `--faults JSON`, env TASKSPEC_REMOTE_FAULTS) or live
 * with `POST /_admin/faults`.
 */
export interface Faults {
  /** Every request waits this long first. */
  delayMs: number;
  /** The next N writes answer 503 before any effect. */
  failNext: number;
  /** The next N reads (lookups, lists) answer 503. */
  failReadsNext: number;
  /** The next N writes are refused for good (422), e.g. no availability. */
  rejectNext: number;
  /** The next N writes take effect, then the connection is dropped without a response. */
  dropNext: number;
  /** Every write takes effect at once, then its response waits this long (a caller's timeout fires after the effect). */
  slowReplyMs: number;
  /**
   * Every write is held this long before it is handled (a request slow on the
   * network): fencing is checked when it lands, so a write whose caller lost
   * its lease meanwhile is refused if a newer token reached the resource.
   */
  holdWritesMs: number;
}

export const NO_FAULTS: Faults = { delayMs: 0, failNext: 0, failReadsNext: 0, rejectNext: 0, dropNext: 0, slowReplyMs: 0, holdWritesMs: 0 };

export function parseFaults(value: unknown): Partial<Faults> {
  if (value === undefined || value === null || value === "") return {};
  const raw: unknown = typeof value === "string" ? JSON.parse(value) : value;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new Error("faults must be a JSON object");
  const out: Partial<Faults> = {};
  for (const [name, amount] of Object.entries(raw)) {
    if (!(name in NO_FAULTS)) throw new Error(`unknown fault knob "${name}" (known: ${Object.keys(NO_FAULTS).join(", ")})`);
    if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 0)
      throw new Error(`fault knob "${name}" must be a non-negative integer`);
    out[name as keyof Faults] = amount;
  }
  return out;
}

/** Takes one shot of a counted knob; true when the fault fires. */
export function takeShot(faults: Faults, knob: "failNext" | "failReadsNext" | "rejectNext" | "dropNext"): boolean {
  if (faults[knob] <= 0) return false;
  faults[knob] -= 1;
  return true;
}
