/**
 * What a user writes to run a contract: a module whose default export is a
 * `HandlerModule`. Handlers compute and return results; they never change run
 * state. The world is reached only through `ctx.tool`, which the side-effect
 * ledger wraps (recovery class, idempotency key, fencing token, approval).
 */
import type { EdgeKind } from "@taskspec/compiler";

export interface ArtifactRef {
  name: string;
  /** Path relative to the store's artifact root, e.g. runs/ME-042/U07/a2/evidence-07.json */
  path: string;
  sha256: string;
  size: number;
  mediaType: string;
}

export interface WriteOptions {
  mediaType?: string;
  /**
   * Optional per-facet digests: a re-run propagates only along edges whose
   * facet digest changed (a reformatted report does not invalidate a unit
   * that reads only its claims).
   */
  facets?: Partial<Record<EdgeKind, string>>;
}

export interface Charge {
  model_calls?: number;
  tokens?: number;
}

/** What a handler asks of a model (`ctx.model`); the worker's adapter calls the provider. */
export interface ModelMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ModelRequest {
  messages: ModelMessage[];
  /** Defaults to the adapter's configured model. */
  model?: string;
  max_tokens?: number;
  temperature?: number;
}

/** Token counts as the provider reported them. */
export interface ModelUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface ModelReply {
  content: string;
  model: string;
  usage: ModelUsage;
  /** The provider's id of this completion, when it gives one. */
  id?: string;
  finish_reason?: string;
}

export interface UnitContext {
  readonly run: { readonly id: string };
  readonly task: { readonly id: string; readonly version: number };
  readonly unit: { readonly id: string; readonly phase: string };
  /** A retry keeps the unit id and takes a new attempt (a1, a2, ...). */
  readonly attempt: { readonly id: string; readonly number: number };
  /** Loop iteration, 1-based (always 1 for units without `loop`). */
  readonly iteration: number;
  /** The previous iteration's result inside a loop, undefined on the first. */
  readonly previous: unknown;
  /** The unit's declared input values by name (frozen copies): a decision's value, a snapshot's version, ... */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Upstream units this unit needs: their current artifacts and results. */
  readonly needs: Readonly<Record<string, { readonly result: unknown; readonly artifacts: readonly ArtifactRef[] }>>;
  /** Reads a current upstream artifact through the manifest; throws on a hash mismatch. */
  read(artifact: string): Promise<Uint8Array>;
  readJson<T = unknown>(artifact: string): Promise<T>;
  /** Calls a declared tool through the ledger. The only way to touch the world. */
  tool<T = unknown>(name: string, args: Record<string, unknown>): Promise<T>;
  /** Writes a declared artifact into this attempt's immutable directory. */
  write(name: string, data: Uint8Array | string | object, options?: WriteOptions): Promise<ArtifactRef>;
  /**
   * Records model spend durably; rejects (and blocks the run with reason
   * `budget`) before a cap would be exceeded. Await it before the model call it
   * pays for. A refused charge ends the attempt even if the rejection is caught.
   * Negative, NaN, infinite or non-numeric amounts and dimensions other than
   * `model_calls` and `tokens` are refused (a `guard` failure of the attempt).
   */
  charge(cost: Charge): Promise<void>;
  /**
   * Calls the model the run is configured with (`--model-url`, `--model`; the
   * key stays in the worker). The runtime books the spend: one model call
   * before the request leaves (refused at the cap, like `charge`), and the
   * tokens the provider reports after it answers. Rejects with a
   * ModelCallError-shaped error (`name` "ModelCallError") when the provider fails.
   */
  model(request: ModelRequest): Promise<ModelReply>;
  /** Aborted when the unit's `timeout` passes or the worker stops. */
  readonly signal: AbortSignal;
}

/** Returns the unit's result (JSON), which `check`/`until` expressions see as `result`. */
export type UnitHandler = (ctx: UnitContext) => unknown | Promise<unknown>;

export interface ToolCallMeta {
  runId: string;
  unitId: string;
  attemptId: string;
  /** The rendered `key` template, when the tool declares one. */
  key?: string;
  /** The worker's fencing token: pass it to the remote so it can refuse stale writers. */
  fencingToken: number;
  signal: AbortSignal;
}

/**
 * A tool adapter. A `lookup` tool (class `read`) is called with `{ key }` and
 * returns the remote record, or null when nothing exists under that key.
 */
export interface ToolAdapter {
  call(args: Record<string, unknown>, meta: ToolCallMeta): Promise<unknown>;
}

/**
 * What `ctx.tool` returns for an effect a person settled with `taskspec resolve
 * --committed`: the adapter's own receipt was lost, so the ledger hands back
 * this record of the person's verdict instead (and never calls the tool again).
 */
export interface PersonConfirmedReceipt {
  confirmed_by_person: string;
  /** The remote object id the person gave (`--remote-id`), if any. */
  remote_id?: string;
}

export function isPersonConfirmed(receipt: unknown): receipt is PersonConfirmedReceipt {
  return typeof receipt === "object" && receipt !== null && typeof (receipt as Record<string, unknown>).confirmed_by_person === "string";
}

export interface VerifierContext {
  readonly run: { readonly id: string };
  readonly unit?: { readonly id: string };
  readonly result: unknown;
  read(artifact: string): Promise<Uint8Array>;
  tool<T = unknown>(name: string, args: Record<string, unknown>): Promise<T>;
}

/**
 * Implements a `model` or `human` verifier. It lives in a verifier module,
 * never in the handler module: a unit's handler cannot decide its own
 * verification, and `rule` and `schema` verifiers are decided by the contract
 * alone (nothing a module exports replaces them).
 */
export type VerifierHandler = (
  ctx: VerifierContext,
) => { passed: boolean; reason?: string } | Promise<{ passed: boolean; reason?: string }>;

/**
 * What a verifier module (`--verifiers path.js`) exports as its default: the
 * contract's code verifiers (`kind: model` and `kind: human`) by name. It is
 * loaded in the worker, separate from the handler module, and the run records
 * its sha256 (event `verifier-module`; `status` shows it).
 */
export interface VerifierModule {
  verifiers: Record<string, VerifierHandler>;
}

/**
 * Reads the current value of an input (typically a volatile `external` one).
 * On resume the runtime re-reads it; a changed value supersedes the units that
 * used the old one (stale evidence is dropped, never reused).
 */
export type InputReader = (ctx: { readonly run: { readonly id: string }; readonly input: string }) => unknown | Promise<unknown>;

/**
 * A handler module's default export, in one module (the worker imports it
 * for its tools and inputs, so its top-level code runs in the worker too).
 * Code verifiers are not part of it: they come from a verifier module
 * (`VerifierModule`). The isolated layout splits it in two: a `UnitsModule`
 * (`--handlers`, imported only in handler processes) and a `ToolsModule`
 * (`--tools`, imported in the worker).
 */
export interface HandlerModule {
  units: Record<string, UnitHandler>;
  tools: Record<string, ToolAdapter>;
  inputs?: Record<string, InputReader>;
}

/** The handler module of the split layout (`--handlers` beside `--tools`): unit handlers only. */
export interface UnitsModule {
  units: Record<string, UnitHandler>;
}

/**
 * What a tools module (`--tools path.js`) exports as its default: the tool
 * adapters (lookups and compensators included) and input readers. Trusted
 * code: it is imported in the worker, with the worker's environment and
 * network, and never in a handler process; the run records its sha256
 * (event `tools-module`; `status` shows it).
 */
export interface ToolsModule {
  tools: Record<string, ToolAdapter>;
  inputs?: Record<string, InputReader>;
}

/**
 * What a tool adapter throws to say how a call ended. `failed`: the remote
 * definitely did nothing (e.g. HTTP 4xx before any write) and a retry is safe.
 * `unknown` (and any other thrown error from a side-effecting tool): the effect
 * may have happened; recovery looks it up by key before anything else.
 */
export class ToolError extends Error {
  override readonly name = "ToolError";
  /** The brand the runtime recognises (see isToolError): a handler module may hold its own copy of this class. */
  readonly code = TOOL_ERROR_CODE;
  constructor(
    message: string,
    readonly outcome: "failed" | "unknown" = "unknown",
  ) {
    super(message);
  }
}

/** `code` of a ToolError; an error object with this code and an `outcome` is one, whichever copy of the class made it. */
export const TOOL_ERROR_CODE = "TASKSPEC_TOOL_ERROR";

/**
 * Whether `err` is a ToolError. Not `instanceof`: the CLI runs its own bundled
 * runtime while a handler module imports the installed @taskspec/runtime (or
 * another version of it), so the classes differ; the code and outcome do not.
 */
export function isToolError(err: unknown): err is { message: string; outcome: "failed" | "unknown"; code: typeof TOOL_ERROR_CODE } {
  if (typeof err !== "object" || err === null) return false;
  const e = err as { code?: unknown; outcome?: unknown };
  return e.code === TOOL_ERROR_CODE && (e.outcome === "failed" || e.outcome === "unknown");
}
