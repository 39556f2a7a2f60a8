/**
 * Saga compensation: undo COMMITTED compensable effects in reverse commit
 * order with the compensation data recorded at commit time (so no handler is
 * needed), record and verify each one. A failed compensation blocks the run
 * with reason `compensation-failed`; it is never retried in a loop (an
 * operator's next `cancel` tries once more).
 */
import { evaluate, explainValues, type Plan, type PlanTool } from "@taskspec/compiler";
import type { HandlerModule } from "../handler-api.js";
import type { EffectRecord } from "../model/facts.js";
import type { Store } from "../store/types.js";
import type { CrashHook } from "../faults/crash-points.js";
import { remoteIdOf, renderCompensation, toolOf } from "./ledger.js";
import { classifyLookupAnswer, lookupCallMeta } from "./lookup-answer.js";
import { ownEntry } from "../model/own.js";
import { isPersonConfirmed } from "../handler-api.js";
import { safeErrorText, stringLeaves } from "./redact.js";

export interface CompensationReport {
  compensated: string[];
  failed: Array<{ effect: string; reason: string }>;
  /** Committed effects nothing can undo (irreversible, or no compensator): listed for people. */
  irreversible: string[];
}

export interface CompensateDeps {
  store: Store;
  plan: Plan;
  handlers: HandlerModule;
  crash: CrashHook;
  now: () => string;
  /** The fencing token to send for an effect (a cancel that took over the unit's lease sends its own, newer one). */
  tokenFor?: (effect: EffectRecord) => number | undefined;
}

/** What a cancel would undo, in the order it would undo it (for the operator's preview). */
export function compensationOrder(effects: EffectRecord[]): EffectRecord[] {
  return effects
    .filter((e) => e.state === "COMMITTED" && e.compensation && e.compensationState !== "done")
    .sort((a, b) => (b.commitSeq ?? 0) - (a.commitSeq ?? 0));
}

/**
 * Is the effect undone, judged on what the lookup answers after the
 * compensator ran? Nothing there (null) always is; a record is when the
 * tool's `compensate.compensated` holds of it (`result` = the record), by
 * default when its `status` is "cancelled". The contract says what a remote
 * calls undone (`torn-down`, `voided`, a flag), not a list of words here.
 */
export function compensatedVerdict(tool: PlanTool, record: unknown, env: Record<string, unknown>): { passed: boolean; reason?: string } {
  if (record === null || record === undefined) return { passed: true };
  const declared = tool.compensate?.compensated;
  if (declared) {
    const scope = { ...env, result: record };
    try {
      const value = evaluate(declared.ast, scope);
      if (value === true) return { passed: true };
      const values = explainValues(declared.source, declared.ast, scope);
      return { passed: false, reason: `${declared.source} is ${JSON.stringify(value)}${values ? ` (${values})` : ""}` };
    } catch (err) {
      return { passed: false, reason: `${declared.source}: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
  const status = typeof record === "object" ? (record as Record<string, unknown>).status : undefined;
  return status === "cancelled"
    ? { passed: true }
    : {
        passed: false,
        reason: `status is ${JSON.stringify(status ?? null)}, not "cancelled" (the default; declare compensate.compensated)`,
      };
}

export async function compensateRun(deps: CompensateDeps, run: string): Promise<CompensationReport> {
  const { store, now } = deps;
  const effects = await store.listEffects(run, { states: ["COMMITTED"] });
  const report: CompensationReport = {
    compensated: [],
    failed: [],
    irreversible: effects.filter((e) => !e.compensation && e.toolClass !== "idempotent").map((e) => e.id),
  };
  for (const effect of compensationOrder(effects)) {
    const comp = effect.compensation!;
    const ev = (type: string, data: Record<string, unknown> = {}) => ({
      at: now(),
      type,
      unit: effect.unit,
      attempt: effect.attempt,
      data: { effect: effect.id, compensator: comp.tool, ...data },
    });
    await store.updateEffect(effect.id, ["COMMITTED"], { compensationState: "pending" }, ev("compensation-started"));
    deps.crash("during-compensation", { unit: effect.unit, tool: comp.tool });
    const failure = await runCompensator(deps, effect);
    if (failure) {
      await store.updateEffect(
        effect.id,
        ["COMMITTED"],
        { compensationState: "failed", error: `compensation failed: ${failure}` },
        ev("compensation-failed", { reason: failure }),
      );
      await store.setRunHold(
        run,
        {
          reason: "compensation-failed",
          detail: `compensating ${effect.intent} with ${comp.tool} failed: ${failure}; fix it at the remote, then cancel again`,
          at: now(),
          data: { effect: effect.id },
        },
        { at: now(), type: "blocked", data: { reason: "compensation-failed", effect: effect.id } },
      );
      report.failed.push({ effect: effect.id, reason: failure });
      return report;
    }
    await store.updateEffect(
      effect.id,
      ["COMMITTED"],
      { state: "COMPENSATED", compensationState: "done", resolvedAt: now() },
      ev("compensation-verified"),
    );
    report.compensated.push(effect.id);
  }
  return report;
}

const envOf = (plan: Plan, effect: EffectRecord) => ({
  task: { id: plan.task.id, version: plan.task.version, goal: plan.task.goal },
  inputs: Object.fromEntries(plan.inputs.map((i) => [i.name, i.value ?? i.version ?? null])),
  run: { id: effect.run },
  unit: { id: effect.unit },
  attempt: { id: `a${effect.attempt}`, number: effect.attempt },
});

async function runCompensator(deps: CompensateDeps, effect: EffectRecord): Promise<string | undefined> {
  const comp = effect.compensation!;
  const adapter = ownEntry(deps.handlers.tools, comp.tool);
  if (!adapter) return `no adapter for compensator ${comp.tool}`;
  const meta = lookupCallMeta(effect, `compensate:${effect.key ?? effect.id}`, deps.tokenFor?.(effect));
  try {
    await adapter.call(comp.args, meta);
  } catch (err) {
    return safeErrorText(err, stringLeaves(comp.args));
  }
  // Verify at the remote: the original's lookup must now find nothing, or a cancelled record.
  const tool = toolOf(deps.plan, effect.tool);
  const lookup = tool?.lookup ? ownEntry(deps.handlers.tools, tool.lookup) : undefined;
  if (lookup && effect.key) {
    try {
      const found: unknown = await lookup.call({ key: effect.key }, { ...meta, key: effect.key });
      const verdict = compensatedVerdict(tool!, found, envOf(deps.plan, effect));
      if (!verdict.passed)
        return `verification: ${tool!.lookup} still finds ${effect.remoteId ?? effect.key}, not compensated: ${verdict.reason}`;
    } catch (err) {
      return `verification lookup failed: ${safeErrorText(err, stringLeaves(comp.args))}`;
    }
  }
  return undefined;
}

/**
 * A COMMITTED effect of a compensable tool with no compensation data: a
 * person confirmed it (`resolve --committed`), so the adapter's receipt was
 * never seen. Its receipt is read with the tool's lookup (or, without one,
 * built from the remote id the person gave) and the compensation rendered
 * from it, so it is compensated like any other. Returns why not, or undefined.
 */
export async function completeCompensation(
  deps: CompensateDeps & { envFor: (effect: EffectRecord) => Record<string, unknown> },
  effect: EffectRecord,
): Promise<string | undefined> {
  const tool = toolOf(deps.plan, effect.tool);
  if (!tool?.compensate || effect.compensation) return undefined;
  let record: Record<string, unknown> | undefined;
  let via: string;
  if (tool.lookup && effect.key !== undefined) {
    via = `lookup ${tool.lookup}`;
    const lookup = ownEntry(deps.handlers.tools, tool.lookup);
    if (!lookup) return `no adapter for lookup ${tool.lookup}`;
    let found: unknown;
    try {
      found = await lookup.call({ key: effect.key }, lookupCallMeta(effect, effect.key, deps.tokenFor?.(effect)));
    } catch (err) {
      return `lookup ${tool.lookup} failed: ${safeErrorText(err, [effect.key])}`;
    }
    const answer = classifyLookupAnswer(tool, tool.lookup, found);
    if (answer.kind === "invalid") return answer.why;
    if (answer.kind === "absent")
      return `lookup ${tool.lookup} finds nothing under key ${effect.key}, though the effect is recorded committed: check the remote and undo it by hand`;
    record = answer.record;
  } else {
    via = "the remote id a person recorded";
    const rid = isPersonConfirmed(effect.receipt) ? effect.receipt.remote_id : undefined;
    const field = tool.result ? Object.keys(tool.result)[0] : "id";
    if (rid !== undefined && field !== undefined) record = { [field]: rid };
  }
  if (!record)
    return `no receipt to render ${tool.compensate.tool}'s arguments from (${effect.tool} has no lookup and no remote id was recorded)`;
  let compensation: EffectRecord["compensation"];
  try {
    compensation = renderCompensation(tool, record, { ...deps.envFor(effect), iteration: effect.iteration ?? 1 });
  } catch (err) {
    return `cannot render ${tool.compensate.tool}'s arguments from ${via}: ${err instanceof Error ? err.message : String(err)}`;
  }
  const remoteId = effect.remoteId ?? remoteIdOf(tool, record);
  await deps.store.updateEffect(
    effect.id,
    ["COMMITTED"],
    { ...(compensation ? { compensation } : {}), ...(remoteId ? { remoteId } : {}) },
    {
      at: deps.now(),
      type: "compensation-data-read",
      unit: effect.unit,
      attempt: effect.attempt,
      data: { effect: effect.id, via, compensator: tool.compensate.tool },
    },
  );
  return undefined;
}
