/**
 * A model call with its spend booked by the runtime, not by the handler: one
 * model call is charged (and refused at the cap) before the request leaves,
 * and the tokens the provider reports are booked after it answers, whether
 * or not they cross the cap (they were spent; the next charge is refused).
 * A handler's own `ctx.charge` stays for spend the runtime cannot see.
 */
import type { BudgetAmounts } from "../model/facts.js";
import { ModelCallError, type ModelAdapter, type ModelReply, type ModelRequest } from "./types.js";

export interface Booker {
  /** `check` refuses (throws) past a cap; `record` books what was spent. */
  (delta: BudgetAmounts, why: string, mode: "check" | "record"): Promise<void>;
}

/** What is wrong with a request a handler sent, or undefined. Handlers are untrusted: the request is checked, not typed. */
export function modelRequestProblem(request: unknown): string | undefined {
  if (typeof request !== "object" || request === null) return "ctx.model takes an object with `messages`";
  const r = request as Record<string, unknown>;
  if (!Array.isArray(r.messages) || r.messages.length === 0) return "ctx.model needs a non-empty `messages` array";
  for (const [i, m] of r.messages.entries()) {
    const msg = m as Record<string, unknown> | null;
    if (typeof msg !== "object" || msg === null || !["system", "user", "assistant"].includes(msg.role as string))
      return `messages[${i}].role must be system, user or assistant`;
    if (typeof msg.content !== "string") return `messages[${i}].content must be a string`;
  }
  if (r.model !== undefined && typeof r.model !== "string") return "`model` must be a string";
  if (r.max_tokens !== undefined && !(Number.isInteger(r.max_tokens) && (r.max_tokens as number) > 0))
    return "`max_tokens` must be a positive integer";
  if (r.temperature !== undefined && !(typeof r.temperature === "number" && Number.isFinite(r.temperature)))
    return "`temperature` must be a finite number";
  return undefined;
}

export async function callModelBooked(
  book: Booker,
  adapter: ModelAdapter,
  request: ModelRequest,
  signal: AbortSignal,
  /** Called after the call is booked and before its request leaves (the attempt journals it as started). */
  sending: () => Promise<void> = async () => {},
): Promise<ModelReply> {
  await book({ model_calls: 1 }, "model", "check");
  await sending();
  let reply: ModelReply;
  try {
    reply = await adapter.call(request, { signal });
  } catch (err) {
    if (err instanceof ModelCallError) throw err;
    throw new ModelCallError(`model adapter failed: ${(err as Error).message}`, true);
  }
  if (reply.usage.total_tokens > 0) await book({ tokens: reply.usage.total_tokens }, `model ${reply.model}`, "record");
  return reply;
}
