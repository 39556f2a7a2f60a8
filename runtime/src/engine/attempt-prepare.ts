/**
 * What an attempt reads before its handler starts (its needs, its inputs,
 * the code it runs with, the values it must not store, the template
 * environment), and the record of what it observes while it runs, shared by
 * attempt.ts and attempt-channel.ts.
 */
import type { PlanUnit } from "@taskspec/compiler";
import type { ArtifactRef } from "../handler-api.js";
import type { LoopIteration, SourceDigests } from "../model/facts.js";
import { attemptDir, canonicalJson, inputDigest, sha256 } from "../model/identity.js";
import { ownEntry } from "../model/own.js";
import type { Claim } from "../store/types.js";
import { CODE_SOURCE, codeDigester } from "../handlers/code-hash.js";
import { secretInputValues } from "../ledger/redact.js";
import type { Manifest, Refusals } from "./attempt-outcome.js";
import type { EngineCore } from "./core.js";

export interface Upstream {
  result: unknown;
  artifacts: ArtifactRef[];
  facets: Record<string, Record<string, string> | undefined>;
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
          sha256: inputDigest(inputs[need.node], core.plan.inputs.find((i) => i.name === need.node)!.definitionHash),
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
export interface AttemptState {
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
export interface Prepared {
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

export async function prepareAttempt(core: EngineCore, unit: PlanUnit, claim: Claim): Promise<Prepared> {
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
