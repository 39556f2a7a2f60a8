/**
 * The worker's side of a handler process (one per attempt; a loop's
 * iterations are invocations of the same process). Each request of the child
 * is served by the attempt's guarded operations, the very functions an
 * in-process handler calls, so the plan is checked in one place. The child is
 * killed with SIGKILL at the unit's timeout (a synchronous `while (true) {}`
 * included) and when the attempt is aborted (lease lost); a child that exits
 * before it returns a result (process.exit, a signal) ends the attempt as
 * crashed, never the worker. A throw nothing caught (in a timer, a promise
 * the handler left alone) is the handler's error with its message, like any
 * throw: the child reports it before it exits.
 */
import { spawn } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  HandlerExitedError,
  UnsendableResultError,
  type HandlerOps,
  type HandlerRunner,
  type HandlerSession,
} from "../engine/handler-runner.js";
import { launchSpec, networkIsolationAvailable } from "./launch.js";
import { isFromChild, type FromChild, type RequestOp, type ToChild, type WireError } from "./protocol.js";
import { probeModules, type ProbedModule } from "./probe.js";

export interface ProcessRunnerOptions {
  /**
   * The handler module's file. With a tools module (`--tools`) the worker
   * never imports it (its probe reports what it exports, `probe` below);
   * without one the worker imports it too, for its tools and inputs.
   */
  handlerModule: string;
  /** Folders the handler process may read (handlerReadRoots); the attempt directory is added per attempt. */
  readRoots: readonly string[];
  /** The whole environment of the handler process (handlerEnv: only the names the run configuration gives). */
  env: Record<string, string>;
  /** Run it in its own network namespace when `unshare -rn` works (default true). */
  isolateNetwork?: boolean;
  /** Where the handler's stdout and stderr go (default: this process's stderr). */
  output?: (chunk: Buffer) => void;
}

/** What a run records about where its handlers ran (the `isolation` event; `status` shows it). */
export interface IsolationInfo {
  mode: "process" | "none";
  network: "isolated" | "not isolated";
  readRoots?: string[];
  env?: string[];
  /**
   * Where the handler module was imported: only in handler processes (and its
   * probe; the run has a tools module), or in the worker too (no `--tools`:
   * its top-level code ran with the worker's rights). Absent in events
   * recorded before tools modules existed.
   */
  handlerImport?: "handler-process" | "worker";
}

export function isolationOf(runner: HandlerRunner | undefined): IsolationInfo {
  const info = (runner as { info?: IsolationInfo } | undefined)?.info;
  return info ?? { mode: "none", network: "not isolated" };
}

const TAIL = 2000;

/** A handler process runner: `info` for the run's `isolation` event, `probe` to learn what modules export without importing them here. */
export interface ProcessRunner extends HandlerRunner {
  info: IsolationInfo;
  /** Imports `modules` in a probe process launched like an attempt's handler process (probe.ts). */
  probe(modules: readonly string[]): Promise<ProbedModule[]>;
}

export function processRunner(o: ProcessRunnerOptions): ProcessRunner {
  const moduleUrl = pathToFileURL(resolve(o.handlerModule)).href;
  const isolateNetwork = o.isolateNetwork ?? true;
  const output = o.output ?? ((chunk: Buffer) => void process.stderr.write(chunk));
  return {
    mode: "process",
    info: {
      mode: "process",
      network: isolateNetwork && networkIsolationAvailable() ? "isolated" : "not isolated",
      readRoots: [...o.readRoots],
      env: Object.keys(o.env),
    },
    probe: (modules) => probeModules(modules, { readRoots: o.readRoots, env: o.env, isolateNetwork, output }),
    open: async (inv) => {
      await mkdir(inv.dir, { recursive: true });
      const spec = launchSpec({ readRoots: o.readRoots, attemptDir: inv.dir, env: o.env, isolateNetwork });
      const child = spawn(spec.command, spec.args, {
        cwd: inv.dir,
        env: spec.env,
        stdio: ["ignore", "pipe", "pipe", "ipc"],
        serialization: "advanced",
      });
      let tail = "";
      child.stdout?.on("data", output);
      child.stderr?.on("data", (chunk: Buffer) => {
        output(chunk);
        tail = (tail + chunk.toString("utf8")).slice(-TAIL);
      });
      let ended: Error | undefined;
      let killedFor: string | undefined;
      let waiting: { iteration: number; resolve: (v: unknown) => void; reject: (e: unknown) => void } | undefined;
      /** Errors the worker's guards sent to the child, so the same error thrown back keeps its class (a failed tool call). */
      const sent = new Map<string, Error>();

      const endWith = (err: Error) => {
        ended ??= err;
        waiting?.reject(ended);
        waiting = undefined;
      };
      child.on("error", (err) => endWith(new HandlerExitedError(`the handler process could not be started: ${err.message}`)));
      child.on("close", (code, signal) => {
        const last = tail
          .trim()
          .split("\n")
          .filter((l) => l.trim() !== "" && !/^Node\.js v\d/.test(l))
          .slice(-1)[0];
        const how = killedFor ? `was killed (${killedFor})` : signal ? `was killed by ${signal}` : `exited with code ${code ?? "?"}`;
        endWith(
          new HandlerExitedError(
            `the handler process ${how} before it returned a result (process.exit or a signal)${last ? `; its last output: ${last}` : ""}`,
          ),
        );
      });

      const send = (m: ToChild) => {
        if (ended || !child.connected) return;
        try {
          child.send(m);
        } catch (err) {
          if (m.t === "reply" && m.ok)
            child.send({
              t: "reply",
              id: m.id,
              ok: false,
              error: { name: "TypeError", message: `reply cannot be sent: ${(err as Error).message}` },
            });
        }
      };

      const serve = async (id: number, op: RequestOp, args: unknown[]) => {
        try {
          const value = await operation(inv.ops, op, args);
          send({ t: "reply", id, ok: true, value: value === undefined ? null : value });
        } catch (err) {
          const wire = wireOf(err);
          if (err instanceof Error) sent.set(keyOf(wire), err);
          send({ t: "reply", id, ok: false, error: wire });
        }
      };

      child.on("message", (m: unknown) => {
        if (!isFromChild(m)) return;
        const msg: FromChild = m;
        if (msg.t === "uncaught") {
          // a throw the handler did not await (a timer, a promise left alone): its error, with its message, not a crash;
          // the process ends after it, and the attempt with it
          endWith(
            Object.assign(new Error(`${String(msg.error.message)} (uncaught, where the handler did not await it; its process ended)`), {
              name: String(msg.error.name),
            }),
          );
          return;
        }
        if (msg.t === "request") {
          void serve(msg.id, msg.op, Array.isArray(msg.args) ? msg.args : []);
          return;
        }
        if (msg.t === "probed") return; // only a probe process answers a probe
        if (!waiting || msg.iteration !== waiting.iteration) return;
        const w = waiting;
        waiting = undefined;
        if (msg.t === "result") w.resolve(msg.value);
        else if (msg.t === "unserialisable")
          w.reject(new UnsendableResultError(`its result cannot leave the handler process (${msg.message})`));
        else w.reject(sent.get(keyOf(msg.error)) ?? Object.assign(new Error(String(msg.error.message)), { name: String(msg.error.name) }));
      });

      const session: HandlerSession = {
        invoke: (iteration, previous) =>
          new Promise((res, rej) => {
            if (ended) return rej(ended);
            waiting = { iteration, resolve: res, reject: rej };
            send({ t: "invoke", module: moduleUrl, unit: inv.unitId, iteration, previous: previous ?? null, ctx: inv.data });
          }),
        kill: (why) => {
          killedFor ??= why;
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        },
        close: () => {
          killedFor ??= "attempt ended";
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
        },
      };
      return session;
    },
  };
}

const keyOf = (e: WireError) => `${e.name}\u0000${e.message}`;

function wireOf(err: unknown): WireError {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return { name: err.name, message: err.message, ...(typeof code === "string" ? { code } : {}) };
  }
  return { name: "Error", message: String(err) };
}

/** A request's arguments come from untrusted code: checked for shape before the guarded operation sees them. */
function operation(ops: HandlerOps, op: RequestOp, args: unknown[]): Promise<unknown> {
  const [a, b, c] = args;
  switch (op) {
    case "read":
      if (typeof a !== "string") throw new TypeError("ctx.read takes an artifact name (a string)");
      return ops.read(a);
    case "write":
      if (typeof a !== "string") throw new TypeError("ctx.write takes an artifact name (a string)");
      if (!(b instanceof Uint8Array) && typeof b !== "string" && (typeof b !== "object" || b === null))
        throw new TypeError("ctx.write takes bytes, a string or a JSON value");
      if (c !== undefined && (typeof c !== "object" || c === null)) throw new TypeError("ctx.write's options must be an object");
      return ops.write(a, b, c as Parameters<HandlerOps["write"]>[2]);
    case "tool":
      if (typeof a !== "string") throw new TypeError("ctx.tool takes a tool name (a string)");
      if (typeof b !== "object" || b === null || Array.isArray(b)) throw new TypeError("ctx.tool takes an arguments object");
      return ops.tool(a, b as Record<string, unknown>);
    case "charge":
      return ops.charge(a);
    case "model":
      return ops.model(a);
    default:
      throw new TypeError(`unknown request ${JSON.stringify(op)}`);
  }
}
