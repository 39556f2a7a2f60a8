/**
 * Runs the taskspec CLI for the extension, which reads no store itself: the
 * workspace's own install if there is one, else `taskspec` on PATH.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * How long one CLI call may take before it counts as failed. Node's start and
 * the store's open take seconds on a loaded 2-core machine, where a bound of
 * ten seconds showed "status unavailable".
 */
const CLI_TIMEOUT_MS = 60_000;

export function taskspecCommand(cwd: string | undefined): string {
  const local = cwd ? join(cwd, "node_modules", ".bin", "taskspec") : undefined;
  return local && existsSync(local) ? local : "taskspec";
}

/** Its stdout; a non-zero exit rejects with its stderr (the CLI's own message). `env`: added to the extension host's. */
export function taskspecCli(args: string[], cwd: string | undefined, env: Record<string, string> = {}): Promise<string> {
  const options = { cwd, timeout: CLI_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, ...env } };
  return new Promise((resolve, reject) => {
    execFile(taskspecCommand(cwd), args, options, (err, stdout, stderr) => {
      if (err) reject(new Error(stderr.trim() || err.message));
      else resolve(stdout);
    });
  });
}

/** A long-lived CLI process (`taskspec ui`). */
export function spawnTaskspec(args: string[], cwd: string | undefined): ChildProcessWithoutNullStreams {
  return spawn(taskspecCommand(cwd), args, { cwd, stdio: "pipe" });
}
