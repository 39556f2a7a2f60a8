/**
 * How the example tool adapters reach the local remotes: plain fetch, the
 * ledger's idempotency key in `Idempotency-Key` and the worker's fencing token
 * in `X-Fencing-Token`, so the remote itself refuses duplicates and stale
 * workers. Service URLs come from the environment (the demo and the tests
 * start the services and pass their URLs down).
 */
import { ToolError, type ToolCallMeta } from "@taskspec/runtime";

export const SERVICE_URL_ENV = {
  blog: "TASKSPEC_BLOG_URL",
  booking: "TASKSPEC_BOOKING_URL",
  mail: "TASKSPEC_MAIL_URL",
} as const;
export type RemoteName = keyof typeof SERVICE_URL_ENV;

/**
 * An answer from the remote that is not a success. The local remotes refuse
 * before any effect (4xx, and 503 from the fault knob), so such a call is
 * `failed`: safe to retry. Any other 5xx, and a call that got no answer at
 * all (a dropped connection: fetch throws), may have taken effect and stays
 * `unknown` for the ledger to look up.
 */
export class RemoteError extends ToolError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message, status < 500 || status === 503 ? "failed" : "unknown");
  }
}

export function serviceUrl(name: RemoteName): string {
  const url = process.env[SERVICE_URL_ENV[name]];
  if (!url) {
    throw new Error(
      `${SERVICE_URL_ENV[name]} is not set: start the ${name} service (node examples/dist/remote/${name}.js --port 0 --data DIR) and export its url`,
    );
  }
  return url;
}

export interface RemoteRequest {
  method: "GET" | "POST";
  path: string;
  body?: Record<string, unknown>;
  meta?: Partial<Pick<ToolCallMeta, "key" | "fencingToken" | "signal">>;
  /** Answer null instead of failing on 404 (a lookup that finds nothing). */
  absentIsNull?: boolean;
}

export async function callRemote<T>(name: RemoteName, request: RemoteRequest): Promise<T | null> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (request.meta?.key !== undefined) headers["Idempotency-Key"] = request.meta.key;
  if (request.meta?.fencingToken !== undefined) headers["X-Fencing-Token"] = String(request.meta.fencingToken);
  const res = await fetch(serviceUrl(name) + request.path, {
    method: request.method,
    headers,
    ...(request.body ? { body: JSON.stringify(request.body) } : {}),
    ...(request.meta?.signal ? { signal: request.meta.signal } : {}),
  });
  const body: unknown = await res.json();
  if (res.status === 404 && request.absentIsNull) return null;
  if (!res.ok) {
    const reason = (body as { error?: string } | null)?.error ?? res.statusText;
    throw new RemoteError(`${name} ${request.method} ${request.path} answered ${res.status}: ${reason}`, res.status);
  }
  return body as T;
}
