/**
 * An attempt's journal of paid calls (the rule: paid-replay.ts). Before a
 * model call or charge is made, the earlier attempts' open journal says
 * whether the same request was answered already: then its answer is handed
 * back, nothing is paid, and the event says `replayed`. Otherwise the call is
 * recorded `started` (durably, before its request leaves), made, and its
 * answer recorded before the handler sees it. Only the request's hash is
 * stored; an answer that holds a known secret value (a secret input, the
 * model's key) is not stored at all: that call is made again next time.
 */
import type { Store } from "../store/types.js";
import { maskSecretsIn } from "../ledger/redact.js";
import { canonicalJson } from "../model/identity.js";
import { nextPaidCall, paidCallHash, replaySequence, type PaidCallKind, type ReplayCursor, type ReplayEntry } from "./paid-replay.js";

export interface JournalScope {
  store: Store;
  run: string;
  unit: string;
  attempt: number;
  token: number;
  now: () => string;
  /** The loop iteration now running (1 outside loops). */
  iteration: () => number;
  /** Values no stored answer may hold. */
  secrets: ReadonlySet<string>;
}

export interface PaidJournal {
  /**
   * Makes one paid call through the journal: `make` runs only when the call
   * is not replayed; `answerOf` is what is stored of its result (and handed
   * back on replay).
   */
  call<T>(
    kind: PaidCallKind,
    request: unknown,
    make: (sending: () => Promise<void>) => Promise<T>,
    answerOf: (r: T) => unknown,
  ): Promise<T>;
}

export function openJournal(scope: JournalScope): PaidJournal {
  const { store, run, unit, attempt } = scope;
  let sequence: Promise<ReplayEntry[]> | undefined;
  let cursor: ReplayCursor = { next: 0, over: false };
  let seq = 0;
  const key = (n: number) => ({ run, unit, attempt, seq: n });
  return {
    async call<T>(
      kind: PaidCallKind,
      request: unknown,
      make: (sending: () => Promise<void>) => Promise<T>,
      answerOf: (r: T) => unknown,
    ): Promise<T> {
      const requestHash = paidCallHash(kind, request);
      // read once, on the attempt's first paid call: a unit that pays nothing reads nothing
      const recorded = await (sequence ??= store.listPaidCalls(run, { unit, open: true }).then((rows) => replaySequence(rows, attempt)));
      const iteration = scope.iteration();
      const decision = nextPaidCall(recorded, cursor, kind, requestHash, iteration);
      cursor = decision.cursor;
      const n = seq++;
      if (decision.kind === "replay") {
        const { entry } = decision;
        await store.journalPaidCall(
          { ...key(n), iteration, kind, requestHash, state: "replayed", at: scope.now() },
          { unit, token: scope.token },
        );
        await store.appendEvents(run, [
          {
            at: scope.now(),
            type: "paid-call-replayed",
            unit,
            attempt,
            data: { call: kind, replayed: true, from: { attempt: entry.attempt, seq: entry.seq }, requestHash: requestHash.slice(0, 16) },
          },
        ]);
        return entry.reply as T;
      }
      if (decision.ended)
        await store.appendEvents(run, [
          {
            at: scope.now(),
            type: "paid-replay-ended",
            unit,
            attempt,
            data: {
              call: kind,
              at: n,
              why: decision.ended === "differs" ? "the request differs from the one recorded" : "nothing more was recorded",
            },
          },
        ]);
      let started = false;
      const sending = async () => {
        if (started) return;
        started = true;
        await store.journalPaidCall(
          { ...key(n), iteration, kind, requestHash, state: "started", at: scope.now() },
          { unit, token: scope.token },
        );
      };
      let result: T;
      try {
        result = await make(sending);
      } catch (err) {
        if (started) await store.answerPaidCall(key(n), { state: "failed", answeredAt: scope.now() }).catch(() => undefined);
        throw err;
      }
      await sending(); // a call that never said when it left (a charge) is recorded now, with its answer below
      const answer = answerOf(result) ?? null;
      // an answer holding a secret value is not stored: the call is made again by the next attempt
      const storable = canonicalJson(maskSecretsIn(answer, scope.secrets)) === canonicalJson(answer);
      await store.answerPaidCall(key(n), {
        state: "answered",
        ...(storable ? { reply: answer, replayable: true } : { replayable: false }),
        answeredAt: scope.now(),
      });
      return result;
    },
  };
}
