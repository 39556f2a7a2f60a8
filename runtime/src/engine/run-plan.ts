/**
 * The entry point for callers (CLI, tests, demo): wire the injected parts
 * into an engine core, create the run if needed, and run the worker loop.
 */
import { dirname } from "node:path";
import type { Plan } from "@taskspec/compiler";
import { FsArtifactStorage, type ArtifactStorage } from "../artifacts/storage.js";
import type { HandlerModule } from "../handler-api.js";
import { inputVersionOf, planVersionOf } from "../model/identity.js";
import type { Store } from "../store/types.js";
import { nowIso, systemClock, type Clock, type EngineCore } from "./core.js";
import { crashHookFromEnv, type CrashHook } from "../faults/crash-points.js";
import { newOwner } from "./owner.js";
import { ensureRun, Worker, type RunOutcome, type WorkerOptions } from "./worker.js";
import { assertPlanIds, assertRunId } from "../model/ids.js";
import { recordVerifierModule, type LoadedVerifiers } from "./verifier-module.js";
import type { HandlerRunner } from "./handler-runner.js";
import type { ModelAdapter } from "../models/types.js";
import type { CodeDigests } from "../handlers/digest.js";

export interface RunPlanOptions extends WorkerOptions {
  store: Store;
  plan: Plan;
  handlers: HandlerModule;
  /** Digests of the handler code when the handler module is not imported here (EngineCore.code). */
  code?: CodeDigests;
  /** The verifier module for the plan's model/human verifiers (`loadVerifierModule`); recorded with the run. */
  verifiers?: LoadedVerifiers;
  run: string;
  /** Artifact root (attempt directories live under `runs/`); or a storage implementation. */
  artifacts: string | ArtifactStorage;
  clock?: Clock;
  crash?: CrashHook;
  owner?: string;
  leaseTtlMs?: number;
  contractFile?: string;
  handlersPath?: string;
  log?: (line: string) => void;
  /** Where unit handlers run (default: in this process; the CLI passes a handler-process runner). */
  runner?: HandlerRunner;
  /** The model behind `ctx.model` (e.g. openAiChatAdapter); absent: ctx.model is refused. */
  model?: ModelAdapter;
}

export function engineCore(o: RunPlanOptions): EngineCore {
  // ids become directory names under the artifact root: checked at this entry for every caller (CLI, worker, API)
  assertRunId(o.run);
  assertPlanIds(o.plan);
  return {
    store: o.store,
    storage: typeof o.artifacts === "string" ? new FsArtifactStorage(o.artifacts) : o.artifacts,
    handlers: o.handlers,
    ...(o.code ? { code: o.code } : {}),
    ...(o.verifiers ? { verifiers: o.verifiers } : {}),
    plan: o.plan,
    planVersion: planVersionOf(o.plan),
    inputVersion: inputVersionOf(o.plan),
    run: o.run,
    clock: o.clock ?? systemClock,
    crash: o.crash ?? crashHookFromEnv(),
    owner: o.owner ?? newOwner(),
    leaseTtlMs: o.leaseTtlMs ?? 30_000,
    ...(o.contractFile ? { contractFile: o.contractFile, baseDir: dirname(o.contractFile) } : {}),
    log: o.log ?? ((line) => process.stderr.write(`${line}\n`)),
    ...(o.runner ? { runner: o.runner } : {}),
    ...(o.model ? { model: o.model } : {}),
  };
}

/** Starts the run if the store does not know it, otherwise resumes it (runtime.md's algorithm). */
export async function runPlan(o: RunPlanOptions): Promise<RunOutcome> {
  const core = engineCore(o);
  await ensureRun(core, {
    ...(o.contractFile ? { contract: o.contractFile } : {}),
    ...(o.handlersPath ? { handlers: o.handlersPath } : {}),
  });
  await recordVerifierModule(core.store, core.run, core.verifiers, nowIso(core));
  return new Worker(core, o).run();
}
