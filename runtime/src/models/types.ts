/**
 * What a handler asks of a model and what it gets back. The handler never
 * holds a provider's key or address: `ctx.model` sends the request to the
 * worker, whose adapter calls the provider and books the reported usage
 * against the run's budgets (book.ts).
 */
import type { ModelReply, ModelRequest } from "../handler-api.js";

export type { ModelMessage, ModelReply, ModelRequest, ModelUsage } from "../handler-api.js";

export interface ModelAdapter {
  call(request: ModelRequest, options: { signal: AbortSignal }): Promise<ModelReply>;
  /** Values the runtime must never store or show (the provider's key): masked as `***` in whatever an attempt stores. */
  readonly secrets?: readonly string[];
}

/**
 * A model call that went wrong. `spent`: whether the provider may have done
 * (and billed) the work: an answer that arrived without usable usage figures
 * was spent; a refused request (HTTP 4xx) or a connection that never opened
 * was not.
 */
export class ModelCallError extends Error {
  override readonly name = "ModelCallError";
  constructor(
    message: string,
    readonly spent: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}
