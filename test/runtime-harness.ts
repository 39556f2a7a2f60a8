/**
 * Harness for the runtime's end-to-end tests: fresh local services (the
 * examples' blog, booking and mail processes on 127.0.0.1), a temp store and
 * artifact root, and the real `taskspec` CLI run as child processes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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
 * What the fixtures of these suites need: their handlers log each invocation
 * to a file outside the attempt directory and read the worker's environment
 * (TASKSPEC_TEST_LOG, ...), which a handler process may not, so they run with
 * `--isolation none` unless a test says otherwise (test/runtime-isolation.test.ts
 * runs the default, a handler process per attempt). A variable set to
 * undefined is removed from the child's environment.
 */
export const LEGACY_FIXTURE_ENV = { TASKSPEC_ISOLATION: "none" } as const;

/**
 * Runs the real `taskspec` CLI as a child process, with `--store STORE`
 * appended when given. TASKSPEC_CRASH_AT is cleared (a value inherited from
 * the shell would kill the child) unless `env` sets it. `cwd`: where it runs
 * (default: this process's), which places a PostgreSQL store's default
 * artifact root (`.taskspec/artifacts`).
 */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, store?: string, cwd?: string): Promise<CliResult> {
  const merged: Record<string, string | undefined> = { ...process.env, TASKSPEC_CRASH_AT: "", ...LEGACY_FIXTURE_ENV, ...env };
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args, ...(store ? ["--store", store] : [])], {
      env: merged,
      stdio: ["ignore", "pipe", "pipe"],
      ...(cwd ? { cwd } : {}),
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
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
    ...LEGACY_FIXTURE_ENV,
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
