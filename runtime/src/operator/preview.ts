/** What every operator decision prints first, and the event it records. */
import type { PreparedRequest } from "../engine/approvals.js";
import type { Actor } from "./authority.js";

export interface Preview {
  action: string;
  reuse: string[];
  invalidate: Array<{ unit: string; why: string }>;
  /** Effects a cancel compensates; `first` says what happens before (a wait, a lookup, reading the receipt). */
  undo?: Array<{ effect: string; intent: string; compensator: string; first?: string }>;
  /** Effects nothing will undo, each with why. */
  cannotUndo?: Array<{ effect: string; intent: string; why: string }>;
  /** An approval of a gate in front of an irreversible call: exactly what it releases, and what it binds. */
  prepared?: PreparedRequest;
  notes: string[];
}

/** A `decision` event: `by` is the actor's name, `via` its authority (an operator key, an open store, a contract policy). */
export const decisionEvent = (now: string, action: string, actor: Actor | string, data: Record<string, unknown>) => ({
  at: now,
  type: "decision",
  data: { action, ...(typeof actor === "string" ? { by: actor } : { by: actor.by, via: actor.via }), ...data },
});
