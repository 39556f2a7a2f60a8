/**
 * The seam between an attempt and the code of its handler. The attempt
 * (attempt.ts) owns the guards, the timeout and the outcome; a runner only
 * runs `units[unit]` with a `ctx` built from plain data and the attempt's
 * guarded operations. Two runners: in-process (below: trusted code, the
 * library API, `--isolation none`) and a handler process per attempt
 * (isolation/host.ts, the CLI's default).
 */
import type { ArtifactRef, HandlerModule, UnitContext, WriteOptions } from "../handler-api.js";
import { ownEntry } from "../model/own.js";

/** What a handler's `ctx` carries as data: copies of the worker's values, never the values keys render from. */
export interface ContextData {
  run: { id: string };
  task: { id: string; version: number };
  unit: { id: string; phase: string };
  attempt: { id: string; number: number };
  inputs: Record<string, unknown>;
  needs: Record<string, { result: unknown; artifacts: ArtifactRef[] }>;
}

/** The attempt's guarded operations: every `ctx.read/write/tool/charge` of either runner goes through these. */
export interface HandlerOps {
  read(name: string): Promise<Uint8Array>;
  write(name: string, data: Uint8Array | string | object, options?: WriteOptions): Promise<ArtifactRef>;
  tool(name: string, args: Record<string, unknown>): Promise<unknown>;
  charge(cost: unknown): Promise<void>;
  model(request: unknown): Promise<unknown>;
}

export interface HandlerInvocation {
  unitId: string;
  data: ContextData;
  ops: HandlerOps;
  /** Aborted when the attempt ends early (timeout, lease lost). */
  signal: AbortSignal;
  /** The attempt's directory, absolute (the only place a handler process may write). */
  dir: string;
}

export interface HandlerSession {
  /** Runs one iteration (1 for units without `loop`); resolves with the handler's result. */
  invoke(iteration: number, previous: unknown): Promise<unknown>;
  /** Ends the handler now (timeout, lease lost): a handler process is killed, whatever it is doing. */
  kill(why: string): void;
  /** The attempt is over: release what the session holds. */
  close(): void;
}

export interface HandlerRunner {
  /** `process` (a handler process per attempt) or `none` (in the worker's process). */
  readonly mode: "process" | "none";
  open(invocation: HandlerInvocation): Promise<HandlerSession>;
}

/** The handler's process ended before it returned a result (process.exit, an uncaught error, a signal). */
export class HandlerExitedError extends Error {
  override readonly name = "HandlerExitedError";
}

/** The handler returned something that cannot leave its process (a function, a symbol, a class instance with such). */
export class UnsendableResultError extends Error {
  override readonly name = "UnsendableResultError";
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A frozen structured copy: what a handler gets of the worker's values. */
export function handlerCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

/** Today's behaviour: the handler runs in the worker's process (trusted code only). */
export function inProcessRunner(handlers: HandlerModule): HandlerRunner {
  return {
    mode: "none",
    open: async (inv) => {
      const handler = ownEntry(handlers.units, inv.unitId);
      const data = handlerCopy(inv.data);
      return {
        invoke: async (iteration, previous) => {
          if (!handler) throw new Error(`the handler module has no handler for unit ${inv.unitId}`);
          const ctx: UnitContext = {
            ...data,
            iteration,
            previous: handlerCopy(previous),
            read: (name) => inv.ops.read(name),
            readJson: async <T>(name: string) => JSON.parse(Buffer.from(await inv.ops.read(name)).toString("utf8")) as T,
            tool: <T>(name: string, args: Record<string, unknown>) => inv.ops.tool(name, args) as Promise<T>,
            write: (name, d, options) => inv.ops.write(name, d, options),
            charge: (cost) => inv.ops.charge(cost),
            model: (request) => inv.ops.model(request) as ReturnType<UnitContext["model"]>,
            signal: inv.signal,
          };
          return handler(ctx);
        },
        kill: () => undefined,
        close: () => undefined,
      };
    },
  };
}
