/**
 * Harness for the runtime's end-to-end tests: fresh local services (the
 * examples' blog, booking and mail processes on 127.0.0.1), a temp store and
 * artifact root, and the real `taskspec` CLI run as child processes.
 */
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach } from "vitest";
import { SqliteStore } from "../runtime/src/store/sqlite.js";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
export const FIXTURES = join(ROOT, "runtime/test/fixtures");
const CLI = join(ROOT, "cli/bin/taskspec.js");

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * `--isolation none`, for a test whose handlers must run in the worker's
 * process: handlers that kill their worker, or that log to a file of their
 * own outside the attempt directory. Every other test runs the default, a
 * handler process per attempt. A variable set to undefined is removed from
 * the child's environment.
 */
export const LEGACY_FIXTURE_ENV = { TASKSPEC_ISOLATION: "none" } as const;

/**
 * The fixtures' own switches (runtime/test/fixtures/*-handlers.mjs), which a
 * handler process sees only when `--handler-env` names them.
 */
const FIXTURE_HANDLER_ENV = ["TASKSPEC_TEST_LOG", "TASKSPEC_TEST_DELAY_MS", "TASKSPEC_TEST_SLEEP_MS"];
/** The commands that run handlers (and take `--handler-env`). */
const RUNS_HANDLERS = new Set(["run", "resume", "worker"]);
/** How a fixture handler in a handler process reports an invocation: a line on its stderr, which the worker passes on. */
const INVOCATION_PREFIX = "taskspec-test-invocation ";

/**
 * The argv and environment for a `taskspec` child. A handler process may write
 * only inside its attempt directory, so when TASKSPEC_TEST_LOG names a file
 * and handlers run isolated, the fixtures get `TASKSPEC_TEST_LOG=stderr` (and
 * their other switches) through `--handler-env`, and `spawnCli` moves the
 * lines they print into the file. The fixtures' folder is a read root
 * (`--handler-read`): tests write handler modules that import them.
 */
export function cliChild(
  args: string[],
  env: Record<string, string | undefined>,
): { argv: string[]; env: Record<string, string>; log?: string } {
  const merged: Record<string, string | undefined> = { ...process.env, TASKSPEC_CRASH_AT: "", ...env };
  const flag = args.findIndex((a) => a === "--isolation" || a.startsWith("--isolation="));
  const mode = flag < 0 ? merged.TASKSPEC_ISOLATION : args[flag]!.includes("=") ? args[flag]!.split("=")[1] : args[flag + 1];
  const isolated = (mode ?? "process") !== "none";
  const log = merged.TASKSPEC_TEST_LOG;
  const relay = isolated && RUNS_HANDLERS.has(args[0] ?? "") && log !== undefined && log !== "" && log !== "stderr";
  if (relay) merged.TASKSPEC_TEST_LOG = "stderr";
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  // tests write handler modules of their own into temp folders that import the shared fixtures: a read root
  const handlerEnv =
    isolated && RUNS_HANDLERS.has(args[0] ?? "")
      ? [...FIXTURE_HANDLER_ENV.flatMap((n) => ["--handler-env", n]), "--handler-read", FIXTURES]
      : [];
  return { argv: [...args, ...handlerEnv], env: merged as Record<string, string>, ...(relay ? { log } : {}) };
}

/**
 * Starts the real `taskspec` CLI as a child process (see cliChild): stdout
 * and stderr are collected, and the fixtures' invocation lines on stderr are
 * filed in the log as they arrive (a test may wait for one while the child
 * runs) and left out of the stderr returned.
 */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  cwd?: string,
): { child: ChildProcessByStdio<null, Readable, Readable>; done: Promise<CliResult> } {
  const c = cliChild(args, env);
  const child = spawn(process.execPath, [CLI, ...c.argv], { env: c.env, stdio: ["ignore", "pipe", "pipe"], ...(cwd ? { cwd } : {}) });
  let stdout = "";
  let stderr = "";
  let partial = "";
  const take = (text: string) => {
    const lines = (partial + text).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      if (line.startsWith(INVOCATION_PREFIX) && c.log !== undefined) appendFileSync(c.log, `${line.slice(INVOCATION_PREFIX.length)}\n`);
      else stderr += `${line}\n`;
    }
  };
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => take(d.toString()));
  const done = new Promise<CliResult>((resolve) =>
    child.on("close", (code, signal) => {
      take("\n");
      resolve({ code, signal, stdout, stderr: stderr.replace(/\n$/, partial) });
    }),
  );
  return { child, done };
}

/**
 * Runs the real `taskspec` CLI as a child process, with `--store STORE`
 * appended when given, in the default isolation unless `env` says
 * TASKSPEC_ISOLATION=none (LEGACY_FIXTURE_ENV). TASKSPEC_CRASH_AT is cleared
 * (a value inherited from the shell would kill the child) unless `env` sets
 * it. `cwd`: where it runs (default: this process's), which places a
 * PostgreSQL store's default artifact root (`.taskspec/artifacts`).
 */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, store?: string, cwd?: string): Promise<CliResult> {
  return spawnCli([...args, ...(store ? ["--store", store] : [])], env, cwd).done;
}

/** A temp directory with an invocation log path and a SQLite store in it, for CLI tests that need no services. */
export function tempRunDir(prefix: string): { dir: string; log: string; store: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, log: join(dir, "invocations.log"), store: `sqlite:${join(dir, "store.db")}` };
}

interface ServiceProcess {
  url: string;
  stop(): Promise<void>;
}
type Spawn = (name: "blog" | "booking" | "mail", o: { dataDir: string; faults?: object }) => Promise<ServiceProcess>;

export interface Stats {
  counters: Record<string, number>;
  callsPerKey: Record<string, number>;
}

/** Every member is a property (arrow functions, no `this`), so harnessPerTest can forward reads. */
export interface Harness {
  dir: string;
  db: string;
  store: string;
  env: Record<string, string>;
  services: Record<"blog" | "booking" | "mail", ServiceProcess>;
  cli: (args: string[], env?: Record<string, string>) => Promise<CliResult>;
  stats: (name: "blog" | "booking" | "mail") => Promise<Stats>;
  faults: (name: "blog" | "booking" | "mail", faults: object) => Promise<void>;
  get: (name: "blog" | "booking" | "mail", path: string) => Promise<unknown>;
  invocations: () => string[];
  open: () => Promise<SqliteStore>;
  stop: () => Promise<void>;
}

export async function harness(): Promise<Harness> {
  const { spawnService } = (await import(join(ROOT, "examples/dist/remote/spawn.js"))) as { spawnService: Spawn };
  const dir = mkdtempSync(join(tmpdir(), "taskspec-e2e-"));
  const log = join(dir, "invocations.log");
  writeFileSync(log, "");
  const [blog, booking, mail] = await Promise.all(
    (["blog", "booking", "mail"] as const).map((n) => spawnService(n, { dataDir: join(dir, n) })),
  );
  const services = { blog: blog!, booking: booking!, mail: mail! };
  const env = {
    TASKSPEC_BLOG_URL: blog!.url,
    TASKSPEC_BOOKING_URL: booking!.url,
    TASKSPEC_MAIL_URL: mail!.url,
    TASKSPEC_TEST_LOG: log,
    TASKSPEC_CRASH_AT: "",
  };
  const db = join(dir, "store.db");
  const h: Harness = {
    dir,
    db,
    store: `sqlite:${db}`,
    env,
    services,
    cli: (args, extra = {}) => runCli(args, { ...env, ...extra }, `sqlite:${db}`),
    stats: async (name) => (await (await fetch(`${services[name].url}/stats`)).json()) as Stats,
    faults: async (name, faults) => {
      await fetch(`${services[name].url}/_admin/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(faults),
      });
    },
    get: async (name, path) => (await fetch(`${services[name].url}${path}`)).json(),
    invocations: () => readFileSync(log, "utf8").trim().split("\n").filter(Boolean),
    open: async () => {
      const s = new SqliteStore({ path: db });
      await s.init();
      return s;
    },
    stop: async () => {
      await Promise.all(Object.values(services).map((s) => s.stop()));
    },
  };
  return h;
}

/**
 * A fresh harness for every test of the file, stopped after it. The value
 * returned stands for the current test's harness: each read is forwarded to it.
 */
export function harnessPerTest(): Harness {
  let current: Harness | undefined;
  beforeEach(async () => {
    current = await harness();
  });
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });
  return new Proxy({} as Harness, {
    get: (_, key) => {
      if (!current) throw new Error("harnessPerTest: used outside a test");
      return current[key as keyof Harness];
    },
  });
}

/** The resume token a `run`/`resume` printed for gate `unit` (`approval requested for <unit>: resume token rt_...`). */
export function tokenOf(out: CliResult, unit: string): string {
  const token = new RegExp(`approval requested for ${unit}: resume token (rt_\\S+)`).exec(out.stdout)?.[1];
  if (!token) throw new Error(`no resume token for ${unit} in: ${out.stdout}`);
  return token;
}

export const REMOTE_CONTRACT = join(FIXTURES, "remote.task.yaml");
export const REMOTE_HANDLERS = join(FIXTURES, "remote-handlers.mjs");
export const runArgs = (run: string, contract = REMOTE_CONTRACT, handlers = REMOTE_HANDLERS) => [
  "run",
  contract,
  "--handlers",
  handlers,
  "--run",
  run,
];
