/**
 * The handler process: started by the worker (launch.ts) under Node's
 * permission model, with a scrubbed environment and, where the OS allows,
 * no network. It imports the handler module, and for each `invoke` runs
 * `units[unit]` with a `ctx` whose methods are requests over the IPC channel:
 * the worker checks each against the plan (the same guards as in-process) and
 * replies. The values in `ctx` are frozen copies; changing them changes
 * nothing the worker renders. This file imports nothing of the runtime but
 * the digest functions (node:crypto only) and the reading of thrown values
 * (no imports), so a handler process loads only Node, the handler module and
 * what it imports.
 *
 * The same script is the handler module's probe (probe.ts): asked to `probe`,
 * it imports the modules, reports their export names and code digests, and is
 * killed; the worker never imports the handler module itself.
 */
import { digestsOf } from "../handlers/digest.js";
import { describeThrown } from "../model/thrown.js";
import type { ContextData, FromChild, ProbedModule, RequestOp, ToChild, WireError } from "./protocol.js";

type Handler = (ctx: unknown) => unknown;

const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
const controller = new AbortController();
let nextId = 0;
let loaded: Promise<Record<string, Handler>> | undefined;

function post(m: FromChild): void {
  process.send?.(m);
}

function request(op: RequestOp, args: unknown[]): Promise<unknown> {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    try {
      post({ t: "request", id, op, args });
    } catch (err) {
      pending.delete(id);
      reject(new TypeError(`ctx.${op}: the value cannot be sent to the worker (${errorOf(err).message})`));
    }
  });
}

/**
 * Node's permission error says only "Access to this API has been restricted";
 * the handler's author needs what was refused and how to allow it.
 */
function deniedWhy(err: Error): string | undefined {
  const e = err as { code?: unknown; permission?: unknown; resource?: unknown };
  if (e.code !== "ERR_ACCESS_DENIED") return undefined;
  const what = typeof e.permission === "string" ? e.permission : "access";
  const where = typeof e.resource === "string" ? ` of ${e.resource}` : "";
  // short: stored error messages are bounded, and the path must survive
  const hint =
    what === "FileSystemRead"
      ? "outside what a handler process may read; allow it with --handler-read <path>"
      : what === "FileSystemWrite"
        ? "a handler process writes only in its attempt directory, through ctx.write"
        : "not allowed in a handler process";
  return `${err.message} (${what}${where}: ${hint})`;
}

/** Never throws, whatever was thrown: a throw here would end the process and record the handler's error as a crash. */
function errorOf(err: unknown): WireError {
  const seen = describeThrown(err);
  let denied: string | undefined;
  try {
    denied = err instanceof Error ? deniedWhy(err) : undefined;
  } catch {
    denied = undefined;
  }
  return { ...seen, ...(denied !== undefined ? { message: denied } : {}) };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

async function unitsOf(moduleUrl: string): Promise<Record<string, Handler>> {
  const mod = (await import(moduleUrl)) as { default?: { units?: unknown }; units?: unknown };
  const units = (mod.default ?? mod).units;
  return typeof units === "object" && units !== null ? (units as Record<string, Handler>) : {};
}

function contextFor(data: ContextData, iteration: number, previous: unknown): unknown {
  return Object.freeze({
    run: data.run,
    task: data.task,
    unit: data.unit,
    attempt: data.attempt,
    iteration,
    previous,
    inputs: data.inputs,
    needs: data.needs,
    read: (name: string) => request("read", [name]),
    readJson: async (name: string) => JSON.parse(Buffer.from((await request("read", [name])) as Uint8Array).toString("utf8")) as unknown,
    tool: (name: string, args: Record<string, unknown>) => request("tool", [name, args]),
    write: (name: string, data: unknown, options?: unknown) =>
      request("write", options === undefined ? [name, data] : [name, data, options]),
    charge: (cost: unknown) => {
      const p = request("charge", [cost]);
      p.catch(() => undefined); // a refusal is sticky in the worker; a handler that does not await still ends blocked
      return p;
    },
    model: (req: unknown) => request("model", [req]),
    signal: controller.signal,
  });
}

async function invoke(m: Extract<ToChild, { t: "invoke" }>): Promise<void> {
  const { iteration } = m;
  let value: unknown;
  try {
    loaded ??= unitsOf(m.module);
    const units = await loaded;
    const handler = Object.prototype.hasOwnProperty.call(units, m.unit) ? units[m.unit] : undefined;
    if (typeof handler !== "function") throw new Error(`the handler module has no handler for unit ${m.unit}`);
    value = await handler(contextFor(deepFreeze(m.ctx), iteration, deepFreeze(m.previous)));
  } catch (err) {
    post({ t: "threw", iteration, error: errorOf(err) });
    return;
  }
  try {
    post({ t: "result", iteration, value: value === undefined ? null : value });
  } catch (err) {
    post({ t: "unserialisable", iteration, message: errorOf(err).message });
  }
}

async function probeOne(moduleUrl: string): Promise<ProbedModule> {
  try {
    const mod = (await import(moduleUrl)) as Record<string, unknown>;
    const candidate = mod.default ?? mod;
    if (typeof candidate !== "object" || candidate === null) return { ok: true, exports: [], units: {}, tools: {} };
    const table = candidate as { units?: unknown; tools?: unknown };
    return { ok: true, exports: Object.keys(candidate), ...digestsOf(table) };
  } catch (err) {
    return { ok: false, error: errorOf(err) };
  }
}

async function probe(modules: readonly string[]): Promise<void> {
  const out: ProbedModule[] = [];
  for (const m of modules) out.push(await probeOne(m));
  post({ t: "probed", modules: out });
}

process.on("message", (raw: ToChild) => {
  switch (raw.t) {
    case "probe":
      void probe(raw.modules);
      return;
    case "invoke":
      void invoke(raw);
      return;
    case "reply": {
      const p = pending.get(raw.id);
      if (!p) return;
      pending.delete(raw.id);
      if (raw.ok) p.resolve(raw.value);
      else p.reject(Object.assign(new Error(raw.error.message), { name: raw.error.name }, raw.error.code ? { code: raw.error.code } : {}));
      return;
    }
    case "abort":
      controller.abort(new Error(raw.reason));
      return;
  }
});
// An error nothing caught ends this process, with the reason told to the worker first.
const crash = (err: unknown) => {
  try {
    post({ t: "uncaught", error: errorOf(err) });
  } finally {
    process.exit(70);
  }
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);
// the worker went away (stopped, crashed): nothing here may outlive it
process.on("disconnect", () => process.exit(0));
