/**
 * One attempt of one unit: build the handler's context (needs read through
 * manifests, guarded tool calls and writes, budget charges), run the handler
 * under its timeout and loop bound, check the result's shape and the unit's
 * verifiers, and return an outcome as data. Nothing here commits a
 * checkpoint: the worker does, with the attempt's fencing token. This file
 * gathers the facts (the guards' sticky refusals, how the handler ended);
 * attempt-outcome.ts alone decides what they mean.
 */
import { unitTimeoutMs, type PlanUnit } from "@taskspec/compiler";
import { ArtifactPathError, CorruptArtifactError, checkArtifactName } from "../artifacts/storage.js";
import { BudgetBlockedError, EffectUnknownError, GuardError, PlanVersionChangedError, StaleFencingTokenError } from "../errors.js";
import { join } from "node:path";
import type { ArtifactRef, VerifierContext, WriteOptions } from "../handler-api.js";
import { callTool, toolOf, ToolCallFailedError, type LedgerScope } from "../ledger/ledger.js";
import type { BudgetAmounts, LoopIteration, SourceDigests } from "../model/facts.js";
import { attemptDir, canonicalJson, sha256 } from "../model/identity.js";
import type { Claim } from "../store/types.js";
import { currentApproval } from "./approvals.js";
import { nowIso, type EngineCore } from "./core.js";
import { checkPasses } from "./expressions.js";
import { resultProblem } from "./result-shape.js";
import { runVerifiers } from "./verify.js";
import { ownEntry } from "../model/own.js";
import { isStoreUnavailable } from "../store/unavailable.js";
import { callModelBooked, modelRequestProblem } from "../models/book.js";
import { openJournal } from "./paid-journal.js";
import type { ModelRequest } from "../models/types.js";
import { CODE_SOURCE, codeDigester } from "../handlers/code-hash.js";
import { maskSecrets, maskSecretsIn, safeErrorText, secretInputValues, stringLeaves } from "../ledger/redact.js";
import { ApprovalHeldError, preparesAtCall, valueDigest } from "../ledger/approval-binding.js";
import { decideAttempt, verdictOf, type AttemptOutcome, type HandlerEnd, type Manifest, type Refusals } from "./attempt-outcome.js";
import {
  HandlerExitedError,
  inProcessRunner,
  UnsendableResultError,
  type ContextData,
  type HandlerOps,
  type HandlerSession,
} from "./handler-runner.js";

export type { AttemptOutcome } from "./attempt-outcome.js";

interface Upstream {
  result: unknown;
  artifacts: ArtifactRef[];
  facets: Record<string, Record<string, string> | undefined>;
}

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

const CHARGE_DIMENSIONS = new Set(["model_calls", "tokens"]);

/** A handler's `ctx.charge` argument as amounts, or a guard error: spend is never negative, NaN, infinite or unnamed. */
export function chargeOf(unitId: string, cost: unknown): BudgetAmounts {
  const refuse = (why: string) => new GuardError(unitId, "charge", `ctx.charge refused: ${why}`);
  if (typeof cost !== "object" || cost === null || Array.isArray(cost))
    throw refuse(`it takes { model_calls?, tokens? }, not ${Array.isArray(cost) ? "an array" : cost === null ? "null" : typeof cost}`);
  const out: BudgetAmounts = {};
  for (const [key, value] of Object.entries(cost as Record<string, unknown>)) {
    if (!CHARGE_DIMENSIONS.has(key)) throw refuse(`unknown dimension ${JSON.stringify(key)} (known: model_calls, tokens)`);
    if (value === undefined) continue;
    if (typeof value !== "number") throw refuse(`${key} is a ${typeof value}, not a number`);
    if (!Number.isFinite(value)) throw refuse(`${key} is ${value}, not a finite number`);
    if (value < 0) throw refuse(`${key} is ${value}: a charge is never negative`);
    if (value > 0) out[key as "model_calls" | "tokens"] = value;
  }
  return out;
}

/** Loads what the unit needs: upstream records and artifacts, input values. */
async function loadNeeds(core: EngineCore, unit: PlanUnit) {
  const needs: Record<string, Upstream> = {};
  const inputs: Record<string, unknown> = {};
  const sources: SourceDigests = {};
  const needed = new Set(unit.needs.filter((n) => n.nodeType === "input").map((n) => n.node));
  for (const input of core.plan.inputs) {
    // Only the inputs this unit needs are read fresh (a reader may call the outside world).
    const reader = needed.has(input.name) ? ownEntry(core.handlers.inputs, input.name) : undefined;
    inputs[input.name] = reader ? await reader({ run: { id: core.run }, input: input.name }) : (input.value ?? input.version ?? null);
  }
  for (const need of unit.needs) {
    if (need.nodeType === "input") {
      sources[`input:${need.node}`] = [
        {
          name: need.node,
          sha256: sha256(canonicalJson(inputs[need.node] ?? null) + core.plan.inputs.find((i) => i.name === need.node)?.definitionHash),
        },
      ];
      continue;
    }
    const [rec] = await core.store.getRecords(core.run, { unit: need.node, status: "current" });
    const manifests = rec ? await core.store.listArtifacts(core.run, { recordId: rec.id }) : [];
    needs[need.node] = {
      result: rec?.result ?? null,
      artifacts: manifests.map((m) => ({ name: m.name, path: m.path, sha256: m.sha256, size: m.size, mediaType: m.mediaType })),
      facets: Object.fromEntries(manifests.map((m) => [m.name, m.facets])),
    };
    sources[need.node] = manifests.map((m) => ({ name: m.name, sha256: m.sha256, ...(m.facets ? { facets: m.facets } : {}) }));
  }
  // the code it runs with, so a later edit of it is seen (handlers/code-hash.ts)
  sources[CODE_SOURCE] = codeDigester(core.plan, core.handlers, core.code)(unit);
  return { needs, inputs, sources };
}

/**
 * The digest naming a unit's loop: its definition and the sources it runs
 * from (input values, upstream artifacts, handler code). Committed iterations
 * are answered from the store only to an attempt of the same loop: changed
 * inputs or code start the loop afresh.
 */
export function loopDigest(unit: PlanUnit, sources: SourceDigests): string {
  return sha256(canonicalJson({ unit: unit.id, definition: unit.definitionHash, sources }));
}

/** The committed iterations an attempt continues from: 1..k without a gap, the loop's own. */
export function iterationsToResume(committed: readonly LoopIteration[], max: number): LoopIteration[] {
  const out: LoopIteration[] = [];
  for (const it of [...committed].sort((a, b) => a.iteration - b.iteration)) {
    if (it.iteration !== out.length + 1 || it.iteration > max) break;
    out.push(it);
  }
  return out;
}

/**
 * What an attempt observes while it runs, in one record every part shares:
 * the guards' sticky refusals (handed to decideAttempt as they are), the files
 * it wrote, where its loop is, and whether it has ended.
 */
interface AttemptState {
  refusals: Refusals;
  /** The error a lost store threw, thrown again to every later ctx request. */
  storeLostError?: unknown;
  /** The loop ran out of `max` or finished before the handler's last return: a failure after it closes the loop. */
  loopEnded: boolean;
  /** The handler's part is over (returned, timed out, died): later ctx requests are refused. */
  closed: boolean;
  iteration: number;
  seq: number;
  written: Map<string, Manifest>;
  rejected: Manifest[];
  /** Files written by the iteration now running (committed with it). */
  iterationWrites: Manifest[];
}

/** What an attempt reads before its handler starts: its needs and inputs, the values it must not store, the template environment. */
interface Prepared {
  core: EngineCore;
  unit: PlanUnit;
  claim: Claim;
  dir: string;
  needs: Record<string, Upstream>;
  inputs: Record<string, unknown>;
  sources: SourceDigests;
  secrets: Set<string>;
  declaredInputs: Set<string>;
  needsEnv: Record<string, { result: unknown; artifacts: ArtifactRef[] }>;
  baseEnv: Record<string, unknown>;
  controller: AbortController;
  /**
   * Makes the claim durable (store.sync()) before the attempt's first act
   * outside the store; later calls share the first one.
   */
  claimDurable: () => Promise<void>;
}

async function prepareAttempt(core: EngineCore, unit: PlanUnit, claim: Claim): Promise<Prepared> {
  const { run } = core;
  const attempt = claim.attempt;
  const { needs, inputs, sources } = await loadNeeds(core, unit);
  // values nothing this attempt stores may hold: secret inputs, the model's key, and (added by each
  // call) secret arguments and result fields; masked as *** in messages, the result, verifier reasons
  const secrets = new Set<string>([...secretInputValues(core.plan, inputs), ...(core.model?.secrets ?? [])]);
  const declaredInputs = new Set(unit.needs.filter((n) => n.nodeType === "input").map((n) => n.node));
  const needsEnv = Object.fromEntries(Object.entries(needs).map(([k, v]) => [k, { result: v.result, artifacts: v.artifacts }]));
  // The claim committed without an fsync of its own. Before the attempt's number or token leaves the store
  // (its directory, a handler process, a tool call or verifier lookup, a model call or charge) one sync makes
  // it durable, so a power loss never hands them out again; an attempt that does none of these (a pure
  // in-process step) lets its commit's fsync carry the claim: one fsync per unit, not two.
  let durable: Promise<void> | undefined;
  const claimDurable = () => (durable ??= core.store.sync());
  const baseEnv = {
    task: { id: core.plan.task.id, version: core.plan.task.version },
    run: { id: run },
    unit: { id: unit.id, phase: unit.phase },
    attempt: { id: `a${attempt}`, number: attempt },
    inputs,
    ...needsEnv,
  };
  return {
    core,
    unit,
    claim,
    dir: attemptDir(run, unit.id, attempt),
    needs,
    inputs,
    sources,
    secrets,
    declaredInputs,
    needsEnv,
    baseEnv,
    controller: new AbortController(),
    claimDurable,
  };
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

/**
 * The channel the handler's ctx requests come through: every read, write,
 * tool call, charge and model call is checked here against the plan, and a
 * refusal is recorded in the attempt's state (sticky: a handler that catches
 * it still ends with it).
 */
function openChannel(p: Prepared, st: AttemptState): { ops: HandlerOps; readNeed: (name: string) => Promise<Uint8Array> } {
  const { core, unit, claim, dir, needs, inputs, secrets, declaredInputs, needsEnv, baseEnv, controller, claimDurable } = p;
  const { store, run } = core;
  const attempt = claim.attempt;
  const r = st.refusals;

  const refuseIfClosed = (what: string) => {
    if (st.closed)
      throw new GuardError(unit.id, "attempt-closed", `attempt a${attempt} of ${unit.id} has ended (timeout or finish); ${what} refused`);
  };

  // The handler's own spend (ctx.charge, ctx.model) draws first on what the claim booked of the unit's
  // declared cost (the store keeps the undrawn rest on the lease: store/booking.ts); only what is beyond
  // it is booked (and checked against the caps). Whatever ends the attempt settles the booking: what it
  // did not draw is released, so the used budgets count what the attempt was seen to start. Tool calls
  // are booked at their own declared cost, as the compiler's worst case adds them to the unit's.
  const charge = async (delta: BudgetAmounts, why: string, mode: "check" | "record" = "check", own = false) => {
    const out = await store.chargeBudget(
      run,
      delta,
      {
        at: nowIso(core),
        type: "budget-charged",
        unit: unit.id,
        attempt,
        data: { ...delta, for: why, ...(unit.loop ? { iteration: st.iteration } : {}) },
      },
      mode,
      own ? { unit: unit.id, token: claim.token } : undefined,
    );
    if (!out.ok) {
      r.budgetBlock ??= new BudgetBlockedError(out.budget, out.used, out.cap, out.requested);
      throw r.budgetBlock;
    }
  };
  const ownCharge = (delta: BudgetAmounts, why: string, mode: "check" | "record" = "check") => charge(delta, why, mode, true);

  const ledger: LedgerScope = {
    store,
    plan: core.plan,
    handlers: core.handlers,
    run,
    unit,
    attempt,
    iteration: () => st.iteration,
    token: claim.token,
    planVersion: core.planVersion,
    env: baseEnv,
    signal: controller.signal,
    crash: core.crash,
    now: () => nowIso(core),
    ...(core.contractFile ? { contractFile: core.contractFile } : {}),
    approvalCovers: async (tool) =>
      (await currentApproval(store, core.plan, run, unit.id, core.planVersion, nowIso(core), tool)) !== undefined,
    // a gate in front of an irreversible call: what an approval must have been granted for (approval-binding.ts)
    ...(preparesAtCall(core.plan, unit)
      ? {
          gate: {
            inputs: Object.fromEntries([...declaredInputs].map((name) => [name, valueDigest(inputs[name])])),
            needs: Object.fromEntries(
              Object.entries(needsEnv).map(([name, v]) => [
                name,
                valueDigest({ result: v.result, artifacts: v.artifacts.map((a) => ({ name: a.name, sha256: a.sha256 })) }),
              ]),
            ),
            planVersion: core.planVersion,
          },
        }
      : {}),
    charge,
    nextSeq: () => ++st.seq,
    secrets,
  };

  const journal = openJournal({
    store,
    run,
    unit: unit.id,
    attempt,
    token: claim.token,
    iteration: () => st.iteration,
    now: () => nowIso(core),
    secrets,
  });

  const guarded = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    refuseIfClosed(what);
    if (r.budgetBlock || r.violation || r.unknown || r.held || r.planChanged)
      throw (r.budgetBlock ?? r.violation ?? r.unknown ?? r.held ?? r.planChanged)!;
    if (r.storeLost) throw st.storeLostError;
    try {
      return await fn();
    } catch (err) {
      if (err instanceof GuardError) r.violation ??= err;
      else if (err instanceof ArtifactPathError) r.violation ??= new GuardError(unit.id, "path", err.message);
      else if (err instanceof EffectUnknownError) r.unknown ??= err;
      else if (err instanceof CorruptArtifactError) r.corrupt ??= err;
      else if (err instanceof ApprovalHeldError) r.held ??= err;
      else if (err instanceof PlanVersionChangedError) r.planChanged ??= err;
      else if (isStoreUnavailable(err) && r.storeLost === undefined) {
        r.storeLost = err instanceof Error ? err.message : String(err);
        st.storeLostError = err;
      }
      throw err;
    }
  };

  const readNeed = async (name: string): Promise<Uint8Array> => {
    for (const up of Object.values(needs)) {
      const ref = up.artifacts.find((a) => a.name === name);
      if (ref) return core.storage.read(ref.path, ref.sha256);
    }
    const own = st.written.get(name);
    if (own) return core.storage.read(own.path, own.sha256);
    throw new GuardError(unit.id, "undeclared-artifact", `unit ${unit.id} read ${name}, which none of its needs produces`);
  };

  const write = async (name: string, data: Uint8Array | string | object, options: WriteOptions = {}): Promise<ArtifactRef> => {
    if (!unit.produces.includes(name)) {
      throw new GuardError(
        unit.id,
        "undeclared-artifact",
        `unit ${unit.id} wrote artifact ${JSON.stringify(name)}, which its \`produces\` [${unit.produces.join(", ")}] does not declare; refused`,
      );
    }
    const problem = checkArtifactName(name);
    if (problem) throw new GuardError(unit.id, "path", `refused artifact write: ${problem}`);
    const bytes = data instanceof Uint8Array ? data : Buffer.from(typeof data === "string" ? data : JSON.stringify(data, null, 2));
    const mediaType =
      options.mediaType ??
      (data instanceof Uint8Array ? "application/octet-stream" : typeof data === "string" ? "text/plain" : "application/json");
    const targetDir = unit.loop ? `${dir}/i${st.iteration}` : dir;
    const stored = await core.storage.write(targetDir, name, bytes);
    const manifest: Manifest = {
      run,
      unit: unit.id,
      attempt,
      name,
      path: stored.path,
      sha256: stored.sha256,
      size: stored.size,
      mediaType,
      ...(options.facets ? { facets: options.facets as Record<string, string> } : {}),
      planVersion: core.planVersion,
      verifierResults: [],
      createdAt: nowIso(core),
    };
    const previous = st.written.get(name);
    if (previous) st.rejected.push(previous);
    st.written.set(name, manifest);
    st.iterationWrites.push(manifest);
    await store.appendEvents(run, [
      {
        at: nowIso(core),
        type: "artifact-staged",
        unit: unit.id,
        attempt,
        data: { name, path: stored.path, sha256: stored.sha256, size: stored.size },
      },
    ]);
    return { name, path: stored.path, sha256: stored.sha256, size: stored.size, mediaType };
  };

  // a request whose attempt number or token leaves the store: the claim is made durable first
  const outward = <T>(what: string, fn: () => Promise<T>): Promise<T> =>
    guarded(what, async () => {
      await claimDurable();
      return fn();
    });

  const ops: HandlerOps = {
    read: (name) => guarded(`read ${name}`, () => readNeed(name)),
    tool: (name, args) => outward(`tool ${name}`, () => callTool(ledger, name, args)),
    write: (name, data, options) => outward(`write ${name}`, () => write(name, data, options)),
    charge: (cost: unknown) => {
      const pending = outward("charge", async () => {
        const amounts = chargeOf(unit.id, cost);
        // journalled before it is booked: a charge an earlier attempt of this unit made (answered) is not booked again
        await journal.call(
          "charge",
          amounts,
          (sending) => sending().then(() => ownCharge(amounts, "model")),
          () => null,
        );
      });
      pending.catch(() => {}); // refusal is sticky; a handler that does not await still ends blocked
      return pending;
    },
    model: (request: unknown) =>
      outward("model", async () => {
        const problem = modelRequestProblem(request);
        if (problem) throw new GuardError(unit.id, "model", `ctx.model refused: ${problem}`);
        if (!core.model)
          throw new GuardError(
            unit.id,
            "model",
            "ctx.model refused: this run has no model configured (taskspec run --model-url URL --model NAME)",
          );
        const model = core.model;
        // an answer an earlier attempt of this unit was given for exactly this request is handed back, unpaid (paid-replay.ts)
        return journal.call(
          "model",
          request,
          (sending) => callModelBooked(ownCharge, model, request as ModelRequest, controller.signal, sending),
          (reply) => reply,
        );
      }),
  };
  return { ops, readNeed };
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
