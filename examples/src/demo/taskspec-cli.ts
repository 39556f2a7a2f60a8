/**
 * Runs the `taskspec` command as a child process — the demo drives the
 * runtime only through its documented CLI, each step in a fresh process, so
 * a SIGKILL is a real process death and a resume is a real restart.
 */
import { spawn } from "node:child_process";
import { TASKSPEC_BIN } from "./paths.js";

export interface CliResult {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function taskspec(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    // The demo's handlers count their invocations in a file outside their attempt directory (the
    // independent proof of what re-ran), which a handler process may not write: they run in the worker.
    const child = spawn(process.execPath, [TASKSPEC_BIN, ...args], {
      env: { TASKSPEC_ISOLATION: "none", ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ args, code, signal, stdout, stderr }));
  });
}

/**
 * The resume token `run`/`resume` printed for the gate `unit` when the run
 * blocked there (`approval requested for <unit>: resume token rt_...`): what
 * a person hands to `taskspec approve --token`. A demo error when there is none.
 */
export function resumeTokenIn(result: CliResult, unit: string): string {
  const token = new RegExp(`approval requested for ${unit}: resume token (rt_\\S+)`).exec(result.stdout)?.[1];
  if (!token) throw new Error(`taskspec ${result.args.join(" ")} printed no resume token for ${unit}: ${result.stdout.trim()}`);
  return token;
}

/** `taskspec <args> --format json`, parsed; a failure is a demo error with the command's own words. */
export async function taskspecJson<T>(args: string[], env: Record<string, string | undefined> = {}): Promise<T> {
  const result = await taskspec([...args, "--format", "json"], env);
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`taskspec ${args.join(" ")} exited ${result.code}: ${(result.stderr || result.stdout).trim()}`);
  }
}

/**
 * What a person should see of a command: its log (stderr) first, then its
 * summary (stdout); of the progress lines only the last one.
 */
export function shown(result: CliResult): string {
  const log = result.stderr.split("\n");
  const progress = log.filter((line) => line.includes("[progress]"));
  const rest = log.filter((line) => !line.includes("[progress]") && line.trim() !== "");
  return [...rest, ...progress.slice(-1), result.stdout.trim()].filter(Boolean).join("\n");
}

export function describeExit(result: CliResult): string {
  return result.signal ? `killed by ${result.signal}` : `exit code ${result.code}`;
}
