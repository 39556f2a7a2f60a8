/**
 * Runs drill steps as real child processes (child.js) and reports how each
 * ended: exit code or signal, the crash point it named before dying, and its
 * one-line JSON outcome.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, watch } from "node:fs";
import { basename, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { ChildArgs } from "./child.js";

export const CHILD_SCRIPT = fileURLToPath(new URL("./child.js", import.meta.url));

export interface ChildOutcome {
  status?: string;
  blocked?: Array<{ unit?: string; reason: string; detail: string }>;
  error?: string;
  report?: { compensated: string[]; failed: Array<{ effect: string; reason: string }> };
}

export interface ChildResult {
  pid: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  outcome?: ChildOutcome;
  /** The crash point the process announced just before its SIGKILL. */
  fired?: string;
}

export interface ChildHandle {
  pid: number;
  done: Promise<ChildResult>;
  signal(s: NodeJS.Signals): void;
}

const FIRED = /crash point (\S+) reached: SIGKILL/;

export function startChild(args: ChildArgs, env: Record<string, string>): ChildHandle {
  const child = spawn(process.execPath, [CHILD_SCRIPT, JSON.stringify(args)], {
    env: { ...process.env, TASKSPEC_CRASH_AT: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<ChildResult>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      const line = stdout.trim().split("\n").pop();
      let outcome: ChildOutcome | undefined;
      try {
        outcome = line ? (JSON.parse(line) as ChildOutcome) : undefined;
      } catch {
        outcome = undefined;
      }
      const fired = FIRED.exec(stderr)?.[1];
      resolve({ pid: child.pid ?? 0, code, signal, stderr, ...(outcome ? { outcome } : {}), ...(fired ? { fired } : {}) });
    });
  });
  return { pid: child.pid ?? 0, done, signal: (s) => child.kill(s) };
}

/** Resolves once `file` exists (a worker's pause marker): waits on the directory, not a timer. */
export function waitForFile(file: string, child?: Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(file), (_event, name) => {
      if ((name === null || name === basename(file)) && existsSync(file)) finish();
    });
    const finish = () => {
      watcher.close();
      resolve();
    };
    void child?.then(() => {
      if (existsSync(file)) return finish();
      watcher.close();
      reject(new Error(`the worker ended before it reached its pause spot (${basename(file)})`));
    });
    if (existsSync(file)) finish();
  });
}

/** The state letter of process `pid` in /proc (T: stopped by a signal), or undefined where there is no /proc entry. */
function procState(pid: number): string | undefined {
  try {
    // The command name in parentheses may hold spaces; the state is the first field after it.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
  } catch {
    return undefined;
  }
}

/**
 * Resolves once a worker paused at its pause spot is really stopped: its
 * marker exists and the process is in state T. The worker writes the marker
 * and only then stops itself (stopHere in child.ts), so a SIGCONT sent as soon
 * as the marker shows can arrive before the SIGSTOP, do nothing, and leave
 * the worker stopped for good (seen under load: the takeover worker of the
 * paused-past-lease drill hung). Where there is no /proc (not Linux) it
 * resolves on the marker alone. The state is polled every 2 ms: a stop is no
 * event a parent can wait on without waitpid(WUNTRACED), which Node lacks.
 */
export async function waitForPause(marker: string, child: ChildHandle): Promise<void> {
  await waitForFile(marker, child.done);
  if (!existsSync("/proc/self/stat")) return;
  let ended = false;
  void child.done.then(() => (ended = true));
  for (;;) {
    const state = procState(child.pid);
    if (state === "T" || state === "t") return;
    if (ended || state === undefined || state === "Z")
      throw new Error(`the worker ended before it stopped at its pause spot (${basename(marker)})`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
