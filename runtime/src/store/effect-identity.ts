/**
 * An effect is its key and its request. A tool's key names one effect of the
 * run: a call whose tool and key are known, with another request, is a
 * different effect under the same name, and a remote that deduplicates by key
 * would answer it with the first one's result. The store refuses to record it
 * (store/effect-rules.ts, inside the transaction that would insert it),
 * and the ledger checks first so nothing is charged or sent. An effect that
 * FAILED (the remote said it did not happen) does not hold its key.
 */
import { RuntimeError } from "../errors.js";
import type { EffectRecord } from "../model/facts.js";

/** States in which an effect holds its key: every state but FAILED. */
export const KEY_HOLDING_STATES = ["PREPARED", "STARTED", "COMMITTED", "UNKNOWN", "COMPENSATED"] as const;

type Request = Pick<EffectRecord, "tool" | "key" | "argsDigest" | "requestHash">;

/** Same request: by request hash, or (an effect recorded before request hashes) by argument digest of the same tool. */
export function sameRequest(a: Request, b: Request): boolean {
  if (a.tool !== b.tool) return false;
  return a.requestHash !== undefined && b.requestHash !== undefined ? a.requestHash === b.requestHash : a.argsDigest === b.argsDigest;
}

/** The recorded effect whose tool and key the new one shares with another request, if any. */
export function keyConflict(effect: Request, known: readonly EffectRecord[]): EffectRecord | undefined {
  if (effect.key === undefined) return undefined;
  return known.find(
    (e) =>
      e.tool === effect.tool &&
      e.key === effect.key &&
      (KEY_HOLDING_STATES as readonly string[]).includes(e.state) &&
      !sameRequest(e, effect),
  );
}

/**
 * The store refused to record an effect: its tool and key already name an
 * effect of the run made with another request (a key names one effect).
 * The ledger turns it into a GuardError that shows both requests.
 */
export class EffectKeyConflictError extends RuntimeError {
  override readonly name = "EffectKeyConflictError";
  constructor(
    readonly effectId: string,
    /** The effect already recorded under the key. */
    readonly prior: EffectRecord,
  ) {
    super(
      `effect ${effectId}: key ${JSON.stringify(prior.key)} of tool ${prior.tool} already names effect ${prior.id}, made with another request`,
    );
  }
}
