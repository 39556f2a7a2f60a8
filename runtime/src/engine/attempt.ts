/**
 * One attempt of one unit: build the handler's context (attempt-prepare.ts:
 * needs read through manifests; attempt-channel.ts: guarded tool calls and
 * writes, budget charges), run the handler
 * under its timeout and loop bound, check the result's shape and the unit's
 * verifiers, and return an outcome as data. Nothing here commits a
 * checkpoint: the worker does, with the attempt's fencing token. This file
 * gathers the facts (the guards' sticky refusals, how the handler ended);
 * attempt-outcome.ts alone decides what they mean.
 */
import { join } from "node:path";
import { unitTimeoutMs, type PlanUnit } from "@taskspec/compiler";
import { GuardError, StaleFencingTokenError } from "../errors.js";
import type { VerifierContext } from "../handler-api.js";
import { toolOf, ToolCallFailedError } from "../ledger/ledger.js";
import { maskSecrets, maskSecretsIn, safeErrorText, stringLeaves } from "../ledger/redact.js";
import { ownEntry } from "../model/own.js";
import type { Claim } from "../store/types.js";
import { isStoreUnavailable } from "../store/unavailable.js";
import { openChannel } from "./attempt-channel.js";
import { decideAttempt, verdictOf, type AttemptOutcome, type HandlerEnd } from "./attempt-outcome.js";
import { iterationsToResume, loopDigest, prepareAttempt, type AttemptState, type Prepared } from "./attempt-prepare.js";
import { nowIso, type EngineCore } from "./core.js";
import { checkPasses } from "./expressions.js";
import {
  HandlerExitedError,
  inProcessRunner,
  UnsendableResultError,
  type ContextData,
  type HandlerOps,
  type HandlerSession,
} from "./handler-runner.js";
import { resultProblem } from "./result-shape.js";
import { runVerifiers } from "./verify.js";

export type { AttemptOutcome } from "./attempt-outcome.js";

class AttemptTimeout extends Error {}

/**
 * One iteration under the attempt's deadline (the unit's timeout, counted
 * from the attempt's first iteration: a timeout is per attempt, not per
 * iteration) and the attempt's abort (lease lost): whichever comes first ends
 * the handler (a handler process is killed, a synchronous loop included) and
 * rejects.
 */
async function underTimeout(
  unit: PlanUnit,
  deadline: number,
  controller: AbortController,
  session: HandlerSession,
  run: Promise<unknown>,
): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeoutMs = unitTimeoutMs(unit); // always one: the unit's, the task's or the default
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        reject(new AttemptTimeout(`unit ${unit.id} ran past its timeout of ${timeoutMs} ms`));
        session.kill("timeout");
        controller.abort(new Error("timeout")); // after the rejection, so the race reports the timeout
      },
      Math.max(0, deadline - Date.now()),
    );
  });
  const lost = new Promise<never>((_, reject) =>
    controller.signal.addEventListener(
      "abort",
      () => {
        session.kill("aborted");
        reject(controller.signal.reason);
      },
      { once: true },
    ),
  );
  lost.catch(() => {});
  timeout.catch(() => {});
  try {
    return await Promise.race([run, timeout, lost]);
  } finally {
    clearTimeout(timer);
  }
}

export async function runAttempt(core: EngineCore, unit: PlanUnit, claim: Claim): Promise<AttemptOutcome> {
  const st: AttemptState = {
    refusals: {},
    loopEnded: false,
    closed: false,
    iteration: 1,
    seq: 0,
    written: new Map(),
    rejected: [],
    iterationWrites: [],
  };
  const p = await prepareAttempt(core, unit, claim);
  const renew = renewLease(p, st);
  const channel = openChannel(p, st);
  const session: { current?: HandlerSession } = {};
  let end: HandlerEnd;
  try {
    end = await driveHandler(p, st, channel.ops, session);
  } catch (err) {
    end = await endOf(p, err);
  } finally {
    st.closed = true;
    clearInterval(renew);
    session.current?.close();
  }
  const decided = decideAttempt({
    unitId: unit.id,
    refusals: st.refusals,
    end,
    leftovers: [...st.rejected, ...st.written.values()],
    missing: unit.produces.filter((name) => !st.written.has(name)),
  });
  // a failure once the loop had ended (exhausted, an artifact missing, a verifier failed) closes it: a retry loops afresh
  const closing = (o: AttemptOutcome): AttemptOutcome =>
    o.kind === "failed" && unit.loop && st.loopEnded ? { ...o, closesLoop: true } : o;
  if (decided.kind !== "verify") return maskOutcome(closing(decided), p.secrets);
  return maskOutcome(closing(await verifyResult(p, st, channel.readNeed, decided.result)), p.secrets);
}

/** Keeps the attempt's lease alive; a lost one is a sticky refusal and aborts the handler. */
function renewLease(p: Prepared, st: AttemptState): NodeJS.Timeout {
  const { core, unit, claim, controller } = p;
  const renew = setInterval(
    () => {
      core.store.renewLease(core.run, unit.id, claim.token, core.leaseTtlMs, nowIso(core)).catch((err: unknown) => {
        if (err instanceof StaleFencingTokenError) {
          st.refusals.leaseLost = err.message;
          controller.abort(new Error("lease lost"));
        }
      });
    },
    Math.max(50, Math.floor(core.leaseTtlMs / 3)),
  );
  renew.unref();
  return renew;
}

/** Runs the handler, iteration by iteration, until it returns for good or a refusal stops it. */
async function driveHandler(p: Prepared, st: AttemptState, ops: HandlerOps, session: { current?: HandlerSession }): Promise<HandlerEnd> {
  const { core, unit, claim, dir, inputs, sources, declaredInputs, needsEnv, baseEnv, controller } = p;
  const { store, run } = core;
  const attempt = claim.attempt;
  const r = st.refusals;
  if (!(core.code ? ownEntry(core.code.units, unit.id) : ownEntry(core.handlers.units, unit.id))) return { kind: "no-handler" };
  // The handler sees copies of its declared inputs and needs only; keys and templates render from baseEnv.
  const data: ContextData = {
    run: { id: run },
    task: { id: core.plan.task.id, version: core.plan.task.version },
    unit: { id: unit.id, phase: unit.phase },
    attempt: { id: `a${attempt}`, number: attempt },
    inputs: Object.fromEntries([...declaredInputs].map((name) => [name, inputs[name] ?? null])),
    needs: needsEnv,
  };
  const max = unit.loop?.max ?? 1;
  // Durable iterations: what an earlier attempt of this loop committed is answered from the store, never run (or paid) again.
  const loop = unit.loop ? loopDigest(unit, sources) : undefined;
  const resumed = loop ? iterationsToResume(await store.listIterations(run, { unit: unit.id, loop, open: true }), max) : [];
  if (resumed.length)
    await store.appendEvents(run, [
      {
        at: nowIso(core),
        type: "loop-resumed",
        unit: unit.id,
        attempt,
        data: { committed: resumed.length, max, next: resumed.length + 1, attempts: [...new Set(resumed.map((it) => it.attempt))] },
      },
    ]);
  const runner = core.runner ?? inProcessRunner(core.handlers);
  const deadline = Date.now() + unitTimeoutMs(unit); // per attempt: every iteration it runs shares it
  let previous: unknown;
  let result: unknown;
  for (st.iteration = 1; st.iteration <= max; st.iteration++) {
    const iteration = st.iteration;
    const committed = resumed[iteration - 1];
    if (committed) {
      result = committed.result;
      for (const m of committed.artifacts) {
        const before = st.written.get(m.name);
        if (before) st.rejected.push(before);
        st.written.set(m.name, m);
      }
    } else {
      // a handler process gets the attempt's directory and number: the claim is durable before it starts
      if (!session.current && runner.mode !== "none") await p.claimDurable();
      session.current ??= await runner.open({ unitId: unit.id, data, ops, signal: controller.signal, dir: join(core.storage.root, dir) });
      st.iterationWrites = [];
      result = await underTimeout(unit, deadline, controller, session.current, session.current.invoke(iteration, previous));
      // a refusal or a lost lease/store stops the loop where it is: the iteration is not committed, the loop stays open
      if (r.violation || r.budgetBlock || r.unknown || r.corrupt || r.held || r.storeLost || r.planChanged)
        return { kind: "returned", result };
      const shape = resultProblem(result === undefined ? null : result);
      if (shape) return { kind: "invalid-result", problem: shape };
    }
    if (!unit.loop?.until) break;
    if (checkPasses(unit.loop.until, { ...baseEnv, result: result ?? null, iteration }).passed) break;
    // committed only when the loop goes on: the iteration that ends it is committed with the unit (a crash
    // before that commit re-runs it in a new attempt; its files are orphans, never adopted)
    if (!committed && loop && iteration < max && !(await commitIteration(p, st, loop, max, result ?? null)))
      return { kind: "returned", result };
    if (iteration === max) {
      st.loopEnded = true;
      return {
        kind: "loop-exhausted",
        message: `loop stopped after max ${max} iterations without \`until\` (${unit.loop.until.source}) becoming true`,
      };
    }
    previous = result;
  }
  st.loopEnded = true;
  return { kind: "returned", result };
}

/** Commits the iteration that just returned; false when the attempt must stop (lease or store lost). */
async function commitIteration(p: Prepared, st: AttemptState, loop: string, max: number, value: unknown): Promise<boolean> {
  const { core, unit, claim } = p;
  const { store, run } = core;
  const { attempt } = claim;
  const { iteration, iterationWrites } = st;
  try {
    await store.commitIteration(
      {
        run,
        unit: unit.id,
        loop,
        iteration,
        max,
        attempt,
        result: value,
        artifacts: iterationWrites,
        committedAt: nowIso(core),
      },
      { unit: unit.id, token: claim.token },
      {
        at: nowIso(core),
        type: "iteration-committed",
        unit: unit.id,
        attempt,
        data: { iteration, max, artifacts: iterationWrites.map((m) => ({ name: m.name, sha256: m.sha256 })) },
      },
    );
  } catch (err) {
    if (err instanceof StaleFencingTokenError) {
      st.refusals.leaseLost ??= err.message; // another attempt owns this loop now
      return false;
    }
    if (isStoreUnavailable(err)) {
      st.refusals.storeLost ??= err instanceof Error ? err.message : String(err);
      st.storeLostError ??= err;
      return false;
    }
    throw err;
  }
  return true;
}

/** What a thrown error says about how the handler ended (the refusals it may stand for are decided first). */
async function endOf(p: Prepared, err: unknown): Promise<HandlerEnd> {
  const { core, unit, claim, inputs, secrets } = p;
  if (err instanceof AttemptTimeout) {
    const open = (await core.store.listEffects(core.run, { unit: unit.id, states: ["STARTED", "UNKNOWN"] })).find(
      (e) => e.attempt === claim.attempt,
    );
    return { kind: "timeout", message: err.message, ...(open ? { openEffect: { id: open.id, tool: open.tool } } : {}) };
  }
  if (err instanceof ToolCallFailedError) return { kind: "tool-failed", message: err.message };
  // the store keeps a safe message: no credential-shaped text, no input value, bounded
  if (err instanceof HandlerExitedError) return { kind: "crashed", message: safeErrorText(err, stringLeaves(inputs), secrets) };
  if (err instanceof UnsendableResultError) return { kind: "unsendable", message: err.message };
  return { kind: "threw", message: safeErrorText(err, stringLeaves(inputs), secrets) };
}

/** Runs the unit's verifiers on a result nothing refused; their verdict decides (attempt-outcome.ts `verdictOf`). */
async function verifyResult(
  p: Prepared,
  st: AttemptState,
  readNeed: (name: string) => Promise<Uint8Array>,
  result: unknown,
): Promise<AttemptOutcome> {
  const { core, unit, claim, sources, secrets, baseEnv, controller } = p;
  const { run } = core;
  const { attempt } = claim;
  const { written, rejected } = st;
  const verifierContext: VerifierContext = {
    run: { id: run },
    unit: { id: unit.id },
    result,
    read: (name) => readNeed(name),
    tool: async <T>(name: string, args: Record<string, unknown>) => {
      const t = toolOf(core.plan, name);
      const adapter = ownEntry(core.handlers.tools, name);
      if (!t || t.class !== "read" || !adapter)
        throw new GuardError(unit.id, "undeclared-tool", `a verifier may call only declared read tools; ${name} refused`);
      await p.claimDurable(); // the lookup carries the attempt's id and fencing token
      return (await adapter.call(args, {
        runId: run,
        unitId: unit.id,
        attemptId: `a${attempt}`,
        fencingToken: claim.token,
        signal: controller.signal,
      })) as T;
    },
  };
  const verifierResults = await runVerifiers(unit.verify, {
    plan: core.plan,
    verifiers: core.verifiers?.verifiers,
    env: { ...baseEnv, result },
    context: verifierContext,
    jsonDocuments: async () => {
      const docs = [...written.values()].filter((m) => m.mediaType === "application/json");
      if (docs.length === 0) return [result];
      return Promise.all(
        docs.map(async (m) => JSON.parse(Buffer.from(await core.storage.read(m.path, m.sha256)).toString("utf8")) as unknown),
      );
    },
    ...(core.baseDir ? { baseDir: core.baseDir } : {}),
  });
  // verifiers judged the live result; what is stored of it, and of their reasons, holds no secret
  const stored = maskSecretsIn(result, secrets);
  const verdicts = verifierResults.map((v) => (v.reason === undefined ? v : { ...v, reason: maskSecrets(v.reason, secrets) }));
  return verdictOf(
    verdicts,
    [...written.values()],
    (artifacts) => ({ kind: "complete", unit: unit.id, attempt, result: stored, sources, artifacts, rejected }),
    [...rejected, ...written.values()],
  );
}

/** An attempt's outcome with every known secret value in its messages masked as `***` (the store keeps them). */
function maskOutcome(outcome: AttemptOutcome, secrets: ReadonlySet<string>): AttemptOutcome {
  if (secrets.size === 0) return outcome;
  if (outcome.kind === "failed") return { ...outcome, error: { ...outcome.error, message: maskSecrets(outcome.error.message, secrets) } };
  if ("message" in outcome && typeof outcome.message === "string") return { ...outcome, message: maskSecrets(outcome.message, secrets) };
  return outcome;
}
