/**
 * The messages between the worker and a handler process (child-entry.ts),
 * sent over Node's IPC channel with `serialization: "advanced"` (structured
 * clone: a Uint8Array travels as bytes). The child holds no store, no
 * credentials and no tool adapters: every `ctx` method is a `request` the
 * worker checks against the plan and answers with a `reply`.
 */

import type { ContextData } from "../engine/handler-runner.js";

export type { ContextData };

export type RequestOp = "read" | "write" | "tool" | "charge" | "model";

/** Worker -> child. */
export type ToChild =
  | { t: "invoke"; module: string; unit: string; iteration: number; previous: unknown; ctx: ContextData }
  /** The probe (probe.ts): import these modules (file URLs) and report what they export, then nothing else. */
  | { t: "probe"; modules: string[] }
  | { t: "reply"; id: number; ok: true; value: unknown }
  | { t: "reply"; id: number; ok: false; error: WireError }
  | { t: "abort"; reason: string };

/** Child -> worker. */
export type FromChild =
  | { t: "request"; id: number; op: RequestOp; args: unknown[] }
  | { t: "result"; iteration: number; value: unknown }
  | { t: "threw"; iteration: number; error: WireError }
  /** The result could not be sent (a function, a symbol, ...): the attempt's result is invalid. */
  | { t: "unserialisable"; iteration: number; message: string }
  /** An error nothing caught (a throw in a timer, an unhandled rejection): the process ends after this. */
  | { t: "uncaught"; error: WireError }
  /** The probe's answer: one entry per module asked for, in order. */
  | { t: "probed"; modules: ProbedModule[] };

/**
 * What the probe learnt of one module without the worker importing it: the
 * keys of its default export (or of its namespace when it has none), and the
 * digests of its unit handlers and tool adapters (handlers/digest.ts), or why
 * it could not be imported.
 */
export type ProbedModule =
  { ok: true; exports: string[]; units: Record<string, string>; tools: Record<string, string> } | { ok: false; error: WireError };

export interface WireError {
  name: string;
  message: string;
  code?: string;
}

export function isFromChild(m: unknown): m is FromChild {
  return typeof m === "object" && m !== null && typeof (m as { t?: unknown }).t === "string";
}
