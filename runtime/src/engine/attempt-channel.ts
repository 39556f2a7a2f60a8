/**
 * The channel an attempt's handler reaches the world through: every ctx
 * request (read, write, tool call, charge, model call) is checked here
 * against the plan and the attempt's guards, and a refusal is recorded in
 * the attempt's state, where it stays (attempt-outcome.ts decides what it
 * means).
 */
import { ArtifactPathError, CorruptArtifactError, checkArtifactName } from "../artifacts/storage.js";
import { BudgetBlockedError, EffectUnknownError, GuardError, PlanVersionChangedError } from "../errors.js";
import type { ArtifactRef, WriteOptions } from "../handler-api.js";
import { callTool, type LedgerScope } from "../ledger/ledger.js";
import { ApprovalHeldError, preparesAtCall, valueDigest } from "../ledger/approval-binding.js";
import type { BudgetAmounts } from "../model/facts.js";
import { callModelBooked, modelRequestProblem } from "../models/book.js";
import type { ModelRequest } from "../models/types.js";
import { isStoreUnavailable } from "../store/unavailable.js";
import { currentApproval } from "./approvals.js";
import type { Manifest } from "./attempt-outcome.js";
import type { AttemptState, Prepared } from "./attempt-prepare.js";
import { nowIso } from "./core.js";
import type { HandlerOps } from "./handler-runner.js";
import { openJournal } from "./paid-journal.js";

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

/**
 * The channel the handler's ctx requests come through: every read, write,
 * tool call, charge and model call is checked here against the plan, and a
 * refusal is recorded in the attempt's state (sticky: a handler that catches
 * it still ends with it).
 */
export function openChannel(p: Prepared, st: AttemptState): { ops: HandlerOps; readNeed: (name: string) => Promise<Uint8Array> } {
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
