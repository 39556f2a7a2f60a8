/**
 * The side-effect ledger around every tool call. Order per call: guards
 * (declared in `uses`, approval for irreversible, key for dedup), budget
 * charge, reuse of an already COMMITTED effect with the same key, then
 * PREPARED -> STARTED -> call -> COMMITTED (receipt + rendered compensation)
 * or UNKNOWN/FAILED. The handler gets the receipt as stored (receipt.ts), the
 * first time as on a reuse. Nothing reaches the world before PREPARED and STARTED are
 * durable, so recovery always knows what to look up.
 *
 * An effect is its key and its request: every effect records the sha256 of
 * its canonical request (tool + arguments). A call whose tool and key name a
 * recorded effect (any state but FAILED) with another request is refused with
 * both requests shown (redacted: per-argument digests), never answered with
 * the earlier receipt. In a loop the iteration is part of the identity: a key
 * template that does not use `iteration` gets `#i<n>` appended, and a keyless
 * call is reused only within its own iteration.
 */
import {
  costPerToolCall,
  namesIn,
  renderTemplate,
  type CompiledTemplate,
  type Plan,
  type PlanTool,
  type PlanUnit,
} from "@taskspec/compiler";
import { EffectUnknownError, GuardError, RuntimeError } from "../errors.js";
import { isToolError, type HandlerModule } from "../handler-api.js";
import type { BudgetAmounts, EffectRecord } from "../model/facts.js";
import { canonicalJson, sha256 } from "../model/identity.js";
import type { Store } from "../store/types.js";
import type { CrashHook } from "../faults/crash-points.js";
import { contractLocation } from "./contract-location.js";
import { effectIdentity, enforceEffectBound } from "./effect-bound.js";
import { ownEntry } from "../model/own.js";
import {
  differingArgs,
  intentOf,
  redactedRequest,
  requestHashOf,
  safeErrorText,
  secretArgValues,
  secretResultValues,
  showRequest,
  stringLeaves,
} from "./redact.js";
import { keptReceipt } from "./receipt.js";
import { EffectKeyConflictError, keyConflict } from "../store/effect-identity.js";
import type { RedactedRequest } from "../model/facts.js";
import {
  ApprovalHeldError,
  bindingMismatch,
  displayRequest,
  heldDifferences,
  preparedText,
  type CallNow,
  type GateValues,
} from "./approval-binding.js";

export interface LedgerScope {
  store: Store;
  plan: Plan;
  handlers: HandlerModule;
  run: string;
  unit: PlanUnit;
  attempt: number;
  /** The loop iteration now running (1 outside loops): part of each effect's identity. */
  iteration?: () => number;
  token: number;
  /** The plan the attempt runs under: an effect is prepared only while the run is still under it. */
  planVersion?: string;
  /** Names templates may use: task, run, unit, attempt, inputs, needs (and `iteration`, added per call). */
  env: Record<string, unknown>;
  signal: AbortSignal;
  crash: CrashHook;
  now: () => string;
  /** Where the contract came from, for guard messages. */
  contractFile?: string;
  /** Is there a current approval for this unit that covers the tool? */
  approvalCovers: (tool: string) => Promise<boolean>;
  /**
   * For a gate unit in front of an irreversible call (approval-binding.ts
   * `preparesAtCall`): the digests of the values it read. Its irreversible
   * calls are released only by an approval bound to exactly the request.
   */
  gate?: GateValues;
  /** Charges budget durably or throws BudgetBlockedError. */
  charge: (delta: BudgetAmounts, why: string) => Promise<void>;
  nextSeq: () => number;
  /**
   * The attempt's known secret values (secret inputs, the model's key); each
   * call adds its secret arguments and secret result fields. Masked as `***`
   * in every message the ledger stores, and by the attempt in what it stores.
   */
  secrets?: Set<string>;
}

export function toolOf(plan: Plan, name: string): PlanTool | undefined {
  return plan.tools.find((t) => t.name === name);
}

/** The receipt field that names the remote object (first declared result field, else `id`). */
export function remoteIdOf(tool: PlanTool, receipt: unknown): string | undefined {
  if (!receipt || typeof receipt !== "object") return undefined;
  const rec = receipt as Record<string, unknown>;
  const field = tool.result ? Object.keys(tool.result)[0] : "id";
  const v = field !== undefined ? rec[field] : undefined;
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
}

export function renderCompensation(tool: PlanTool, receipt: unknown, env: Record<string, unknown>): EffectRecord["compensation"] {
  if (!tool.compensate) return undefined;
  const args: Record<string, unknown> = {};
  for (const [k, t] of Object.entries(tool.compensate.with)) args[k] = renderTemplate(t, { ...env, result: receipt });
  return { tool: tool.compensate.tool, args };
}

export async function callTool(scope: LedgerScope, name: string, args: Record<string, unknown>): Promise<unknown> {
  const { plan, unit, store, run } = scope;
  // Only built when a call is refused: it re-reads the contract.
  const where = () =>
    scope.contractFile
      ? ` (${contractLocation(scope.contractFile, unit.id, "uses")}, unit ${unit.id}, key \`uses\`)`
      : ` (unit ${unit.id}, key \`uses\`)`;
  const tool = toolOf(plan, name);
  if (!tool)
    throw new GuardError(
      unit.id,
      "undeclared-tool",
      `unit ${unit.id} called tool ${name}, which the contract does not declare${where()}; refused, nothing was sent`,
    );
  if (!unit.uses.includes(name)) {
    throw new GuardError(
      unit.id,
      "undeclared-tool",
      `unit ${unit.id} called tool ${name}, which is not in its \`uses\` [${unit.uses.join(", ")}]${where()}; refused, nothing was sent`,
    );
  }
  const adapter = ownEntry(scope.handlers.tools, name);
  if (!adapter) throw new GuardError(unit.id, "undeclared-tool", `no adapter for tool ${name} in the handler module; refused`);
  const prepares = tool.class === "irreversible" && unit.approval !== undefined && scope.gate !== undefined;
  if (tool.class === "irreversible" && !prepares && !(await scope.approvalCovers(name))) {
    throw new GuardError(
      unit.id,
      "approval",
      `tool ${name} is irreversible and unit ${unit.id} has no current approval (bound to this run, plan version and input artifacts) covering it; refused, nothing was sent`,
    );
  }
  const secrets = scope.secrets ?? new Set<string>();
  for (const v of secretArgValues(args, tool)) secrets.add(v);
  const iteration = scope.iteration?.() ?? 1;
  const key = tool.key ? effectKey(tool.key, { ...scope.env, iteration, args }, unit, iteration) : undefined;
  if (tool.class === "dedup" && !key)
    throw new GuardError(unit.id, "key", `dedup tool ${name} has no idempotency key; refused (a dedup call is never made without its key)`);
  const argsDigest = sha256(canonicalJson(args));
  const meta = (signal: AbortSignal) => ({
    runId: run,
    unitId: unit.id,
    attemptId: `a${scope.attempt}`,
    fencingToken: scope.token,
    signal,
    ...(key ? { key } : {}),
  });

  if (tool.class === "read") {
    await scope.charge(costPerToolCall(tool.cost), `tool ${name}`);
    const result = await adapter.call(args, meta(scope.signal));
    for (const v of secretResultValues(result, tool)) secrets.add(v);
    await store.appendEvents(run, [
      { at: scope.now(), type: "evidence-read", unit: unit.id, attempt: scope.attempt, data: { tool: name, argsDigest } },
    ]);
    return result;
  }

  const requestHash = requestHashOf(name, args);
  const request = redactedRequest(name, args, tool);
  // A key names one effect: the same key with another request is refused, never answered with the earlier receipt.
  // (This unit's own request waiting for an approval is not another effect: a changed one replaces it below.)
  const known = key !== undefined ? await store.listEffects(run, { tool: name, key }) : [];
  const conflict = keyConflict(
    { tool: name, key, argsDigest, requestHash },
    prepares ? known.filter((e) => !(e.held && e.state === "PREPARED" && e.unit === unit.id)) : known,
  );
  if (conflict) throw keyConflictError(unit, name, key!, conflict, request, requestHash);

  // An earlier attempt of this unit already did this effect: hand back its receipt, never call again.
  const prior =
    key !== undefined
      ? known.find((e) => e.unit === unit.id && e.state === "COMMITTED")
      : (await store.listEffects(run, { unit: unit.id, tool: name, states: ["COMMITTED"] })).find(
          (e) => e.argsDigest === argsDigest && (e.iteration ?? 1) === iteration,
        );
  if (prior) {
    await store.appendEvents(run, [
      { at: scope.now(), type: "effect-reused", unit: unit.id, attempt: scope.attempt, data: { effect: prior.id, tool: name, key } },
    ]);
    return prior.receipt;
  }

  // At most the unit's bound of distinct effects of a dedup or irreversible tool (effect-bound.ts).
  const identity = effectIdentity({ key, requestHash, argsDigest });
  await enforceEffectBound(scope, tool, { identity, iteration });

  // A gate in front of an irreversible call: released only by an approval bound to exactly this request.
  const released = prepares
    ? await gateCall(
        scope,
        { tool: name, ...(key !== undefined ? { key } : {}), requestHash, request, values: scope.gate!, now: scope.now() },
        args,
        argsDigest,
        iteration,
      )
    : undefined;

  await scope.charge(costPerToolCall(tool.cost), `tool ${name}`);
  const id = released?.effect ?? `${run}/${unit.id}/a${scope.attempt}/${scope.nextSeq()}`;
  if (released?.effect) {
    // the PREPARED request the person approved: this attempt sends it
    await store.updateEffect(
      id,
      ["PREPARED"],
      { state: "STARTED", startedAt: scope.now(), attempt: scope.attempt, token: scope.token, held: undefined },
      {
        at: scope.now(),
        type: "effect-started",
        unit: unit.id,
        attempt: scope.attempt,
        data: { effect: id, tool: name, approval: released.approval },
      },
    );
  } else {
    await prepareNewEffect(scope, {
      id,
      tool: name,
      toolClass: tool.class,
      args,
      argsDigest,
      requestHash,
      request,
      iteration,
      key: key || undefined,
    });
    await enforceEffectBound(scope, tool, { identity, iteration, self: id });
    await store.updateEffect(
      id,
      ["PREPARED"],
      { state: "STARTED", startedAt: scope.now() },
      {
        at: scope.now(),
        type: "effect-started",
        unit: unit.id,
        attempt: scope.attempt,
        data: { effect: id, tool: name, ...(released ? { approval: released.approval } : {}) },
      },
    );
  }
  scope.crash("before-effect", { unit: unit.id, tool: name });
  let receipt: unknown;
  try {
    receipt = await adapter.call(args, meta(scope.signal));
  } catch (err) {
    // what the store keeps of the failure: no argument value, no credential, bounded
    const message = safeErrorText(err, stringLeaves(args), secrets);
    if (isToolError(err) && err.outcome === "failed") {
      await store.updateEffect(
        id,
        ["STARTED"],
        { state: "FAILED", error: message, resolvedAt: scope.now() },
        { at: scope.now(), type: "effect-failed", unit: unit.id, attempt: scope.attempt, data: { effect: id, tool: name } },
      );
      throw new ToolCallFailedError(name, message);
    }
    await store.updateEffect(
      id,
      ["STARTED"],
      { state: "UNKNOWN", error: message },
      { at: scope.now(), type: "effect-unknown", unit: unit.id, attempt: scope.attempt, data: { effect: id, tool: name, key } },
    );
    throw new EffectUnknownError(
      id,
      `the outcome of ${name} is unknown (${message}); recovery will look it up by key before anything else`,
    );
  }
  for (const v of secretResultValues(receipt, tool)) secrets.add(v);
  scope.crash("after-effect-before-receipt", { unit: unit.id, tool: name });
  // The handler gets what the store keeps, now and on every reuse: a crash never changes what a unit sees.
  const kept = keptReceipt(tool, receipt, secrets);
  if (kept.kind === "invalid") {
    await store.updateEffect(
      id,
      ["STARTED"],
      { state: "UNKNOWN", error: kept.why },
      { at: scope.now(), type: "effect-unknown", unit: unit.id, attempt: scope.attempt, data: { effect: id, tool: name, key } },
    );
    throw new EffectUnknownError(id, `${kept.why}; recovery will look it up by key before anything else`);
  }
  const compensation = renderCompensation(tool, receipt, { ...scope.env, iteration });
  const remoteId = remoteIdOf(tool, receipt);
  await store.updateEffect(
    id,
    ["STARTED"],
    {
      state: "COMMITTED",
      receipt: kept.receipt,
      resolvedAt: scope.now(),
      ...(remoteId ? { remoteId } : {}),
      ...(compensation ? { compensation } : {}),
    },
    {
      at: scope.now(),
      type: "effect-committed",
      unit: unit.id,
      attempt: scope.attempt,
      data: { effect: id, tool: name, remoteId, ...(kept.trimmed ? { receiptTrimmed: kept.trimmed } : {}) },
    },
  );
  return kept.receipt;
}

/**
 * A gate's irreversible call: an approval bound to exactly this request (its
 * hash, the gate unit's input and need digests, the plan version; in scope
 * and not expired) releases it, and the PREPARED effect the person saw is
 * the one sent. Otherwise the request is recorded PREPARED and held (a
 * changed one replaces the held one, saying what changed) and the attempt
 * ends blocked on the approval: nothing is charged or sent.
 */
async function gateCall(
  scope: LedgerScope,
  call: CallNow,
  args: Record<string, unknown>,
  argsDigest: string,
  iteration: number,
): Promise<{ effect?: string; approval: string }> {
  const { store, run, unit } = scope;
  const held = (await store.listEffects(run, { unit: unit.id, tool: call.tool, states: ["PREPARED"] })).filter(
    (e) => e.held && (e.iteration ?? 1) === iteration && (call.key === undefined || e.key === call.key),
  );
  const prepared = held.at(-1);
  const approvals = (await store.listApprovals(run)).filter((a) => a.unit === unit.id && a.binding?.tool === call.tool);
  const fits = approvals.find((a) => bindingMismatch(a, call).length === 0);
  if (fits) return { approval: fits.id, ...(prepared && prepared.requestHash === call.requestHash ? { effect: prepared.id } : {}) };

  // What differs from the newest approval of this call, else from the request already prepared.
  const latest = approvals.at(-1);
  const sameAsPrepared = prepared !== undefined && heldDifferences(prepared, call).length === 0;
  const changed = latest ? bindingMismatch(latest, call) : prepared && !sameAsPrepared ? heldDifferences(prepared, call) : [];
  const holdOf = (): NonNullable<EffectRecord["held"]> => ({
    reason: "approval",
    display: displayRequest(call.tool, args, call.key, toolOf(scope.plan, call.tool), scope.secrets),
    inputs: call.values.inputs,
    needs: call.values.needs,
    planVersion: call.values.planVersion,
    ...(changed.length ? { changed } : {}),
  });
  let id: string;
  if (prepared && sameAsPrepared) {
    id = prepared.id;
    if (changed.length && changed.join() !== (prepared.held?.changed ?? []).join())
      await store.updateEffect(id, ["PREPARED"], { held: holdOf() });
  } else {
    if (prepared)
      await store.updateEffect(
        prepared.id,
        ["PREPARED"],
        {
          state: "FAILED",
          error: `not sent: replaced by a new prepared request (${changed.join("; ")})`,
          resolvedAt: scope.now(),
          held: undefined,
        },
        {
          at: scope.now(),
          type: "effect-failed",
          unit: unit.id,
          attempt: scope.attempt,
          data: { effect: prepared.id, tool: call.tool, reason: "replaced", changed },
        },
      );
    id = `${run}/${unit.id}/a${scope.attempt}/${scope.nextSeq()}`;
    await prepareNewEffect(scope, {
      id,
      tool: call.tool,
      toolClass: "irreversible",
      args,
      argsDigest,
      requestHash: call.requestHash,
      request: call.request,
      iteration,
      key: call.key,
      held: holdOf(),
    });
  }
  // the message is stored (events): the request's shape and hash, never its values
  throw new ApprovalHeldError(
    unit.id,
    id,
    preparedText(unit.id, intentOf(call.tool, args, toolOf(scope.plan, call.tool)), call.key, call.requestHash) +
      (changed.length
        ? `; ${latest ? `approval ${latest.id} does not apply` : "the prepared request was replaced"}: ${changed.join("; ")}`
        : "") +
      `; nothing was sent (\`taskspec approve ${run} ${unit.id} --dry-run\` shows what will be sent)`,
  );
}

/**
 * Records a new PREPARED effect of this attempt, fenced by its lease token.
 * A key another worker recorded with another request between the caller's
 * conflict check and this insert is the same refusal as the check's.
 */
async function prepareNewEffect(
  scope: LedgerScope,
  e: {
    id: string;
    tool: string;
    toolClass: EffectRecord["toolClass"];
    args: Record<string, unknown>;
    argsDigest: string;
    requestHash: string;
    request: RedactedRequest;
    iteration: number;
    key: string | undefined;
    held?: EffectRecord["held"];
  },
): Promise<void> {
  const { store, run, unit } = scope;
  try {
    await store.prepareEffect(
      {
        id: e.id,
        run,
        unit: unit.id,
        attempt: scope.attempt,
        seq: Number(e.id.split("/").pop()),
        tool: e.tool,
        toolClass: e.toolClass,
        intent: intentOf(e.tool, e.args, toolOf(scope.plan, e.tool)),
        argsDigest: e.argsDigest,
        requestHash: e.requestHash,
        request: e.request,
        iteration: e.iteration,
        ...(e.key !== undefined ? { key: e.key } : {}),
        token: scope.token,
        preparedAt: scope.now(),
        ...(e.held ? { held: e.held } : {}),
      },
      { unit: unit.id, token: scope.token, ...(scope.planVersion !== undefined ? { planVersion: scope.planVersion } : {}) },
    );
  } catch (err) {
    if (err instanceof EffectKeyConflictError) throw keyConflictError(unit, e.tool, e.key!, err.prior, e.request, e.requestHash);
    throw err;
  }
}

/**
 * The key an effect is recorded and sent under: the tool's rendered key
 * template; in a loop unit, with `#i<iteration>` appended unless the template
 * uses `iteration` itself, so each iteration is its own effect (a remote that
 * deduplicates by key would otherwise answer iteration 2 with iteration 1's
 * result).
 */
export function effectKey(template: CompiledTemplate, env: Record<string, unknown>, unit: PlanUnit, iteration: number): string {
  const rendered = renderTemplate(template, env);
  if (!unit.loop || usesIteration(template)) return rendered;
  return `${rendered}#i${iteration}`;
}

const iterationUse = new WeakMap<CompiledTemplate, boolean>();
function usesIteration(template: CompiledTemplate): boolean {
  let known = iterationUse.get(template);
  if (known === undefined) {
    known = template.parts.some((p) => "expr" in p && namesIn(p.expr).includes("iteration"));
    iterationUse.set(template, known);
  }
  return known;
}

/** The refusal of a call whose key names an effect made with another request: both requests, without values. */
function keyConflictError(
  unit: PlanUnit,
  tool: string,
  key: string,
  prior: EffectRecord,
  request: RedactedRequest,
  requestHash: string,
): GuardError {
  const earlier = prior.request ? showRequest(prior.request) : prior.intent;
  const differ = prior.request ? differingArgs(prior.request, request) : [];
  const where = `${prior.state}, unit ${prior.unit}, attempt ${prior.attempt}${prior.iteration !== undefined ? `, iteration ${prior.iteration}` : ""}`;
  return new GuardError(
    unit.id,
    "key-conflict",
    `unit ${unit.id} called ${tool} with key ${JSON.stringify(key)}, which already names effect ${prior.id} (${where}) made with a different request; ` +
      `refused, nothing was sent and the earlier receipt is not handed back. ` +
      `earlier request: ${earlier} (sha256 ${(prior.requestHash ?? prior.argsDigest).slice(0, 16)}); ` +
      `this request: ${showRequest(request)} (sha256 ${requestHash.slice(0, 16)})` +
      (differ.length ? `; they differ in ${differ.join(", ")}` : "") +
      ". A key names one effect: put what tells the requests apart into the tool's key (an input, ${iteration}), or send the same request",
  );
}

/** The remote said the call did not happen: a failed attempt, safe to retry. */
export class ToolCallFailedError extends RuntimeError {
  override readonly name = "ToolCallFailedError";
  constructor(
    readonly tool: string,
    detail: string,
  ) {
    super(`tool ${tool} failed: ${detail}`);
  }
}
