/**
 * What every engine part is handed: the injected store, artifact storage,
 * clock, handler module (tool adapters) and crash hook, plus the run's plan.
 * Nothing here reaches for globals; tests swap any of it.
 */
import type { Plan } from "@taskspec/compiler";
import type { ArtifactStorage } from "../artifacts/storage.js";
import type { HandlerModule } from "../handler-api.js";
import type { Store } from "../store/types.js";
import type { CrashHook } from "../faults/crash-points.js";
import type { LoadedVerifiers } from "./verifier-module.js";
import type { HandlerRunner } from "./handler-runner.js";
import type { ModelAdapter } from "../models/types.js";
import type { CodeDigests } from "../handlers/digest.js";

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface EngineCore {
  store: Store;
  storage: ArtifactStorage;
  /**
   * Tool adapters, lookups, compensators and input readers (from the tools
   * module when the run has one), and unit handlers when they run in this
   * process. With a tools module and a handler process per attempt, `units`
   * is empty: the handler module is imported only in handler processes.
   */
  handlers: HandlerModule;
  /**
   * The unit handlers' and adapters' digests when the handler module is not
   * imported in this process (its probe reported them, isolation/probe.ts):
   * which units have a handler, and what a record's code digests are.
   */
  code?: CodeDigests;
  /** The verifier module (model/human verifiers), loaded in the worker; never the handler module. */
  verifiers?: LoadedVerifiers;
  plan: Plan;
  planVersion: string;
  inputVersion: string;
  run: string;
  clock: Clock;
  crash: CrashHook;
  /** This worker's identity in leases: host:pid:nonce:space (engine/owner.ts). */
  owner: string;
  leaseTtlMs: number;
  /** The contract file (named in guard errors) and its directory (for `schema:` paths). */
  contractFile?: string;
  baseDir?: string;
  log: (line: string) => void;
  /** Where unit handlers run; absent: in this process (handler-runner.ts). */
  runner?: HandlerRunner;
  /** The model `ctx.model` calls (an adapter in the worker, holding the provider's key); absent: ctx.model is refused. */
  model?: ModelAdapter;
}

export const nowIso = (core: Pick<EngineCore, "clock">): string => core.clock.now().toISOString();
