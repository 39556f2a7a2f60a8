/**
 * The handler module's probe: a short-lived handler process (the same
 * launch as an attempt's: Node's permission model, the scrubbed environment,
 * no network where `unshare -rn` works, a scratch directory as its only
 * writable place) that imports the module and reports its export names and
 * the digests of its unit handlers and tool adapters over IPC. The worker's
 * start-up checks (every unit has a handler) and its code digests, and
 * `status`'s code check, use that answer: with a tools module the handler
 * module's code, top level included, never runs with the worker's or the
 * operator's rights.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { RuntimeError } from "../errors.js";
import { launchSpec } from "./launch.js";
import { isFromChild, type ProbedModule, type ToChild } from "./protocol.js";

export type { ProbedModule };

export class ProbeError extends RuntimeError {
  override readonly name = "ProbeError";
}

export interface ProbeOptions {
  /** What the probe may read (handlerReadRoots of each module, and what the run configuration adds). */
  readRoots: readonly string[];
  /** Its whole environment (default: none at all). */
  env?: Record<string, string>;
  isolateNetwork?: boolean;
  /** How long the imports may take (default 30 s): a module whose top level never settles is refused, not waited for. */
  timeoutMs?: number;
  /** Where the probe's stdout and stderr go (default: dropped, the last line is kept for the error). */
  output?: (chunk: Buffer) => void;
}

const TAIL = 2000;

/** Imports `modules` (paths) in one probe process; one answer per module, in order. */
export async function probeModules(modules: readonly string[], o: ProbeOptions): Promise<ProbedModule[]> {
  const scratch = await mkdtemp(join(tmpdir(), "taskspec-probe-"));
  try {
    const spec = launchSpec({ readRoots: o.readRoots, attemptDir: scratch, env: o.env ?? {}, isolateNetwork: o.isolateNetwork ?? true });
    const child = spawn(spec.command, spec.args, {
      cwd: scratch,
      env: spec.env,
      stdio: ["ignore", "pipe", "pipe", "ipc"],
      serialization: "advanced",
    });
    let tail = "";
    const keep = (chunk: Buffer) => {
      o.output?.(chunk);
      tail = (tail + chunk.toString("utf8")).slice(-TAIL);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const timeoutMs = o.timeoutMs ?? 30_000;
    try {
      return await new Promise<ProbedModule[]>((res, rej) => {
        const timer = setTimeout(
          () => rej(new ProbeError(`the modules did not finish loading within ${timeoutMs} ms (a top level that never settles?)`)),
          timeoutMs,
        );
        const done = () => clearTimeout(timer);
        child.on("error", (err) => {
          done();
          rej(new ProbeError(`the probe process could not be started: ${err.message}`));
        });
        child.on("message", (m: unknown) => {
          if (!isFromChild(m)) return;
          if (m.t === "probed") {
            done();
            res(m.modules);
          } else if (m.t === "uncaught") {
            done();
            rej(new ProbeError(`an uncaught error while loading: ${m.error.name}: ${m.error.message}`));
          }
        });
        child.on("close", (code, signal) => {
          done();
          const last = tail
            .trim()
            .split("\n")
            .filter((l) => l.trim() !== "" && !/^Node\.js v\d/.test(l))
            .slice(-1)[0];
          rej(
            new ProbeError(
              `the probe process ${signal ? `was killed by ${signal}` : `exited with code ${code ?? "?"}`} before it answered${last ? `; its last output: ${last}` : ""}`,
            ),
          );
        });
        const msg: ToChild = { t: "probe", modules: modules.map((p) => pathToFileURL(resolve(p)).href) };
        child.send(msg);
      });
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  } finally {
    await rm(scratch, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** What the probe found of a handler module, or a ProbeError naming the module and why it could not be imported. */
export function probedOrThrow(path: string, what: string, probed: ProbedModule | undefined): Extract<ProbedModule, { ok: true }> {
  if (!probed) throw new ProbeError(`the probe gave no answer for ${what} ${path}`);
  if (!probed.ok) throw new ProbeError(`cannot load ${what} ${path} (in its probe process): ${probed.error.name}: ${probed.error.message}`);
  return probed;
}
