/**
 * Runs the `taskspec` command as a child process — the demo drives the
 * runtime only through its documented CLI, each step in a fresh process, so
 * a SIGKILL is a real process death and a resume is a real restart.
 */
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { INVOCATION_LINE_PREFIX, INVOCATION_LOG_ENV } from "../handlers/invocation-log.js";
import { TASKSPEC_BIN } from "./paths.js";

/** The commands that run handlers, so take `--handler-env`. */
const RUNS_HANDLERS = new Set(["run", "resume", "worker"]);

export interface CliResult {
  args: string[];
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Handlers run in the default isolation, a handler process per attempt. Their invocation log (the
 * independent proof of what re-ran) is a file they may not write from there, so when `env` names
 * one (TASKSPEC_INVOCATION_LOG) the handlers get `stderr` instead (`--handler-env`), and the lines
 * they print come back on this command's stderr; they are appended to the file here and left out
 * of what the command is shown to have printed.
 */
export function taskspec(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const logFile = env[INVOCATION_LOG_ENV];
  const logs = logFile !== undefined && RUNS_HANDLERS.has(args[0] ?? "");
  const argv = logs ? [...args, "--handler-env", INVOCATION_LOG_ENV] : args;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TASKSPEC_BIN, ...argv], {
      env: { ...process.env, ...env, ...(logs ? { [INVOCATION_LOG_ENV]: "stderr" } : {}) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code, signal) => {
      const lines = stderr.split("\n");
      const calls = lines.filter((l) => l.startsWith(INVOCATION_LINE_PREFIX));
      if (logs && calls.length > 0) appendFileSync(logFile, calls.map((l) => `${l.slice(INVOCATION_LINE_PREFIX.length)}\n`).join(""));
      resolve({ args, code, signal, stdout, stderr: lines.filter((l) => !l.startsWith(INVOCATION_LINE_PREFIX)).join("\n") });
    });
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
