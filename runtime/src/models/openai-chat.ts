/**
 * A ModelAdapter for any provider that speaks OpenAI's chat-completions
 * protocol (`POST {baseUrl}/chat/completions`), which most hosted and local
 * model servers do. It runs in the worker: the key comes from the worker's
 * configuration and never reaches the handler's process.
 *
 * The reply is read strictly: usage figures must be non-negative finite
 * integers, or the call fails (spent) instead of booking a guess.
 */
import { ModelCallError, type ModelAdapter, type ModelReply, type ModelRequest, type ModelUsage } from "./types.js";

export interface OpenAiChatOptions {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:8080/v1 */
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Longest a call may take before it is aborted (default 120 s). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** At most this much of an error body is kept in a message (it may echo the request). */
const BODY_EXCERPT = 200;

export function openAiChatAdapter(options: OpenAiChatOptions): ModelAdapter {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const doFetch = options.fetch ?? fetch;
  const key = options.apiKey;
  // a provider that echoes the key (an "invalid key sk-…" body) never gets it into a message
  const clean = (text: string) => (key && key.length >= 4 ? text.split(key).join("***") : text);
  return {
    ...(key ? { secrets: [key] } : {}),
    async call(request: ModelRequest, { signal }): Promise<ModelReply> {
      try {
        return await send(request, signal);
      } catch (err) {
        if (err instanceof ModelCallError) throw new ModelCallError(clean(err.message), err.spent, err.status);
        throw err;
      }
    },
  };

  async function send(request: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const body = {
      model: request.model ?? options.model,
      messages: request.messages,
      ...(request.max_tokens !== undefined ? { max_tokens: request.max_tokens } : {}),
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    };
    let response: Response;
    try {
      response = await doFetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs ?? 120_000)]),
      });
    } catch (err) {
      // the request may have reached the provider before the connection broke
      throw new ModelCallError(`model call to ${url} failed: ${(err as Error).message}`, true);
    }
    const text = await response.text().catch(() => "");
    if (!response.ok) {
      const excerpt = text.slice(0, BODY_EXCERPT).replace(/\s+/g, " ");
      // 4xx: refused before any work; 5xx: the provider may have run the model
      throw new ModelCallError(
        `model provider answered HTTP ${response.status}${excerpt ? `: ${excerpt}` : ""}`,
        response.status >= 500,
        response.status,
      );
    }
    return parseReply(text, body.model);
  }
}

function parseReply(text: string, requested: string): ModelReply {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ModelCallError("model provider answered with a body that is not JSON", true);
  }
  const reply = json as {
    id?: unknown;
    model?: unknown;
    choices?: { message?: { content?: unknown }; finish_reason?: unknown }[];
    usage?: Partial<Record<keyof ModelUsage, unknown>>;
  };
  const usage = usageOf(reply.usage);
  if (!usage) throw new ModelCallError("model provider reported no usable token usage; nothing was booked as a guess", true);
  const choice = Array.isArray(reply.choices) ? reply.choices[0] : undefined;
  const content = choice?.message?.content;
  if (typeof content !== "string") throw new ModelCallError("model provider's answer has no choices[0].message.content", true);
  return {
    content,
    model: typeof reply.model === "string" ? reply.model : requested,
    usage,
    ...(typeof reply.id === "string" ? { id: reply.id } : {}),
    ...(typeof choice?.finish_reason === "string" ? { finish_reason: choice.finish_reason } : {}),
  };
}

const count = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

function usageOf(u: Partial<Record<keyof ModelUsage, unknown>> | undefined): ModelUsage | undefined {
  if (!u || !count(u.prompt_tokens) || !count(u.completion_tokens)) return undefined;
  const total = u.total_tokens ?? u.prompt_tokens + u.completion_tokens;
  if (!count(total)) return undefined;
  return { prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: total };
}
